// Review policy: the account default (every project of the org reads it) and each inbox's override,
// with the policy that applies to the inbox now and where it comes from.
import { get, patch } from './api.js';
import { Field, ProblemView, useAction, useLoad } from './settings-kit.js';
import { html, useState } from './ui.js';

const POLICIES = { require_review: 'Every send is reviewed', allow_direct: 'Sends go out directly' };

function AccountPolicy({ base, onSaved }) {
  const [settings, loadProblem, reload] = useLoad(() => get(`${base}/review-settings`), [base]);
  const [choice, setChoice] = useState(null);
  const [run, problem, busy] = useAction();
  const [saved, setSaved] = useState('');
  if (loadProblem) return html`<${ProblemView} error=${loadProblem} />`;
  if (!settings) return html`<p>Loading…</p>`;
  const value = choice ?? settings.default_review_policy;
  const save = async (e) => {
    e.preventDefault();
    const r = await run(() => patch(`${base}/review-settings`, { default_review_policy: value }));
    if (r) setSaved(`Account policy saved: ${POLICIES[r.default_review_policy]}.`), setChoice(null), reload(), onSaved();
  };
  return html`<form onSubmit=${save} aria-labelledby="account-policy-title">
    <h3 id="account-policy-title">Account default</h3>
    <${Field} id="account-policy" label="Default review policy">
      <select id="account-policy" value=${value} onChange=${(e) => (setChoice(e.target.value), setSaved(''))}>
        ${Object.entries(POLICIES).map(([v, label]) => html`<option value=${v}>${label} (${v})</option>`)}
      </select>
    <//>
    <button type="submit" disabled=${busy}>Save account policy</button>
    <${ProblemView} error=${problem} />
    <p role="status">${saved}</p>
  </form>`;
}

function InboxPolicy({ base, inbox, onSaved }) {
  const [choice, setChoice] = useState(inbox.review_policy ?? '');
  const [run, problem, busy] = useAction();
  const id = `policy-${inbox.id}`;
  const save = async (e) => {
    e.preventDefault();
    const r = await run(() => patch(`${base}/inboxes/${inbox.id}`, { review_policy: choice || null }));
    if (r) onSaved(r);
  };
  const eff = inbox.effective_review_policy;
  return html`<tr data-inbox=${inbox.id}>
    <th scope="row">${inbox.address}</th>
    <td>${eff ? `${eff.policy} (${eff.source === 'inbox_override' ? 'this inbox' : 'account default'})` : '—'}</td>
    <td>
      <form class="inline" onSubmit=${save}>
        <label for=${id} class="visually-hidden">Review policy of ${inbox.address}</label>
        <select id=${id} value=${choice} onChange=${(e) => setChoice(e.target.value)}>
          <option value="">Inherit the account default</option>
          ${Object.entries(POLICIES).map(([v, label]) => html`<option value=${v}>${label} (${v})</option>`)}
        </select>
        <button type="submit" disabled=${busy} aria-label=${`Save the policy of ${inbox.address}`}>Save</button>
      </form>
      <${ProblemView} error=${problem} />
    </td>
  </tr>`;
}

export function PolicySettings({ base }) {
  const [inboxes, problem, reload] = useLoad(() => get(`${base}/inboxes?limit=100`).then((p) => p.data), [base]);
  const [saved, setSaved] = useState('');
  return html`<section aria-labelledby="policy-title">
    <h2 id="policy-title">Review policy</h2>
    <${AccountPolicy} base=${base} onSaved=${reload} />
    <h3>Inboxes</h3>
    <p role="status">${saved}</p>
    ${problem && html`<${ProblemView} error=${problem} />`}
    ${inboxes === null
      ? !problem && html`<p>Loading…</p>`
      : inboxes.length === 0
        ? html`<p>No inboxes yet.</p>`
        : html`<table class="queue">
            <caption class="visually-hidden">Each inbox's review policy</caption>
            <thead><tr><th scope="col">Inbox</th><th scope="col">Applies now</th><th scope="col">Override</th></tr></thead>
            <tbody>${inboxes.map((i) => html`<${InboxPolicy} key=${i.id} base=${base} inbox=${i} onSaved=${(r) => (setSaved(`Saved the policy of ${r.address}.`), reload())} />`)}</tbody>
          </table>`}
  </section>`;
}
