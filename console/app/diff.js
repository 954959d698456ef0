// Line diff for the edit preview: the same shape the service records with an edit
// (`-` removed, `+` added, ` ` kept), so the preview and the history read alike.
import { html } from './ui.js';

export function diffLines(before, after) {
  const a = (before ?? '').split('\n');
  const b = (after ?? '').split('\n');
  const lcs = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  }
  const out = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) out.push({ op: ' ', line: a[i++] }), j++;
    else if (lcs[i + 1][j] >= lcs[i][j + 1]) out.push({ op: '-', line: a[i++] });
    else out.push({ op: '+', line: b[j++] });
  }
  while (i < a.length) out.push({ op: '-', line: a[i++] });
  while (j < b.length) out.push({ op: '+', line: b[j++] });
  return out;
}

const CLASS = { ' ': 'kept', '-': 'removed', '+': 'added' };
const LABEL = { ' ': 'kept', '-': 'removed', '+': 'added' };

/** One field's diff as a list of lines, each marked for sighted and screen-reader users alike. */
export function DiffView({ field, lines }) {
  return html`<figure class="diff">
    <figcaption>${field}</figcaption>
    <pre>${lines.map((l) => html`<span class=${CLASS[l.op]}><span class="op" aria-hidden="true">${l.op}</span><span class="visually-hidden">${LABEL[l.op]}: </span>${l.line}\n</span>`)}</pre>
  </figure>`;
}
