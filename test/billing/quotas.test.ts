// Plans, metering and quotas through real HTTP and SMTP: the daily cap and the monthly quota with
// their reservations, the enrollment key's allowances, inbound refusal over quota, and the billing
// reads matching the traffic of the test. The plans file makes the caps small enough to reach.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { assertQuotaRefusal, nextUtcMidnight, nextUtcMonth, startSmallPlansService } from '../helpers/quota.ts';
import { createTenant, type Tenant } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
import { INTENT, agentWithInbox, deliverInbound, setPolicy, type Agent } from '../reviews/setup.ts';

const svc = await startSmallPlansService();
const db = svc.services.db;
const count = async (sql: string, values: unknown[]) => (await db.query(sql, values)).rows[0].n as number;
const reviewsOf = (agent: Agent) => count('SELECT count(*)::int AS n FROM reviews WHERE agent_id = $1', [agent.agentId]);
const billing = (t: Tenant, suffix = '') => svc.api.get(`/v1/admin/orgs/${t.orgId}/billing${suffix}`, t.consoleToken);
const send = (agent: Agent, to: string | string[]) => agent.send({ to, subject: 'Hello', text: 'Hi there', intent: INTENT });

test('the daily cap: the send past it is 403 quota_exceeded with every quota field and nothing queued; a cancelled review frees its reservation', async () => {
  const tenant = await createTenant(svc, { plan: 'free' });
  const agent = await agentWithInbox(svc, tenant);
  const ids: string[] = [];
  for (let i = 0; i < 4; i++) {
    const r = await send(agent, `dana${i}@acme.example`);
    assert.equal(r.status, 202, r.text);
    ids.push(r.body.review_id);
  }
  const two = await send(agent, ['a@acme.example', 'b@acme.example']);
  assertQuotaRefusal(two, {
    reason: 'daily_message_cap_exceeded', used: 4, delta: 2, limit: 5, remaining: 1, consumed: 0, reserved: 4,
    next_reset_at: nextUtcMidnight(), upgrade_required: true,
  });
  assert.equal(await reviewsOf(agent), 4, 'the refused send wrote no review');

  assert.equal((await send(agent, 'e@acme.example')).status, 202);
  const over = await send(agent, 'f@acme.example');
  assert.equal(over.status, 403);
  assert.deepEqual([over.body.reason, over.body.used, over.body.remaining, over.body.reserved], ['daily_message_cap_exceeded', 5, 0, 5]);
  assert.equal(await reviewsOf(agent), 5);
  const me = await svc.api.get('/v1/auth/me', agent.key);
  assert.deepEqual(me.body.sending, {
    plan_tier: 'free', daily_message_cap: 5, daily_remaining: 0, monthly_message_quota: 3000, monthly_remaining: 2995,
    enrollment_daily_send_limit: null, enrollment_daily_remaining: null,
  });

  const cancelled = await svc.api.post(`/v1/reviews/${ids[0]}/cancel`, {}, agent.key);
  assert.equal(cancelled.status, 200, cancelled.text);
  assert.equal((await send(agent, 'g@acme.example')).status, 202, 'the cancelled review gave its recipient back');
  assert.equal((await send(agent, 'h@acme.example')).status, 403);

  // A rejection releases too.
  const rejected = await agent.decide(ids[1]!, { action: 'reject', feedback: 'not now' });
  assert.equal(rejected.status, 200, rejected.text);
  assert.equal((await send(agent, 'i@acme.example')).status, 202);
});

