// A revised draft is held against the sending caps like a new send: a rejected draft revised back
// into review reserves its recipients again, and a revision asking for more recipients than its
// review holds is refused past the plan's daily cap, its monthly quota or the enrollment key's
// daily sending with the same 403 quota_exceeded as a send, and nothing changes.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { assertQuotaRefusal, nextUtcMidnight, nextUtcMonth, startSmallPlansService } from '../helpers/quota.ts';
import { createTenant, type Tenant } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
import { INTENT, agentWithInbox, deliverInbound, type Agent } from '../reviews/setup.ts';

const svc = await startSmallPlansService();
const db = svc.services.db;
const one = async (sql: string, values: unknown[]) => (await db.query(sql, values)).rows[0].n as number;
const reservedOf = (t: Tenant) => one('SELECT coalesce((SELECT reserved::int FROM usage_accounts WHERE org_id = $1), 0) AS n', [t.orgId]);
const heldBy = (reviewId: string) => one('SELECT reserved_recipients AS n FROM reviews WHERE id = $1', [reviewId]);

const send = (agent: Agent, to: string | string[]) => agent.send({ to, subject: 'Hello', text: 'Hi there', intent: INTENT });
const revise = (agent: Agent, reviewId: string, body: Record<string, unknown>) =>
  svc.api.post(`/v1/reviews/${reviewId}/revisions`, { parent_revision: 1, text: 'Second try', ...body }, agent.key);

/** A held send, rejected by the human: it holds nothing any more. */
async function rejectedSend(agent: Agent, to: string): Promise<string> {
  const r = await send(agent, to);
  assert.equal(r.status, 202, r.text);
  const rejected = await agent.decide(r.body.review_id, { action: 'reject', feedback: 'not like this' });
  assert.equal(rejected.status, 200, rejected.text);
  assert.equal(await heldBy(r.body.review_id), 0);
  return r.body.review_id;
}

/** The review is as the refused revision found it: rejected, at revision 1, with its first draft. */
async function unchanged(agent: Agent, reviewId: string, to: string): Promise<void> {
  const r = await agent.review(reviewId);
  assert.equal(r.status, 200, r.text);
  assert.deepEqual([r.body.state, r.body.revision, r.body.draft.to.map((x: { email: string }) => x.email), r.body.draft.text], ['rejected', 1, [to], 'Hi there']);
  assert.equal(await heldBy(reviewId), 0);
}

test('a rejected draft revised past the daily cap is 403 quota_exceeded with every quota field, and nothing changes', async () => {
  const tenant = await createTenant(svc, { plan: 'free' });
  const agent = await agentWithInbox(svc, tenant);
  const id = await rejectedSend(agent, 'dana@acme.example');
  for (let i = 0; i < 4; i++) assert.equal((await send(agent, `lee${i}@acme.example`)).status, 202);
  assert.equal(await reservedOf(tenant), 4);

  const over = await revise(agent, id, { to: ['dana@acme.example', 'kim@acme.example'] });
  assertQuotaRefusal(over, {
    reason: 'daily_message_cap_exceeded', used: 4, delta: 2, limit: 5, remaining: 1, consumed: 0, reserved: 4,
    next_reset_at: nextUtcMidnight(), upgrade_required: true,
  });
  await unchanged(agent, id, 'dana@acme.example');
  assert.equal(await reservedOf(tenant), 4, 'the refused revision reserved nothing');

  // Without new recipients the rejected draft still needs its one recipient back, and it fits.
  const fits = await revise(agent, id, {});
  assert.equal(fits.status, 200, fits.text);
  assert.deepEqual([fits.body.state, fits.body.revision], ['needs_review', 2]);
  assert.equal(await heldBy(id), 1);
  assert.equal(await reservedOf(tenant), 5);
  assert.equal((await send(agent, 'max@acme.example')).status, 403, 'the revised draft holds its place under the cap');
});

