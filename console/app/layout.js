// A small pure layout for a machine's state diagram: states in rows, each row below every state
// that leads to it (the longest path from the initial state, once the edges that go back up a
// path are set aside), ordered within a row by where the states leading to them stand. No
// imports, so it runs the same in the page and in a test.

export const BOX = { w: 156, h: 34, gapX: 28, gapY: 52, pad: 24 };

/** The edges that lead back to a state on the path that reached them (a depth-first walk from the initial state). */
function backEdges(graph) {
  const back = new Set();
  const state = new Map(); // 1: on the current path, 2: done
  const visit = (name) => {
    state.set(name, 1);
    for (const e of graph.edges) {
      if (e.from !== name || e.to === name) continue;
      if (state.get(e.to) === 1) back.add(e);
      else if (!state.has(e.to)) visit(e.to);
    }
    state.set(name, 2);
  };
  visit(graph.initial);
  return back;
}

/**
 * `graph`: {initial, states: [{name, final}], edges: [{from, to}]}. Returns each state's box
 * (x, y of its top-left corner, row), the drawing's size, and the edges grouped by the pair of
 * states they join (several events between the same two states are one arrow).
 */
export function layoutMachine(graph) {
  const names = graph.states.map((s) => s.name);
  const back = backEdges(graph);
  const forward = graph.edges.filter((e) => e.from !== e.to && !back.has(e));
  // Longest path over what is left, which has no cycle: relax until nothing moves.
  const depth = new Map([[graph.initial, 0]]);
  for (let moved = true; moved; ) {
    moved = false;
    for (const e of forward) {
      if (depth.has(e.from) && (depth.get(e.to) ?? -1) < depth.get(e.from) + 1) {
        depth.set(e.to, depth.get(e.from) + 1);
        moved = true;
      }
    }
  }
  // A state no edge reaches still gets a place: one row below the deepest.
  const deepest = Math.max(0, ...depth.values());
  for (const n of names) if (!depth.has(n)) depth.set(n, deepest + 1);
  const rows = [];
  for (const n of names) (rows[depth.get(n)] ??= []).push(n);
  const packed = rows.filter(Boolean);
  // Each row ordered by the mean place of the states above that lead to it, so arrows cross less.
  const place = new Map();
  packed.forEach((row, r) => {
    if (r > 0) {
      const mean = (n) => {
        const from = forward.filter((e) => e.to === n && place.has(e.from)).map((e) => place.get(e.from));
        return from.length ? from.reduce((a, b) => a + b, 0) / from.length : Infinity;
      };
      const keyed = row.map((n, i) => ({ n, i, m: mean(n) }));
      keyed.sort((a, b) => a.m - b.m || a.i - b.i);
      row.splice(0, row.length, ...keyed.map((k) => k.n));
    }
    row.forEach((n, i) => place.set(n, i - (row.length - 1) / 2));
  });
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
  const bow = Math.min(a.x, b.x) - 24 - 10 * (a.row - b.row);
  return `M ${a.x} ${a.y + BOX.h / 2} C ${bow} ${a.y + BOX.h / 2}, ${bow} ${b.y + BOX.h / 2}, ${b.x} ${b.y + BOX.h / 2}`;
}

/** The pairs of states each recorded transition joined (the first one leaves the initial state). */
export function takenPairs(graph, transitions) {
  return new Set(transitions.map((t) => `${t.from_state ?? graph.initial}\u0000${t.to_state}`));
}