test('the monthly quota counts inbound and outbound; inbound over it gets 452, stores nothing, and the owners hear once a day', async () => {
  const tenant = await createTenant(svc, { plan: 'developer' });
  const agent = await agentWithInbox(svc, tenant);
  await setPolicy(agent, 'allow_direct');
  for (let i = 0; i < 3; i++) await deliverInbound(svc, agent.address, { from: 'pat@example.net', subject: `In ${i}`, text: 'hello' });

  const out = await send(agent, ['x@acme.example', 'y@acme.example']);
  assert.equal(out.status, 202, out.text);
  await agent.until(out.body.review_id, 'auto_sent');

  const refused = await send(agent, ['x@acme.example', 'y@acme.example']);
  assert.equal(refused.status, 403);
  assert.deepEqual(
    [refused.body.reason, refused.body.used, refused.body.delta, refused.body.limit, refused.body.remaining, refused.body.consumed,
      refused.body.reserved, refused.body.next_reset_at, refused.body.upgrade_required],
    ['monthly_message_quota_exceeded', 5, 2, 6, 1, 5, 0, nextUtcMonth(), true],
  );

  await deliverInbound(svc, agent.address, { from: 'pat@example.net', subject: 'The sixth', text: 'hello' });
  const stored = await count('SELECT count(*)::int AS n FROM messages WHERE inbox_id = $1', [agent.inboxId]);
  assert.equal(stored, 5, 'four received and one sent copy');

  for (let i = 0; i < 2; i++) {
    const err = await deliverInbound(svc, agent.address, { from: 'pat@example.net', subject: `Over ${i}`, text: 'hello' }).then(() => null, (e) => e);
    assert.equal(err?.responseCode, 452, String(err));
    assert.match(err.response, /^452 4\.2\.2 /);
  }
  assert.equal(await count('SELECT count(*)::int AS n FROM messages WHERE inbox_id = $1', [agent.inboxId]), 5, 'nothing stored over quota');
  const notices = () => count(`SELECT count(*)::int AS n FROM events WHERE org_id = $1 AND type = 'usage.quota_exceeded'`, [tenant.orgId]);
  const mails = () => count(`SELECT count(*)::int AS n FROM outbound_outbox WHERE $1 = ANY(envelope_to) AND subject LIKE 'Inbound mail refused%'`, [tenant.email]);
  await waitFor(async () => (await notices()) === 1 && (await mails()) === 1, 'one over-quota event and mail');
  await deliverInbound(svc, agent.address, { from: 'pat@example.net', subject: 'Over again', text: 'hello' }).catch(() => null);
  assert.equal(await notices(), 1, 'one event a day');
  assert.equal(await mails(), 1, 'one system mail a day');

  const usage = await billing(tenant, '/usage');
  assert.equal(usage.status, 200, usage.text);
  const bytes = await count('SELECT sum(size)::bigint AS n FROM messages WHERE org_id = $1', [tenant.orgId]);
  assert.deepEqual(
    { ...usage.body, storage_captured_at: undefined },
    {
      billing_owner_id: tenant.orgId, customer_id: tenant.orgId, month: new Date().toISOString().slice(0, 7),
      sent_messages: 1, sent_recipients: 2, received_messages: 4, received_recipients: 4, total_messages: 6,
      storage_bytes: bytes, storage_used_bytes: bytes, storage_peak_used_bytes: bytes, storage_included_bytes: 10 * 1024 ** 3,
      storage_over_limit_bytes: 0, storage_peak_over_limit_bytes: 0, storage_mailbox_count: 1, storage_quota_exceeded: false,
      message_quota_limit: 6, message_quota_remaining: 0, message_quota_exceeded: true, storage_captured_at: undefined,
    },
  );

  const summary = await billing(tenant);
  assert.equal(summary.status, 200, summary.text);
  assert.deepEqual(
    [summary.body.billing_owner_id, summary.body.plan_tier, summary.body.payment_mode, summary.body.payment_configured],
    [tenant.orgId, 'developer', 'test', false],
  );
  assert.equal(summary.body.entitlements.included_messages_monthly, 6);
  assert.deepEqual(summary.body.plans.map((p: any) => p.tier), ['free', 'developer', 'startup', 'enterprise']);
  assert.deepEqual(summary.body.usage, { ...usage.body, storage_captured_at: summary.body.usage.storage_captured_at });
  assert.equal(summary.body.subscription.plan_tier, 'developer');

  const old = await billing(tenant, '/usage?month=2020-01');
  assert.deepEqual([old.body.month, old.body.total_messages, old.body.sent_messages], ['2020-01', 0, 0]);
  assert.equal((await billing(tenant, '/usage?month=2020-13')).status, 400);

  // Raising the plan on the console lets mail in again.
  const raised = await svc.api.post(`/v1/admin/orgs/${tenant.orgId}/billing/plan`, { tier: 'startup' }, tenant.consoleToken);
  assert.equal(raised.status, 200, raised.text);
  assert.equal(raised.body.plan_tier, 'startup');
  await deliverInbound(svc, agent.address, { from: 'pat@example.net', subject: 'Welcome back', text: 'hello' });
  assert.equal(await count('SELECT count(*)::int AS n FROM messages WHERE inbox_id = $1', [agent.inboxId]), 6);
});

