// Times as people read them: "3 min ago", with the exact time on hover (and for screen readers,
// in the element's datetime).
import { html } from './ui.js';

export function ago(iso, now = Date.now()) {
  const s = Math.round((now - Date.parse(iso)) / 1000);
  if (s < 0) return 'just now';
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.max(1, Math.round(s / 60))} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  if (s < 7 * 86400) return `${Math.round(s / 86400)} d ago`;
  return new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

export const exact = (iso) => new Date(iso).toLocaleString(undefined, { dateStyle: 'full', timeStyle: 'long' });

export function When({ at }) {
  if (!at) return html`<span>—</span>`;
  return html`<time datetime=${at} title=${exact(at)}>${ago(at)}</time>`;
}
