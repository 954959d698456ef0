// The keyboard flow, written once: the help dialog lists exactly what the handler answers.
import { html } from './ui.js';

export const KEYS = [
  ['j', 'next review'],
  ['k', 'previous review'],
  ['Enter', 'open the review on its own page, with its conversation'],
  ['a', 'approve the review on screen'],
  ['e', 'edit in place'],
  ['r', 'reject with feedback'],
  ['c', 'chat with the composing agent'],
  ['x', 'cancel the review (asks to confirm)'],
  ['Ctrl+Enter', 'in a form: submit (Cmd+Enter on a Mac); an edit shows its diff first, then sends'],
  ['Escape', 'in a form: discard it; else back to the queue, or close this list'],
  ['?', 'show or hide these keys'],
];

/** Said once under the list: why a key sometimes sends nothing. */
export const HOLD_NOTE = 'When the review on screen changes, its changes are shown and the next decision key only confirms you looked; press it again to decide.';

/** Keys typed into a form field are text, not commands. */
export const typingIn = (target) => target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

export function KeyHelp({ onClose }) {
  return html`<div class="dialog" role="dialog" aria-modal="true" aria-labelledby="keys-title">
    <h2 id="keys-title">Keyboard</h2>
    <dl class="keys">${KEYS.map(([k, what]) => html`<dt><kbd>${k}</kbd></dt><dd>${what}</dd>`)}</dl>
    <p>${HOLD_NOTE}</p>
    <button type="button" onClick=${onClose} autofocus>Close</button>
  </div>`;
}