test('a checkout without a payment provider is 503 not_configured; billing is for owners, admins and billing members', async () => {
  const tenant = await createTenant(svc, { plan: 'free' });
  const r = await svc.api.post(`/v1/admin/orgs/${tenant.orgId}/billing/checkout`, { tier: 'developer' }, tenant.consoleToken);
  assert.equal(r.status, 503);
  assert.equal(r.body.error, 'not_configured');
  const other = await createTenant(svc);
  assert.equal((await svc.api.get(`/v1/admin/orgs/${tenant.orgId}/billing`, other.consoleToken)).status, 404);
  const bad = await svc.api.post(`/v1/admin/orgs/${tenant.orgId}/billing/plan`, { tier: 'gold' }, tenant.consoleToken);
  assert.equal(bad.status, 400);
  assert.equal((await billing(tenant)).body.plan_tier, 'free');
});

test("the enrollment key's daily sending and allowed domains", async () => {
  const tenant = await createTenant(svc, { plan: 'enterprise' });
  const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;
  const issue = async (body: Record<string, unknown>) => {
    const r = await svc.api.post(`${A}/enrollment-tokens`, { reusable: true, ...body }, tenant.consoleToken);
    assert.equal(r.status, 201, r.text);
    const e = await svc.api.post('/v1/enroll', { token: r.body.token, agent_handle: `bot-${Math.random().toString(36).slice(2, 8)}` });
    assert.equal(e.status, 201, e.text);
    return e.body.agent_key as string;
  };

  const narrow = await issue({ allowed_domains: ['acme.example'] });
  const refusedInbox = await svc.api.post('/v1/inboxes', {}, narrow);
  assert.equal(refusedInbox.status, 400);
  assert.deepEqual([refusedInbox.body.code, refusedInbox.body.errors[0].field], ['domain_not_allowed', 'domain']);
  assert.equal(await count('SELECT count(*)::int AS n FROM inboxes WHERE org_id = $1', [tenant.orgId]), 0);

  const key = await issue({ allowed_domains: ['acme.example', 'agents.test'], daily_send_limit: 3 });
  const inbox = await svc.api.post('/v1/inboxes', {}, key);
  assert.equal(inbox.status, 201, inbox.text);
  const sendTo = (to: string[]) => svc.api.post(`/v1/inboxes/${inbox.body.id}/send`, { to, text: 'Hi', intent: INTENT }, key);

  const outside = await sendTo(['dana@acme.example', 'lee@other.example']);
  assert.equal(outside.status, 400);
  assert.deepEqual([outside.body.code, outside.body.errors[0].field, outside.body.errors[0].detail], ['domain_not_allowed', 'to', 'other.example']);
  assert.equal(await count('SELECT count(*)::int AS n FROM reviews WHERE org_id = $1', [tenant.orgId]), 0);

  assert.equal((await sendTo(['a@acme.example', 'b@mail.acme.example'])).status, 202);
  const me = await svc.api.get('/v1/auth/me', key);
  assert.deepEqual([me.body.sending.enrollment_daily_send_limit, me.body.sending.enrollment_daily_remaining, me.body.sending.daily_remaining], [3, 1, -1]);
  const over = await sendTo(['c@acme.example', 'd@acme.example']);
  assert.equal(over.status, 403);
  assert.deepEqual(
    [over.body.reason, over.body.used, over.body.delta, over.body.limit, over.body.remaining, over.body.reserved, over.body.upgrade_required, over.body.next_reset_at],
    ['enrollment_token_daily_send_exhausted', 2, 2, 3, 1, 2, false, nextUtcMidnight()],
  );
  assert.equal((await sendTo(['c@acme.example'])).status, 202);
  assert.equal(await count('SELECT count(*)::int AS n FROM reviews WHERE org_id = $1', [tenant.orgId]), 2);
});


