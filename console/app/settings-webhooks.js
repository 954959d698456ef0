// Webhooks: the project's webhooks, registering one for an agent (the signing secret shown once),
// moving one to another URL, deactivating and reactivating it, rotating its secret (the new one
// shown once), deleting one, and each webhook's delivery log with every attempt, where a delivery
// can be sent again.
import { del, get, patch, post } from './api.js';
import { Field, ProblemView, SecretOnce, useAction, useLoad, when } from './settings-kit.js';
import { html, useState } from './ui.js';

function Register({ base, onRegistered }) {
  const [lists] = useLoad(() => Promise.all([get(`${base}/agents`), get(`${base}/inboxes?limit=100`)]).then(([a, i]) => ({ agents: a.items, inboxes: i.data })), [base]);
  const [url, setUrl] = useState('');
  const [agent, setAgent] = useState('');
  const [inbox, setInbox] = useState('');
  const [run, problem, busy] = useAction();
  const submit = async (e) => {
    e.preventDefault();
    const body = { url, agent_id: agent || lists?.agents[0]?.id || '' };
    if (inbox) body.inbox = inbox;
    const r = await run(() => post(`${base}/webhooks`, body));
    if (r) setUrl(''), onRegistered(r);
  };
  return html`<form onSubmit=${submit} aria-labelledby="register-webhook-title">
    <h3 id="register-webhook-title">Register a webhook</h3>
    <${Field} id="webhook-url" label="URL"><input id="webhook-url" type="url" required value=${url} onInput=${(e) => setUrl(e.target.value)} /><//>
    <${Field} id="webhook-agent" label="Owning agent">
      <select id="webhook-agent" value=${agent} onChange=${(e) => setAgent(e.target.value)}>
        ${(lists?.agents ?? []).map((a) => html`<option value=${a.id}>${a.handle}</option>`)}
      </select>
    <//>
    <${Field} id="webhook-inbox" label="Inbox">
      <select id="webhook-inbox" value=${inbox} onChange=${(e) => setInbox(e.target.value)}>
        <option value="">Every inbox of the agent</option>
        ${(lists?.inboxes ?? []).map((i) => html`<option value=${i.id}>${i.address}</option>`)}
      </select>
    <//>
    <button type="submit" disabled=${busy}>Register webhook</button>
    <${ProblemView} error=${problem} />
  </form>`;
}

function Deliveries({ base, hook }) {
  const at = `${base}/webhooks/${hook.id}/deliveries`;
  const [items, problem, reload] = useLoad(() => get(`${at}?limit=50`).then((r) => r.items), [hook.id]);
  const [run, actionProblem] = useAction();
  const [status, setStatus] = useState('');
  const redeliver = async (d) => {
    const r = await run(() => post(`${at}/${d.id}/redeliver`, {}));
    if (r) setStatus(`Queued ${r.id} again (event ${r.event_id}).`), reload();
  };
  return html`<section aria-label=${`Delivery log of ${hook.url}`}>
    <div class="actions"><button type="button" onClick=${reload}>Refresh the log</button></div>
    <p role="status">${status}</p>
    <${ProblemView} error=${problem ?? actionProblem} />
    ${items &&
    (items.length === 0
      ? html`<p>No deliveries yet.</p>`
      : html`<table class="queue">
          <caption>Deliveries, newest first</caption>
          <thead><tr><th scope="col">Delivery</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Created</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
          <tbody>${items.map(
            (d) => html`<tr key=${d.id} data-delivery=${d.id}>
              <td><code>${d.id}</code>${d.redelivery_of && html`<br /><small>again of ${d.redelivery_of}</small>`}</td>
              <td>${d.event_type} <code>${d.event_id}</code></td>
              <td>${d.status}${d.next_attempt_at ? `, next ${when(d.next_attempt_at)}` : ''}</td>
              <td><ol class="attempts">${d.attempts.map((a) => html`<li>${when(a.started_at)}: ${a.status_code ?? 'no answer'}${a.error ? ` (${a.error})` : ''}, ${a.duration_ms} ms</li>`)}</ol></td>
              <td>${when(d.created_at)}</td>
              <td><button type="button" onClick=${() => redeliver(d)} aria-label=${`Redeliver ${d.id}`}>Redeliver</button></td>
            </tr>`,
          )}</tbody>
        </table>`)}
  </section>`;
}

