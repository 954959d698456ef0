// The org's plan and usage: the billing summary's meters (messages this month, stored mail,
// inboxes) against the plan's limits, the plans to move to (test payment mode: nothing is
// charged), and what each includes. -1 in a plan is unlimited, and is shown so, without a meter.
import { get, post } from './api.js';
import { ProblemView, useAction, useLoad, when } from './settings-kit.js';
import { orgPathOf } from './settings-team.js';
import { html, useState } from './ui.js';

const UNLIMITED = -1;
const count = (n) => (n === UNLIMITED ? 'unlimited' : n.toLocaleString('en-US'));

/** Bytes in the largest binary unit that keeps a whole number in front. */
export function bytes(n) {
  if (n === UNLIMITED) return 'unlimited';
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) (n /= 1024), i++;
  return `${i === 0 ? n : n.toFixed(n < 10 ? 1 : 0)} ${units[i]}`;
}

const dollars = (cents) => (cents === UNLIMITED ? 'custom' : `$${(cents / 100).toLocaleString('en-US')}`);

function Meter({ id, label, used, limit, show = count }) {
  const unlimited = limit === UNLIMITED;
  const share = unlimited || limit === 0 ? 0 : Math.min(1, used / limit);
  const level = share >= 1 ? 'over' : share >= 0.8 ? 'near' : 'ok';
  const text = unlimited ? `${show(used)} used, unlimited` : `${show(used)} of ${show(limit)}`;
  return html`<div class="meter-row" data-meter=${id}>
    <span id=${`${id}-label`} class="meter-label">${label}</span>
    ${!unlimited &&
    html`<div class=${`meter ${level}`} role="meter" aria-labelledby=${`${id}-label`} aria-valuemin="0" aria-valuemax=${limit} aria-valuenow=${Math.min(used, limit)} aria-valuetext=${text}>
      <div class="fill" style=${{ width: `${(share * 100).toFixed(1)}%` }}></div>
    </div>`}
    <span class="meter-text">${text}${level === 'over' ? html` <strong class="error">limit reached</strong>` : ''}</span>
  </div>`;
}

function Plans({ org, summary, onChanged }) {
  const [run, problem, busy] = useAction();
  const choose = async (tier) => {
    const r = await run(() => post(`${org}/billing/plan`, { tier }));
    if (r) onChanged(r);
  };
  return html`<section aria-labelledby="plans-title">
    <h3 id="plans-title">Plans</h3>
    <p class="hint">Payments are in ${summary.payment_mode} mode${summary.payment_configured ? '' : ': no payment provider is configured, so a change here charges nothing'}.</p>
    <div class="scroll"><table class="queue">
      <caption class="visually-hidden">The plans and what each includes</caption>
      <thead><tr><th scope="col">Plan</th><th scope="col">Per month</th><th scope="col">Messages a month</th><th scope="col">Inboxes</th><th scope="col">Storage</th><th scope="col">Domains</th><th scope="col">Members</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
      <tbody>${summary.plans.map(
        (p) => html`<tr data-plan=${p.tier} class=${p.tier === summary.plan_tier ? 'selected' : ''}>
          <th scope="row">${p.name}</th><td>${dollars(p.monthly_price_cents)}</td><td>${count(p.included_messages_monthly)}</td><td>${count(p.inbox_limit)}</td>
          <td>${bytes(p.storage_bytes)}</td><td>${count(p.custom_domain_limit)}</td><td>${count(p.member_limit)}</td>
          <td>${p.tier === summary.plan_tier ? 'Current plan' : html`<button type="button" disabled=${busy} onClick=${() => choose(p.tier)} aria-label=${`Switch to ${p.name}`}>Switch</button>`}</td>
        </tr>`,
      )}</tbody>
    </table></div>
    <${ProblemView} error=${problem} />
  </section>`;
}

export function PlanSettings({ base }) {
  const org = orgPathOf(base);
  const [loaded, problem] = useLoad(() => get(`${org}/billing`), [org]);
  const [changed, setChanged] = useState(null);
  const s = changed ?? loaded;
  if (problem) return html`<section aria-labelledby="plan-title"><h2 id="plan-title">Plan and usage</h2><${ProblemView} error=${problem} /></section>`;
  if (!s) return html`<p>Loading…</p>`;
  const plan = s.entitlements;
  const u = s.usage;
  return html`<section aria-labelledby="plan-title">
    <h2 id="plan-title">Plan and usage</h2>
    <dl class="facts">
      <dt>Plan</dt><dd><strong>${plan.name}</strong> (${dollars(plan.monthly_price_cents)} a month)</dd>
      <dt>Period</dt><dd>${when(s.subscription.current_period_start)} to ${when(s.subscription.current_period_end)}</dd>
    </dl>
    <section aria-labelledby="usage-title">
      <h3 id="usage-title">Usage in ${u.month}</h3>
      <div class="meters">
        <${Meter} id="meter-messages" label="Messages this month" used=${u.total_messages} limit=${plan.included_messages_monthly} />
        <${Meter} id="meter-storage" label="Stored mail" used=${u.storage_used_bytes} limit=${plan.storage_bytes} show=${bytes} />
        <${Meter} id="meter-inboxes" label="Inboxes" used=${u.storage_mailbox_count} limit=${plan.inbox_limit} />
      </div>
      <p class="hint">Messages count each recipient sent (${count(u.sent_recipients)}) and each copy received (${count(u.received_recipients)}).</p>
    </section>
    <${Plans} org=${org} summary=${s} onChanged=${setChanged} />
  </section>`;
}