test('a revision under review that asks for more recipients than it holds is refused past the daily cap; one that does not is taken', async () => {
  const tenant = await createTenant(svc, { plan: 'free' });
  const agent = await agentWithInbox(svc, tenant);
  const first = await send(agent, ['a@acme.example', 'b@acme.example']);
  assert.equal(first.status, 202, first.text);
  const id = first.body.review_id as string;
  for (let i = 0; i < 3; i++) assert.equal((await send(agent, `c${i}@acme.example`)).status, 202);
  assert.equal(await reservedOf(tenant), 5);

  const grown = await revise(agent, id, { to: ['a@acme.example', 'b@acme.example', 'c@acme.example'] });
  assert.equal(grown.status, 403, grown.text);
  assert.deepEqual(
    [grown.body.code, grown.body.reason, grown.body.used, grown.body.delta, grown.body.limit, grown.body.remaining, grown.body.reserved],
    ['quota_exceeded', 'daily_message_cap_exceeded', 3, 3, 5, 2, 3],
  );
  const still = await agent.review(id);
  assert.deepEqual([still.body.state, still.body.revision, still.body.draft.to.length], ['needs_review', 1, 2]);
  assert.deepEqual([await heldBy(id), await reservedOf(tenant)], [2, 5]);

  const shrunk = await revise(agent, id, { to: ['a@acme.example'] });
  assert.equal(shrunk.status, 200, shrunk.text);
  assert.deepEqual([await heldBy(id), await reservedOf(tenant)], [1, 4], 'the recipient dropped is given back');
});

test('a rejected draft revised past the monthly quota is 403 monthly_message_quota_exceeded', async () => {
  const tenant = await createTenant(svc, { plan: 'developer' });
  const agent = await agentWithInbox(svc, tenant);
  const id = await rejectedSend(agent, 'dana@acme.example');
  for (let i = 0; i < 5; i++) await deliverInbound(svc, agent.address, { from: 'pat@example.net', subject: `In ${i}`, text: 'hello' });

  const over = await revise(agent, id, { to: ['dana@acme.example', 'kim@acme.example'] });
  assert.equal(over.status, 403, over.text);
  assert.deepEqual(
    [over.body.code, over.body.reason, over.body.used, over.body.delta, over.body.limit, over.body.remaining, over.body.consumed,
      over.body.reserved, over.body.next_reset_at, over.body.upgrade_required],
    ['quota_exceeded', 'monthly_message_quota_exceeded', 5, 2, 6, 1, 5, 0, nextUtcMonth(), true],
  );
  await unchanged(agent, id, 'dana@acme.example');
  assert.equal(await reservedOf(tenant), 0);
  assert.equal((await revise(agent, id, {})).status, 200, 'its one recipient still fits');
});

test("a rejected draft is held against the enrollment key's daily sending again: refused past it, counted on it when delivered", async () => {
  const tenant = await createTenant(svc, { plan: 'enterprise' });
  const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;
  const token = await svc.api.post(`${A}/enrollment-tokens`, { reusable: true, daily_send_limit: 2, allowed_domains: ['acme.example', 'agents.test'] }, tenant.consoleToken);
  assert.equal(token.status, 201, token.text);
  const enrolled = await svc.api.post('/v1/enroll', { token: token.body.token, agent_handle: `bot-${Date.now().toString(36)}` });
  assert.equal(enrolled.status, 201, enrolled.text);
  const key = enrolled.body.agent_key as string;
  const inbox = await svc.api.post('/v1/inboxes', {}, key);
  assert.equal(inbox.status, 201, inbox.text);
  const agent: Agent = {
    ...(await agentWithInbox(svc, tenant)),
    key,
    inboxId: inbox.body.id,
    send: (body) => svc.api.post(`/v1/inboxes/${inbox.body.id}/send`, body, key),
    review: (id) => svc.api.get(`/v1/reviews/${id}`, key),
    until: (id, state) => waitFor(async () => ((await svc.api.get(`/v1/reviews/${id}`, key)).body.state === state ? true : null), `review ${id} to reach ${state}`),
  };
  const tokenReserved = () => one('SELECT send_reserved::int AS n FROM enrollment_tokens WHERE id = $1', [token.body.id]);

  const id = await rejectedSend(agent, 'dana@acme.example');
  assert.equal(await tokenReserved(), 0);
  assert.equal((await send(agent, 'lee@acme.example')).status, 202);

  const outside = await revise(agent, id, { to: ['dana@other.example'] });
  assert.equal(outside.status, 400, outside.text);
  assert.deepEqual([outside.body.code, outside.body.errors[0].field, outside.body.errors[0].detail], ['domain_not_allowed', 'to', 'other.example']);
  await unchanged(agent, id, 'dana@acme.example');

  const over = await revise(agent, id, { to: ['dana@acme.example', 'kim@acme.example'] });
  assert.equal(over.status, 403, over.text);
  assert.deepEqual(
    [over.body.code, over.body.reason, over.body.used, over.body.delta, over.body.limit, over.body.remaining, over.body.reserved, over.body.upgrade_required],
    ['quota_exceeded', 'enrollment_token_daily_send_exhausted', 1, 2, 2, 1, 1, false],
  );
  await unchanged(agent, id, 'dana@acme.example');
  assert.equal(await tokenReserved(), 1);

  const taken = await revise(agent, id, {});
  assert.equal(taken.status, 200, taken.text);
  assert.equal(await tokenReserved(), 2, "the revision is held on the key's allowance");
  const approved = await agent.decide(id, { action: 'approve' });
  assert.equal(approved.status, 200, approved.text);
  await agent.until(id, 'sent');
  assert.equal(await tokenReserved(), 1);
  const me = await svc.api.get('/v1/auth/me', key);
  assert.deepEqual([me.body.sending.enrollment_daily_send_limit, me.body.sending.enrollment_daily_remaining], [2, 0], 'the delivered revision counts on the key');
});

