// The project's custom domains: add one, the DNS records to publish for it (ownership, MX, SPF,
// DKIM and the suggested DMARC) with what the last lookup found, a check now, and its status.
import { get, post } from './api.js';
import { Field, ProblemView, useAction, useLoad, when } from './settings-kit.js';
import { html, useState } from './ui.js';

const STATUS_TEXT = {
  pending: 'pending: publish the records, then check',
  verified: 'verified: mail can be sent and received on it',
  degraded: 'degraded: a required record no longer checks out',
};

function Records({ d }) {
  return html`<div class="scroll"><table class="queue records">
    <caption>Records to publish for ${d.domain}</caption>
    <thead><tr><th scope="col">Kind</th><th scope="col">Type</th><th scope="col">Host</th><th scope="col">Value</th><th scope="col">Check</th><th scope="col">Found</th></tr></thead>
    <tbody>${d.records.map(
      (r) => html`<tr data-record=${r.kind}>
        <td>${r.kind}${r.required ? '' : html` <span class="hint">(suggested)</span>`}</td>
        <td>${r.type}</td>
        <td><code class="wrap">${r.host}</code></td>
        <td><code class="wrap">${r.priority !== undefined ? `${r.priority} ` : ''}${r.value}</code></td>
        <td><span class=${`pill ${r.status}`}>${r.status}</span>${r.detail && html` <span class="hint">${r.detail}</span>`}</td>
        <td>${r.found.length ? html`<code class="wrap">${r.found.join('\n')}</code>` : '—'}</td>
      </tr>`,
    )}</tbody>
  </table></div>`;
}

function Domain({ base, d, onChanged }) {
  const [run, problem, busy] = useAction();
  const verify = async () => {
    const r = await run(() => post(`${base}/domains/${encodeURIComponent(d.domain)}/verify`, {}));
    if (r) onChanged(`${r.domain} checked: ${r.status}.`);
  };
  return html`<li data-domain=${d.domain}>
    <h3>${d.domain} <span class=${`pill ${d.status}`}>${d.status}</span></h3>
    <dl class="facts">
      <dt>Status</dt><dd>${STATUS_TEXT[d.status] ?? d.status}</dd>
      <dt>Last checked</dt><dd>${when(d.checked_at)}</dd>
      <dt>Verified</dt><dd>${when(d.verified_at)}</dd>
      <dt>Inboxes</dt><dd>${d.inbox_count}</dd>
    </dl>
    <${Records} d=${d} />
    <div class="actions"><button type="button" disabled=${busy} onClick=${verify} aria-label=${`Check now: the records of ${d.domain}`}>Check now</button></div>
    <${ProblemView} error=${problem} />
  </li>`;
}

export function DomainSettings({ base }) {
  const [domains, problem, reload] = useLoad(() => get(`${base}/domains`).then((r) => r.items), [base]);
  const [name, setName] = useState('');
  const [status, setStatus] = useState('');
  const [run, addProblem, busy] = useAction();
  const add = async (e) => {
    e.preventDefault();
    const r = await run(() => post(`${base}/domains`, { domain: name.trim() }));
    if (r) setName(''), setStatus(`Added ${r.domain}: publish its records, then check.`), reload();
  };
  return html`<section aria-labelledby="domains-title">
    <h2 id="domains-title">Custom domains</h2>
    <p>Inboxes on your own domain: publish the records below at your DNS host, then check them.</p>
    <form class="inline" onSubmit=${add} aria-label="Add a domain">
      <${Field} id="domain-name" label="Domain"><input id="domain-name" required placeholder="mail.example.com" value=${name} onInput=${(e) => setName(e.target.value)} /><//>
      <button type="submit" disabled=${busy}>Add domain</button>
    </form>
    <${ProblemView} error=${addProblem ?? problem} />
    <p role="status">${status}</p>
    ${domains &&
    (domains.length === 0
      ? html`<p>No custom domains yet.</p>`
      : html`<ul class="records">${domains.map((d) => html`<${Domain} key=${`${d.id}/${d.status}/${d.checked_at}`} base=${base} d=${d} onChanged=${(s) => (setStatus(s), reload())} />`)}</ul>`)}
  </section>`;
}