function MoveForm({ base, hook, onMoved }) {
  const [url, setUrl] = useState(hook.url);
  const [run, problem, busy] = useAction();
  const id = `move-${hook.id}`;
  const submit = async (e) => {
    e.preventDefault();
    const r = await run(() => patch(`${base}/webhooks/${hook.id}`, { url }));
    if (r) onMoved(r);
  };
  return html`<form onSubmit=${submit} aria-label=${`Move the webhook to ${hook.url}`}>
    <${Field} id=${id} label="New URL"><input id=${id} type="url" required value=${url} onInput=${(e) => setUrl(e.target.value)} /><//>
    <button type="submit" disabled=${busy}>Save the URL</button>
    <${ProblemView} error=${problem} />
  </form>`;
}

export function WebhookSettings({ base }) {
  const [hooks, problem, reload] = useLoad(() => get(`${base}/webhooks`).then((r) => r.items), [base]);
  const [secret, setSecret] = useState(null);
  const [open, setOpen] = useState(null);
  const [moving, setMoving] = useState(null);
  const [run, actionProblem] = useAction();
  const [status, setStatus] = useState('');
  const setActive = async (w, active) => {
    const r = await run(() => patch(`${base}/webhooks/${w.id}`, { active }));
    if (r) setStatus(`${active ? 'Reactivated' : 'Deactivated'} the webhook to ${w.url}.`), reload();
  };
  const rotate = async (w) => {
    const r = await run(() => post(`${base}/webhooks/${w.id}/rotate-secret`, {}));
    if (r) {
      setSecret({ label: 'New signing secret', value: r.secret });
      setStatus(`Rotated the secret of the webhook to ${w.url}; deliveries carry the old signature too until ${when(r.previous_secret_expires_at)}.`);
      reload();
    }
  };
  const remove = async (w) => {
    if ((await run(() => del(`${base}/webhooks/${w.id}`))) !== undefined) setStatus(`Deleted the webhook to ${w.url}.`), reload();
  };
  return html`<section aria-labelledby="webhooks-title">
    <h2 id="webhooks-title">Webhooks</h2>
    ${secret
      ? html`<${SecretOnce} label=${secret.label} value=${secret.value} onDone=${() => setSecret(null)} />`
      : html`<${Register} base=${base} onRegistered=${(r) => (setSecret({ label: 'Signing secret', value: r.secret }), setStatus(`Registered ${r.url}.`), reload())} />`}
    <p role="status">${status}</p>
    <${ProblemView} error=${problem ?? actionProblem} />
    ${hooks &&
    (hooks.length === 0
      ? html`<p>No webhooks yet.</p>`
      : html`<ul class="records">${hooks.map(
          (w) => html`<li key=${w.id} data-webhook=${w.id}>
            <p><strong>${w.url}</strong> for ${w.inbox ?? 'every inbox of its agent'}; ${w.active ? 'active' : 'inactive'}, ${w.consec_failures} failure(s) in a row; secret <code>${w.secret_prefix}…</code></p>
            <div class="actions">
              <button type="button" aria-expanded=${open === w.id ? 'true' : 'false'} onClick=${() => setOpen(open === w.id ? null : w.id)}>Delivery log</button>
              <button type="button" aria-expanded=${moving === w.id ? 'true' : 'false'} onClick=${() => setMoving(moving === w.id ? null : w.id)} aria-label=${`Change URL of the webhook to ${w.url}`}>Change URL</button>
              <button type="button" onClick=${() => setActive(w, !w.active)} aria-label=${`${w.active ? 'Deactivate' : 'Reactivate'} the webhook to ${w.url}`}>${w.active ? 'Deactivate' : 'Reactivate'}</button>
              <button type="button" onClick=${() => rotate(w)} aria-label=${`Rotate secret of the webhook to ${w.url}`}>Rotate secret</button>
              <button type="button" onClick=${() => remove(w)} aria-label=${`Delete the webhook to ${w.url}`}>Delete</button>
            </div>
            ${moving === w.id && html`<${MoveForm} base=${base} hook=${w} onMoved=${(r) => (setMoving(null), setStatus(`Moved the webhook to ${r.url}.`), reload())} />`}
            ${open === w.id && html`<${Deliveries} base=${base} hook=${w} />`}
          </li>`,
        )}</ul>`)}
  </section>`;
}
