// Enrollment tokens: the project's tokens (by prefix only), issuing one (its secret shown once)
// and revoking one, after which an agent can no longer enroll with it.
import { del, get, post } from './api.js';
import { Field, ProblemView, SecretOnce, useAction, useLoad, when } from './settings-kit.js';
import { html, useState } from './ui.js';

function IssueForm({ base, onIssued }) {
  const [label, setLabel] = useState('');
  const [reusable, setReusable] = useState(false);
  const [hours, setHours] = useState('72');
  const [run, problem, busy] = useAction();
  const submit = async (e) => {
    e.preventDefault();
    const body = { label, reusable };
    if (hours !== '') body.expires_in_hours = Number(hours);
    const r = await run(() => post(`${base}/enrollment-tokens`, body));
    if (r) setLabel(''), onIssued(r);
  };
  return html`<form onSubmit=${submit} aria-labelledby="issue-token-title">
    <h3 id="issue-token-title">Issue a token</h3>
    <${Field} id="token-label" label="Label"><input id="token-label" value=${label} maxlength="200" onInput=${(e) => setLabel(e.target.value)} /><//>
    <${Field} id="token-hours" label="Expires in hours"><input id="token-hours" type="number" min="1" value=${hours} onInput=${(e) => setHours(e.target.value)} /><//>
    <div class="field"><label><input type="checkbox" checked=${reusable} onChange=${(e) => setReusable(e.target.checked)} /> Reusable (many agents may enroll with it)</label></div>
    <button type="submit" disabled=${busy}>Issue token</button>
    <${ProblemView} error=${problem} />
  </form>`;
}

export function EnrollmentSettings({ base }) {
  const [tokens, problem, reload] = useLoad(() => get(`${base}/enrollment-tokens`).then((r) => r.items), [base]);
  const [secret, setSecret] = useState(null);
  const [run, actionProblem] = useAction();
  const [status, setStatus] = useState('');
  const revoke = async (t) => {
    if ((await run(() => del(`${base}/enrollment-tokens/${t.id}`))) !== undefined) setStatus(`Revoked ${t.label || t.prefix}.`), reload();
  };
  return html`<section aria-labelledby="enrollment-title">
    <h2 id="enrollment-title">Enrollment tokens</h2>
    <p>An agent redeems a token at <code>POST /v1/enroll</code> for its own key.</p>
    ${secret
      ? html`<${SecretOnce} label="Enrollment token" value=${secret} onDone=${() => setSecret(null)} />`
      : html`<${IssueForm} base=${base} onIssued=${(r) => (setSecret(r.token), setStatus(`Issued ${r.label || r.prefix}.`), reload())} />`}
    <p role="status">${status}</p>
    <${ProblemView} error=${problem ?? actionProblem} />
    ${tokens &&
    (tokens.length === 0
      ? html`<p>No tokens yet.</p>`
      : html`<table class="queue">
          <caption class="visually-hidden">The project's enrollment tokens</caption>
          <thead><tr><th scope="col">Label</th><th scope="col">Prefix</th><th scope="col">Reusable</th><th scope="col">Redeemed</th><th scope="col">Expires</th><th scope="col">State</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
          <tbody>${tokens.map(
            (t) => html`<tr key=${t.id} data-token=${t.id}>
              <td>${t.label || '—'}</td><td><code>${t.prefix}</code></td><td>${t.reusable ? 'yes' : 'no'}</td><td>${t.redemptions ?? 0}</td>
              <td>${when(t.expires_at)}</td><td>${t.revoked_at ? `revoked ${when(t.revoked_at)}` : 'live'}</td>
              <td>${!t.revoked_at && html`<button type="button" onClick=${() => revoke(t)} aria-label=${`Revoke ${t.label || t.prefix}`}>Revoke</button>`}</td>
            </tr>`,
          )}</tbody>
        </table>`)}
  </section>`;
}
