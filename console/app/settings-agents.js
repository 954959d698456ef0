// Agents and their API keys: each agent of the project, its keys (by prefix only), issuing a key
// (shown once) and revoking one, after which the key is refused.
import { del, get, post } from './api.js';
import { Field, ProblemView, SecretOnce, useAction, useLoad, when } from './settings-kit.js';
import { html, useState } from './ui.js';

// The permissions a person may grant from here; signup:verify belongs to sign-up keys only.
const PERMISSIONS = ['mailbox:create', 'mailbox:read', 'mailbox:send', 'mailbox:delete', 'mailbox:credentials', 'mailbox:quota', 'webhook:write', 'domain:manage', 'review:act', 'support:submit', 'support:read', 'support:write'];

function IssueKey({ base, agent, onIssued }) {
  const [ceiling, setCeiling] = useState('project');
  const [granted, setGranted] = useState(null); // null: the service's default set
  const [run, problem, busy] = useAction();
  const id = (x) => `key-${agent.id}-${x}`;
  const toggle = (p) => setGranted((g) => {
    const now = new Set(g ?? []);
    now.has(p) ? now.delete(p) : now.add(p);
    return [...now];
  });
  const submit = async (e) => {
    e.preventDefault();
    const body = { ceiling };
    if (granted) body.permissions = granted;
    const r = await run(() => post(`${base}/agents/${agent.id}/keys`, body));
    if (r) setGranted(null), onIssued(r);
  };
  return html`<form onSubmit=${submit} aria-label=${`Issue a key for ${agent.handle}`}>
    <${Field} id=${id('ceiling')} label="Ceiling">
      <select id=${id('ceiling')} value=${ceiling} onChange=${(e) => setCeiling(e.target.value)}>
        <option value="project">project</option><option value="org">org</option>
      </select>
    <//>
    <fieldset><legend>Permissions (none ticked: the default set)</legend>
      ${PERMISSIONS.map((p) => html`<label class="check"><input type="checkbox" checked=${(granted ?? []).includes(p)} onChange=${() => toggle(p)} /> ${p}</label>`)}
    </fieldset>
    <button type="submit" disabled=${busy}>Issue key</button>
    <${ProblemView} error=${problem} />
  </form>`;
}

function AgentKeys({ base, agent }) {
  const [keys, problem, reload] = useLoad(() => get(`${base}/agents/${agent.id}/keys`).then((r) => r.items), [agent.id]);
  const [secret, setSecret] = useState(null);
  const [run, actionProblem] = useAction();
  const [status, setStatus] = useState('');
  const revoke = async (k) => {
    if ((await run(() => del(`${base}/agents/${agent.id}/keys/${k.id}`))) !== undefined) setStatus(`Revoked key ${k.prefix}.`), reload();
  };
  return html`<div class="keys-of">
    ${secret
      ? html`<${SecretOnce} label="Agent key" value=${secret} onDone=${() => setSecret(null)} />`
      : html`<${IssueKey} base=${base} agent=${agent} onIssued=${(r) => (setSecret(r.key), setStatus(`Issued key ${r.prefix}.`), reload())} />`}
    <p role="status">${status}</p>
    <${ProblemView} error=${problem ?? actionProblem} />
    ${keys &&
    html`<table class="queue">
      <caption>Keys of ${agent.handle}</caption>
      <thead><tr><th scope="col">Prefix</th><th scope="col">Ceiling</th><th scope="col">Permissions</th><th scope="col">Created</th><th scope="col">State</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
      <tbody>${keys.map(
        (k) => html`<tr key=${k.id} data-key=${k.id}>
          <td><code>${k.prefix}</code></td><td>${k.ceiling}</td><td>${k.permissions.join(', ')}</td><td>${when(k.created_at)}</td>
          <td>${k.revoked_at ? `revoked ${when(k.revoked_at)}` : k.expires_at ? `live until ${when(k.expires_at)}` : 'live'}</td>
          <td>${!k.revoked_at && html`<button type="button" onClick=${() => revoke(k)} aria-label=${`Revoke key ${k.prefix}`}>Revoke</button>`}</td>
        </tr>`,
      )}</tbody>
    </table>`}
  </div>`;
}

export function AgentSettings({ base }) {
  const [agents, problem] = useLoad(() => get(`${base}/agents`).then((r) => r.items), [base]);
  const [open, setOpen] = useState(null);
  return html`<section aria-labelledby="agents-title">
    <h2 id="agents-title">Agents and keys</h2>
    <${ProblemView} error=${problem} />
    ${agents &&
    (agents.length === 0
      ? html`<p>No agents yet: an agent appears when it enrolls.</p>`
      : html`<ul class="records">${agents.map(
          (a) => html`<li key=${a.id} data-agent=${a.id}>
            <button type="button" class="link" aria-expanded=${open === a.id ? 'true' : 'false'} onClick=${() => setOpen(open === a.id ? null : a.id)}>${a.handle}</button>
            ${a.display_name ? ` (${a.display_name})` : ''}, ${a.status}, since ${when(a.created_at)}
            ${open === a.id && html`<${AgentKeys} base=${base} agent=${a} />`}
          </li>`,
        )}</ul>`)}
  </section>`;
}
