// The "machine" view of a machine-backed record (a review, a category, a rule, a support case):
// the state diagram generated from the machine's definition, with the current state marked and
// the transitions that led there highlighted, and the same history as a table.
import { get } from './api.js';
import { BOX, arrowPath, layoutMachine, takenPairs } from './layout.js';
import { html, useEffect, useState } from './ui.js';

function Diagram({ machine }) {
  const graph = machine.diagram;
  const { boxes, width, height, arrows } = layoutMachine(graph);
  const taken = takenPairs(graph, machine.transitions);
  const isTaken = (a) => taken.has(`${a.from}\u0000${a.to}`);
  // Taken arrows last, so they are drawn over the others.
  const ordered = [...arrows.filter((a) => !isTaken(a)), ...arrows.filter(isTaken)];
  const titleId = `machine-title-${machine.id}`;
  return html`<svg class="machine" viewBox=${`-100 0 ${width + 140} ${height}`} role="img" aria-labelledby=${titleId}>
    <title id=${titleId}>State diagram of ${machine.kind} ${machine.id}: now in ${machine.state}; ${machine.transitions.length} transition(s) taken</title>
    <defs>
      <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="head" /></marker>
      <marker id="arrow-taken" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="head taken" /></marker>
    </defs>
    ${ordered.map(
      (a) => html`<path class=${isTaken(a) ? 'edge taken' : 'edge'} data-from=${a.from} data-to=${a.to} d=${arrowPath(boxes.get(a.from), boxes.get(a.to))}
        marker-end=${isTaken(a) ? 'url(#arrow-taken)' : 'url(#arrow)'}><title>${a.from} → ${a.to}: ${a.events.join(', ')}</title></path>`,
    )}
    ${graph.states.map((s) => {
      const b = boxes.get(s.name);
      const current = s.name === machine.state;
      return html`<g class=${`state${current ? ' current' : ''}${s.final ? ' final' : ''}`} data-state=${s.name}>
        <rect x=${b.x} y=${b.y} width=${BOX.w} height=${BOX.h} rx="8" />
        <text x=${b.x + BOX.w / 2} y=${b.y + BOX.h / 2 + 4} text-anchor="middle">${current ? `▶ ${s.name}` : s.name}</text>
      </g>`;
    })}
  </svg>`;
}

/** The recorded transitions, oldest first, for reading and for screen readers. */
function TransitionTable({ machine }) {
  return html`<table class="transitions">
    <caption>Transitions that led to ${machine.state}</caption>
    <thead><tr><th scope="col">Version</th><th scope="col">Event</th><th scope="col">From</th><th scope="col">To</th><th scope="col">When</th></tr></thead>
    <tbody>
      ${machine.transitions.map(
        (t) => html`<tr key=${t.version}>
          <td>${t.version}</td><td>${t.event.type}</td><td>${t.from_state ?? `(start: ${machine.diagram.initial})`}</td><td>${t.to_state}</td>
          <td><time datetime=${t.created_at}>${new Date(t.created_at).toLocaleString()}</time></td>
        </tr>`,
      )}
    </tbody>
  </table>`;
}

export function MachineView({ base, kind, id }) {
  const [machine, setMachine] = useState(null);
  const [problem, setProblem] = useState(null);
  useEffect(() => {
    get(`${base}/machines/${encodeURIComponent(kind)}/${encodeURIComponent(id)}`).then(setMachine, (err) =>
      setProblem(err.status === 404 ? `No ${kind} ${id} in this project.` : err.message),
    );
  }, [base, kind, id]);
  if (problem) return html`<p role="alert" class="error">${problem}</p>`;
  if (!machine) return html`<p>Loading the machine…</p>`;
  const heading = `machine-heading-${kind}-${id}`;
  return html`<section class="machine-view" aria-labelledby=${heading}>
    <h2 id=${heading}>Machine: ${machine.kind}, now <strong>${machine.state}</strong></h2>
    <p>Version ${machine.version}. Legal now: ${machine.allowed_actions.length ? machine.allowed_actions.join(', ') : 'nothing; it is finished'}.
      The current state is marked ▶; the transitions taken are drawn bold.</p>
    <div class="diagram"><${Diagram} machine=${machine} /></div>
    <${TransitionTable} machine=${machine} />
  </section>`;
}