test("the plan's webhook limit: one more is 403 quota_exceeded with no next_reset_at, and nothing is registered", async () => {
  const tenant = await createTenant(svc, { plan: 'free' });
  const agent = await agentWithInbox(svc, tenant);
  for (let i = 0; i < 3; i++) {
    const r = await svc.api.post('/v1/webhooks', { url: `http://127.0.0.1:9/hook${i}` }, agent.key);
    assert.equal(r.status, 201, r.text);
  }
  const over = await svc.api.post('/v1/webhooks', { url: 'http://127.0.0.1:9/hook3' }, agent.key);
  assert.equal(over.status, 403);
  assert.deepEqual(
    [over.body.code, over.body.reason, over.body.used, over.body.limit, over.body.remaining, over.body.upgrade_required],
    ['quota_exceeded', 'webhook_limit_exceeded', 3, 3, 0, true],
  );
  assert.equal('next_reset_at' in over.body, false, 'a count of webhooks never resets');
  assert.equal(await count('SELECT count(*)::int AS n FROM webhooks WHERE org_id = $1', [tenant.orgId]), 3);
});

test('an org with no cap reserves nothing but still counts every delivered send', async () => {
  const tenant = await createTenant(svc, { plan: 'enterprise' });
  const agent = await agentWithInbox(svc, tenant);
  await setPolicy(agent, 'allow_direct');
  const r = await send(agent, ['x@acme.example', 'y@acme.example']);
  assert.equal(r.status, 202, r.text);
  assert.equal(await count('SELECT reserved_recipients AS n FROM reviews WHERE org_id = $1', [tenant.orgId]), 0);
  await agent.until(r.body.review_id, 'auto_sent');
  const usage = await billing(tenant, '/usage');
  assert.deepEqual([usage.body.sent_messages, usage.body.sent_recipients, usage.body.message_quota_limit, usage.body.message_quota_remaining], [1, 2, -1, -1]);
  const me = await svc.api.get('/v1/auth/me', agent.key);
  assert.deepEqual([me.body.sending.daily_remaining, me.body.sending.monthly_remaining], [-1, -1]);
});

test("the plan's member limit: inviting into a full org, or accepting past the limit, is 403 quota_exceeded with no next_reset_at", async () => {
  const tenant = await createTenant(svc, { plan: 'free' });
  const invite = (email: string) => svc.api.post(`/v1/admin/orgs/${tenant.orgId}/invitations`, { email }, tenant.consoleToken);
  const accept = async (tok: string, email: string) => svc.api.post('/v1/admin/invitations/accept', { token: tok }, await svc.services.identity.mint!(email));
  const stamp = Date.now();
  const emails = [0, 1, 2].map((i) => `member${i}.${stamp}@people.example`);
  const invited = [];
  for (const email of emails) {
    const r = await invite(email);
    assert.equal(r.status, 201, r.text);
    invited.push(r.body.token as string);
  }
  assert.equal((await accept(invited[0]!, emails[0]!)).status, 200);
  assert.equal((await accept(invited[1]!, emails[1]!)).status, 200);
  const members = () => count('SELECT count(DISTINCT user_id)::int AS n FROM memberships WHERE org_id = $1', [tenant.orgId]);
  assert.equal(await members(), 3);

  const late = await accept(invited[2]!, emails[2]!);
  assert.equal(late.status, 403, late.text);
  assert.deepEqual([late.body.error, late.body.reason, late.body.used, late.body.limit, late.body.remaining], ['quota_exceeded', 'member_limit_exceeded', 3, 3, 0]);
  assert.equal(await members(), 3);
  const full = await invite(`member3.${stamp}@people.example`);
  assert.equal(full.status, 403);
  assert.equal(full.body.reason, 'member_limit_exceeded');
  for (const r of [late, full]) assert.equal('next_reset_at' in r.body, false, 'a count of members never resets');
});

test('deleting an inbox releases its storage and its slot in the usage read', async () => {
  const tenant = await createTenant(svc, { plan: 'free' });
  const agent = await agentWithInbox(svc, tenant);
  await deliverInbound(svc, agent.address, { from: 'pat@example.net', subject: 'Kept a while', text: 'x'.repeat(4000) });
  const before = await billing(tenant, '/usage');
  assert.ok(before.body.storage_used_bytes > 4000, `storage counted: ${before.body.storage_used_bytes}`);
  assert.equal(before.body.storage_mailbox_count, 1);
  const deleted = await svc.api.del(`/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}/inboxes/${agent.inboxId}`, tenant.consoleToken);
  assert.equal(deleted.status, 204, deleted.text);
  const after = await billing(tenant, '/usage');
  assert.equal(after.body.storage_used_bytes, 0);
  assert.equal(after.body.storage_mailbox_count, 0);
  assert.equal(after.body.storage_peak_used_bytes, before.body.storage_peak_used_bytes, 'the peak of the month stays');
});
