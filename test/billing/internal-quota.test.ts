// A send to an inbox of this service in another org is delivered internally, not over SMTP, but
// the receiving org's monthly quota and storage bound it as they bound inbound SMTP: past them
// nothing is stored, and the delivery is deferred as a 452 would defer it (retried with the
// sender's reservation still held), then delivered once the org can take it, or failed when the
// retries run out.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from '../../testkit/test.ts';
import { MAX_DEFERRALS } from '../../machines/policy/delivery-outcome.ts';
import { createTenant, startTestService, type Tenant } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
import { INTENT, agentWithInbox, deliverInbound, setPolicy, type Agent } from '../reviews/setup.ts';
import { scratchDir } from '../../testkit/scratch.ts';

const plansFile = path.join(scratchDir('plans'), 'plans.json');
fs.writeFileSync(plansFile, JSON.stringify({
  developer: { included_messages_monthly: 3, daily_message_cap: -1 },
  free: { storage_bytes: 1 },
}));

const svc = await startTestService({ env: { PLANS_FILE: plansFile } });
const db = svc.services.db;
const one = async (sql: string, values: unknown[]) => (await db.query(sql, values)).rows[0]?.n as number;
const stored = (agent: Agent) => one('SELECT count(*)::int AS n FROM messages WHERE inbox_id = $1', [agent.inboxId]);
const reserved = (t: Tenant) => one('SELECT coalesce((SELECT reserved::int FROM usage_accounts WHERE org_id = $1), 0) AS n', [t.orgId]);
const monthOf = async (t: Tenant) =>
  (await db.query(
    `SELECT sum(sent_messages)::int AS sent, sum(received_messages)::int AS received FROM usage_periods
      WHERE org_id = $1 AND period = to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM') HAVING count(*) > 0`,
    [t.orgId],
  )).rows[0] ?? { sent: 0, received: 0 };
const attemptOf = async (reviewId: string) =>
  (await db.query('SELECT phase, tries, last_error FROM review_deliveries WHERE review_id = $1', [reviewId])).rows[0];

/** A sender in an org of its own, whose sends go out without review and reserve on its plan. */
async function sender(): Promise<{ tenant: Tenant; agent: Agent }> {
  const tenant = await createTenant(svc, { plan: 'startup' });
  const agent = await agentWithInbox(svc, tenant);
  await setPolicy(agent, 'allow_direct');
  return { tenant, agent };
}

/** Sends to `to` and waits until its delivery was deferred over the receiving org's quota. */
async function deferredSend(from: Agent, to: Agent): Promise<{ id: string; attempt: { phase: string; tries: number; last_error: string } }> {
  const r = await from.send({ to: to.address, subject: 'Across orgs', text: 'Hello from next door', intent: INTENT });
  assert.equal(r.status, 202, r.text);
  const id = r.body.review_id as string;
  const attempt = await waitFor(async () => {
    const a = await attemptOf(id);
    return a?.phase === 'deferred' ? a : null;
  }, 'the delivery to be deferred');
  return { id, attempt };
}

test('past the receiving org’s monthly quota an internal delivery stores nothing and is deferred as a 452; raised, the retry delivers it', async () => {
  const receiverOrg = await createTenant(svc, { plan: 'developer' });
  const receiver = await agentWithInbox(svc, receiverOrg);
  for (let i = 0; i < 3; i++) await deliverInbound(svc, receiver.address, { from: 'pat@example.net', subject: `In ${i}`, text: 'hello' });
  const { tenant: senderOrg, agent } = await sender();

  const { id, attempt } = await deferredSend(agent, receiver);
  assert.match(attempt.last_error, new RegExp(`^452 4\\.2\\.2 ${receiver.address}: the monthly message quota of this account is used up`));
  assert.equal(attempt.tries, 1);
  assert.equal((await agent.review(id)).body.state, 'sending_auto', 'the send is still on its way');
  assert.equal(await stored(receiver), 3, 'nothing stored for the receiver');
  assert.equal(await stored(agent), 0, 'no SENT copy either');
  assert.deepEqual(await monthOf(receiverOrg), { sent: 0, received: 3 });
  assert.deepEqual(await monthOf(senderOrg), { sent: 0, received: 0 });
  assert.equal(await reserved(senderOrg), 1, "the sender's reservation is held while the delivery waits");
  // The receiving org's owners hear of it as of refused inbound SMTP.
  await waitFor(
    async () => (await one(`SELECT count(*)::int AS n FROM events WHERE org_id = $1 AND type = 'usage.quota_exceeded'`, [receiverOrg.orgId])) === 1,
    'the over-quota event of the receiving org',
  );

  const raised = await svc.api.post(`/v1/admin/orgs/${receiverOrg.orgId}/billing/plan`, { tier: 'startup' }, receiverOrg.consoleToken);
  assert.equal(raised.status, 200, raised.text);
  await agent.until(id, 'auto_sent', 30_000);
  assert.equal(await stored(receiver), 4);
  assert.equal(await stored(agent), 1);
  assert.deepEqual(await monthOf(receiverOrg), { sent: 0, received: 4 });
  assert.deepEqual(await monthOf(senderOrg), { sent: 1, received: 0 });
  assert.equal(await reserved(senderOrg), 0);
  assert.equal((await attemptOf(id)).phase, 'sent');
});

test('past the receiving org’s storage the delivery is deferred, and when its tries run out the send fails and gives its reservation back', async () => {
  const receiverOrg = await createTenant(svc, { plan: 'free' });
  const receiver = await agentWithInbox(svc, receiverOrg);
  const { tenant: senderOrg, agent } = await sender();

  const { id, attempt } = await deferredSend(agent, receiver);
  assert.match(attempt.last_error, new RegExp(`^452 4\\.2\\.2 ${receiver.address}: the mailbox storage of this account is full`));
  assert.equal(await reserved(senderOrg), 1);

  // As if the earlier tries had been made: the next temporary failure is the last one allowed.
  await db.query('UPDATE review_deliveries SET tries = $2 WHERE review_id = $1', [id, MAX_DEFERRALS - 1]);
  const failed = await agent.until(id, 'failed', 30_000);
  assert.match(JSON.stringify(failed), /gave up after 8 temporary failures: 452 4\.2\.2 /);
  assert.equal(await stored(receiver), 0);
  assert.equal(await stored(agent), 0);
  assert.deepEqual(await monthOf(receiverOrg), { sent: 0, received: 0 });
  assert.deepEqual(await monthOf(senderOrg), { sent: 0, received: 0 });
  assert.equal(await reserved(senderOrg), 0, 'the failed send released its reservation');
});