test("recipients a revision adds count in the inbox's 24-hour recipient limit: past it the revision is 403 and changes nothing; those dropped are not given back", async () => {
  const tenant = await createTenant(svc, { plan: 'enterprise' });
  const agent = await agentWithInbox(svc, tenant);
  const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;
  const limited = await svc.api.patch(`${A}/inboxes/${agent.inboxId}`, { recipient_limit_24h: 3 }, tenant.consoleToken);
  assert.equal(limited.status, 200, limited.text);
  const first = await send(agent, 'a@acme.example');
  assert.equal(first.status, 202, first.text);
  const id = first.body.review_id as string;
  assert.equal((await send(agent, 'b@acme.example')).status, 202);
  const reviseAt = (parent_revision: number, to: string[]) => revise(agent, id, { parent_revision, to });
  // Room opens again 24 hours after the oldest minute counted.
  const { rows } = await db.query('SELECT min(minute) AS at FROM recipient_usage WHERE inbox_id = $1 AND recipients > 0', [agent.inboxId]);
  const next_reset_at = new Date(rows[0].at.getTime() + 24 * 3600 * 1000).toISOString();

  const over = await reviseAt(1, ['a@acme.example', 'c@acme.example', 'd@acme.example']);
  assertQuotaRefusal(over, { reason: 'recipient_limit_exceeded', used: 2, delta: 2, limit: 3, remaining: 1, consumed: 2, reserved: 0, next_reset_at, upgrade_required: false });
  assert.match(over.body.detail, /this revision adds 2\. The review is unchanged\./);
  const still = await agent.review(id);
  assert.deepEqual([still.body.state, still.body.revision, still.body.draft.to.map((x: { email: string }) => x.email)], ['needs_review', 1, ['a@acme.example']]);

  const grown = await reviseAt(1, ['a@acme.example', 'c@acme.example']);
  assert.equal(grown.status, 200, grown.text);
  assert.equal(grown.body.revision, 2);
  const full = await send(agent, 'e@acme.example');
  assertQuotaRefusal(full, { reason: 'recipient_limit_exceeded', used: 3, delta: 1, limit: 3, remaining: 0, consumed: 3, reserved: 0, next_reset_at, upgrade_required: false });

  // The same two recipients again add nothing; dropping one gives nothing back.
  assert.equal((await reviseAt(2, ['a@acme.example', 'c@acme.example'])).status, 200);
  assert.equal((await reviseAt(3, ['a@acme.example'])).status, 200);
  assert.equal((await send(agent, 'e@acme.example')).status, 403, 'the limit still counts the recipient the revision dropped');
  // Growing back to two recipients is within what the review has had counted.
  assert.equal((await reviseAt(4, ['a@acme.example', 'c@acme.example'])).status, 200);
});
