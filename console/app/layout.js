// A small pure layout for a machine's state diagram: states in rows by their distance from the
// initial state (breadth first over the edges), each row centred, in the definition's order. No
// imports, so it runs the same in the page and in a test.

export const BOX = { w: 156, h: 34, gapX: 28, gapY: 64, pad: 24 };

/**
 * `graph`: {initial, states: [{name, final}], edges: [{from, to}]}. Returns each state's box
 * (x, y of its top-left corner, row), the drawing's size, and the edges grouped by the pair of
 * states they join (several events between the same two states are one arrow).
 */
export function layoutMachine(graph) {
  const names = graph.states.map((s) => s.name);
  const depth = new Map([[graph.initial, 0]]);
  const queue = [graph.initial];
  while (queue.length) {
    const at = queue.shift();
    for (const e of graph.edges) {
      if (e.from === at && !depth.has(e.to)) {
        depth.set(e.to, depth.get(at) + 1);
        queue.push(e.to);
      }
    }
  }
  // A state no edge reaches still gets a place: one row below the deepest.
  const deepest = Math.max(0, ...depth.values());
  for (const n of names) if (!depth.has(n)) depth.set(n, deepest + 1);
  const rows = [];
  for (const n of names) (rows[depth.get(n)] ??= []).push(n);
  const packed = rows.filter(Boolean);
  const widest = Math.max(...packed.map((r) => r.length));
  const width = BOX.pad * 2 + widest * BOX.w + (widest - 1) * BOX.gapX;
  const boxes = new Map();
  packed.forEach((row, r) => {
    const rowWidth = row.length * BOX.w + (row.length - 1) * BOX.gapX;
    const left = (width - rowWidth) / 2;
    row.forEach((name, i) => boxes.set(name, { name, row: r, x: left + i * (BOX.w + BOX.gapX), y: BOX.pad + r * (BOX.h + BOX.gapY) }));
  });
  const height = BOX.pad * 2 + packed.length * BOX.h + (packed.length - 1) * BOX.gapY;
  const pairs = new Map();
  for (const e of graph.edges) {
    const key = `${e.from}\u0000${e.to}`;
    if (!pairs.has(key)) pairs.set(key, { from: e.from, to: e.to, events: [] });
    const label = e.guard ? `${e.event} [${e.guard}]` : e.event;
    if (!pairs.get(key).events.includes(label)) pairs.get(key).events.push(label);
  }
  return { boxes, width, height, arrows: [...pairs.values()] };
}

/**
 * The SVG path of an arrow between two boxes: straight down to a lower row, a curve to the side
 * for one in the same row or going back up (so it does not cross the boxes between), a loop on
 * the right edge for a self-transition.
 */
export function arrowPath(a, b) {
  const cx = (box) => box.x + BOX.w / 2;
  if (a === b) {
    const x = a.x + BOX.w, y = a.y + BOX.h / 2;
    return `M ${x} ${y - 8} C ${x + 30} ${y - 24}, ${x + 30} ${y + 24}, ${x} ${y + 8}`;
  }
  if (b.row > a.row) return `M ${cx(a)} ${a.y + BOX.h} C ${cx(a)} ${a.y + BOX.h + 30}, ${cx(b)} ${b.y - 30}, ${cx(b)} ${b.y}`;
  if (b.row === a.row) {
    const y = a.y;
    return `M ${cx(a)} ${y} C ${cx(a)} ${y - 36}, ${cx(b)} ${y - 36}, ${cx(b)} ${y}`;
  }
  // Upwards: leave from the left side and come into the target's left side, bowing outwards.
  const bow = Math.min(a.x, b.x) - 40 - 8 * (a.row - b.row);
  return `M ${a.x} ${a.y + BOX.h / 2} C ${bow} ${a.y + BOX.h / 2}, ${bow} ${b.y + BOX.h / 2}, ${b.x} ${b.y + BOX.h / 2}`;
}

/** The pairs of states each recorded transition joined (the first one leaves the initial state). */
export function takenPairs(graph, transitions) {
  return new Set(transitions.map((t) => `${t.from_state ?? graph.initial}\u0000${t.to_state}`));
}
