// The keyboard flow, written once: the help dialog lists exactly what the handler answers.
import { html } from './ui.js';

export const KEYS = [
  ['j', 'next review'],
  ['k', 'previous review'],
  ['Enter', 'open the review'],
  ['a', 'approve'],
  ['e', 'edit in place (the diff is shown before it is sent)'],
  ['r', 'reject with feedback'],
  ['c', 'chat with the composing agent'],
  ['x', 'cancel the review'],
  ['Escape', 'close the review or this list'],
  ['?', 'show or hide these keys'],
];

/** Keys typed into a form field are text, not commands. */
export const typingIn = (target) => target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

export function KeyHelp({ onClose }) {
  return html`<div class="dialog" role="dialog" aria-modal="true" aria-labelledby="keys-title">
    <h2 id="keys-title">Keyboard</h2>
    <dl class="keys">${KEYS.map(([k, what]) => html`<dt><kbd>${k}</kbd></dt><dd>${what}</dd>`)}</dl>
    <button type="button" onClick=${onClose} autofocus>Close</button>
  </div>`;
}
