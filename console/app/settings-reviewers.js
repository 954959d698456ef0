// Review links: which reviewer agent reviews an inbox's sends (or the whole project's) instead of
// the human queue; link one, pause or resume it, remove it.
import { del, get, patch, post } from './api.js';
import { Field, ProblemView, useAction, useLoad } from './settings-kit.js';
import { html, useState } from './ui.js';

function LinkForm({ base, agents, inboxes, onLinked }) {
  const [reviewer, setReviewer] = useState('');
  const [scope, setScope] = useState('');
  const [transport, setTransport] = useState('sse');
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [run, problem, busy] = useAction();
  const submit = async (e) => {
    e.preventDefault();
    const body = { reviewer_agent_id: reviewer || agents[0]?.id || '', transport };
    if (scope) body.inbox_address = scope;
    if (transport === 'webhook') Object.assign(body, { webhook_url: url, hmac_secret: secret });
    const r = await run(() => post(`${base}/review-links`, body));
    if (r) setSecret(''), onLinked(r);
  };
  return html`<form onSubmit=${submit} aria-labelledby="link-title">
    <h3 id="link-title">Link a reviewer agent</h3>
    <${Field} id="link-reviewer" label="Reviewer agent">
      <select id="link-reviewer" value=${reviewer} onChange=${(e) => setReviewer(e.target.value)}>
        ${agents.map((a) => html`<option value=${a.id}>${a.handle}</option>`)}
      </select>
    <//>
    <${Field} id="link-scope" label="Reviews of">
      <select id="link-scope" value=${scope} onChange=${(e) => setScope(e.target.value)}>
        <option value="">Every inbox of the project</option>
        ${inboxes.map((i) => html`<option value=${i.address}>${i.address}</option>`)}
      </select>
    <//>
    <${Field} id="link-transport" label="Transport">
      <select id="link-transport" value=${transport} onChange=${(e) => setTransport(e.target.value)}>
        <option value="sse">sse (the reviewer reads its queue)</option><option value="websocket">websocket</option><option value="webhook">webhook (pushed, signed)</option>
      </select>
    <//>
    ${transport === 'webhook' &&
    html`<${Field} id="link-url" label="Webhook URL"><input id="link-url" type="url" required value=${url} onInput=${(e) => setUrl(e.target.value)} /><//>
      <${Field} id="link-secret" label="Signing secret (16 characters or more; never shown again)"><input id="link-secret" type="password" required minlength="16" autocomplete="off" value=${secret} onInput=${(e) => setSecret(e.target.value)} /><//>`}
    <button type="submit" disabled=${busy}>Link reviewer</button>
    <${ProblemView} error=${problem} />
  </form>`;
}

export function ReviewerSettings({ base }) {
  const [data, problem, reload] = useLoad(
    () => Promise.all([get(`${base}/review-links?limit=100`), get(`${base}/agents`), get(`${base}/inboxes?limit=100`)]).then(([l, a, i]) => ({ links: l.data, agents: a.items, inboxes: i.data })),
    [base],
  );
  const [run, actionProblem] = useAction();
  const [status, setStatus] = useState('');
  const act = async (fn, done) => {
    if ((await run(fn)) !== undefined) setStatus(done), reload();
  };
  const handle = (id) => data.agents.find((a) => a.id === id)?.handle ?? id;
  return html`<section aria-labelledby="reviewers-title">
    <h2 id="reviewers-title">Review links</h2>
    <${ProblemView} error=${problem ?? actionProblem} />
    <p role="status">${status}</p>
    ${data &&
    html`<${LinkForm} base=${base} agents=${data.agents} inboxes=${data.inboxes} onLinked=${(r) => (setStatus(`Linked ${handle(r.reviewer_agent_id)}.`), reload())} />
      ${data.links.length === 0
        ? html`<p>No review links: every review goes to the human queue.</p>`
        : html`<table class="queue">
            <caption>Review links</caption>
            <thead><tr><th scope="col">Reviews of</th><th scope="col">Reviewer</th><th scope="col">Transport</th><th scope="col">State</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>${data.links.map(
              (l) => html`<tr key=${l.id} data-link=${l.id}>
                <td>${l.inbox_address || 'every inbox'}</td><td>${handle(l.reviewer_agent_id)}</td><td>${l.transport}${l.webhook_url ? ` to ${l.webhook_url}` : ''}</td>
                <td>${l.active ? 'active' : 'paused'}${l.consec_failures ? `, ${l.consec_failures} failed push(es)` : ''}</td>
                <td class="actions">
                  <button type="button" onClick=${() => act(() => patch(`${base}/review-links/${l.id}`, { active: !l.active }), `${l.active ? 'Paused' : 'Resumed'} the link.`)}>${l.active ? 'Pause' : 'Resume'}</button>
                  <button type="button" onClick=${() => act(() => del(`${base}/review-links/${l.id}`), 'Removed the link.')}>Remove</button>
                </td>
              </tr>`,
            )}</tbody>
          </table>`}`}
  </section>`;
}
