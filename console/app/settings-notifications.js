// Notifications: how review notices reach the signed-in member in this project (a mail each time,
// a digest every N minutes, or none), and the project's chat-ops channel (an incoming webhook that
// gets the same notices as short messages; owners and admins set it).
import { call, get } from './api.js';
import { Field, ProblemView, useAction, useLoad, when } from './settings-kit.js';
import { html, useState } from './ui.js';

const MODES = { instant: 'A mail each time a review waits for me', digest: 'One digest mail every few minutes', off: 'No notifications' };

function MyPreference({ base }) {
  const [pref, loadProblem, reload] = useLoad(() => get(`${base}/notification-preferences`), [base]);
  const [mode, setMode] = useState(null);
  const [minutes, setMinutes] = useState(null);
  const [run, problem, busy] = useAction();
  const [saved, setSaved] = useState('');
  if (loadProblem) return html`<${ProblemView} error=${loadProblem} />`;
  if (!pref) return html`<p>Loading…</p>`;
  const m = mode ?? pref.mode;
  const n = minutes ?? pref.digest_minutes;
  const save = async (e) => {
    e.preventDefault();
    const r = await run(() => call('PUT', `${base}/notification-preferences`, { mode: m, digest_minutes: Number(n) }));
    if (r) setSaved(`Saved: ${MODES[r.mode]}${r.mode === 'digest' ? ` (every ${r.digest_minutes} minutes)` : ''}.`), setMode(null), setMinutes(null), reload();
  };
  return html`<form onSubmit=${save} aria-labelledby="my-notifications-title">
    <h3 id="my-notifications-title">My review notifications</h3>
    <p>Sent when a review starts waiting for a human, nears its deadline, or a mail of an auto_notify category went out on its own. Each mail has one-time Approve and Reject links; you can also reply to it.</p>
    <${Field} id="notify-mode" label="How I am told">
      <select id="notify-mode" value=${m} onChange=${(e) => (setMode(e.target.value), setSaved(''))}>
        ${Object.entries(MODES).map(([v, label]) => html`<option value=${v}>${label}</option>`)}
      </select>
    <//>
    ${m === 'digest' &&
    html`<${Field} id="notify-minutes" label="Digest every (minutes)">
      <input id="notify-minutes" type="number" min="5" max="1440" value=${n} onInput=${(e) => (setMinutes(e.target.value), setSaved(''))} />
    <//>`}
    <button type="submit" disabled=${busy}>Save my notifications</button>
    <${ProblemView} error=${problem} />
    <p role="status">${saved}</p>
  </form>`;
}

function Chatops({ base }) {
  const [channel, loadProblem, reload] = useLoad(() => get(`${base}/chatops`), [base]);
  const [url, setUrl] = useState(null);
  const [run, problem, busy] = useAction();
  const [saved, setSaved] = useState('');
  if (loadProblem) return html`<${ProblemView} error=${loadProblem} />`;
  if (!channel) return html`<p>Loading…</p>`;
  const value = url ?? channel.webhook_url ?? '';
  const save = async (e) => {
    e.preventDefault();
    const r = await run(() => call('PUT', `${base}/chatops`, { webhook_url: value.trim() === '' ? null : value.trim() }));
    if (r) setSaved(r.webhook_url ? `Chat-ops channel saved (${when(r.updated_at)}).` : 'Chat-ops channel removed.'), setUrl(null), reload();
  };
  return html`<form onSubmit=${save} aria-labelledby="chatops-title">
    <h3 id="chatops-title">Chat-ops channel</h3>
    <${Field} id="chatops-url" label="Incoming webhook URL (Slack-compatible); empty removes it">
      <input id="chatops-url" type="url" value=${value} onInput=${(e) => (setUrl(e.target.value), setSaved(''))} />
    <//>
    <button type="submit" disabled=${busy}>Save chat-ops channel</button>
    <${ProblemView} error=${problem} />
    <p role="status">${saved}</p>
  </form>`;
}

export function NotificationSettings({ base }) {
  return html`<section aria-labelledby="notifications-title">
    <h2 id="notifications-title">Notifications</h2>
    <${MyPreference} base=${base} />
    <${Chatops} base=${base} />
  </section>`;
}
