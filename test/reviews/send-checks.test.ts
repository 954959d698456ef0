// Bad input on send, reply and forward: each check, and their order. A refused send writes
// nothing: no review, no event, not even its idempotency key.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { INTENT, agentWithInbox, deliverInbound, type Agent } from './setup.ts';

const svc = await startTestService({ roles: ['api', 'smtp'] });
const tenant = await createTenant(svc, { plan: 'enterprise' });
const db = svc.services.db;

async function storedFor(agent: Agent): Promise<{ reviews: number; events: number; keys: number }> {
  const n = async (sql: string) => (await db.query(sql, [agent.agentId])).rows[0].n as number;
  return {
    reviews: await n('SELECT count(*)::int AS n FROM reviews WHERE agent_id = $1'),
    events: await n('SELECT count(*)::int AS n FROM review_events WHERE agent_id = $1'),
    keys: await n(`SELECT count(*)::int AS n FROM idempotency_keys WHERE scope = 'agent:' || $1`),
  };
}

const nothing = { reviews: 0, events: 0, keys: 0 };

async function contact(agent: Agent, kind: 'allow' | 'block', pattern: string, direction = 'send') {
  const r = await svc.api.post('/v1/contacts', { inbox_id: agent.inboxId, kind, pattern, direction }, agent.key);
  assert.equal(r.status, 201, r.text);
}

async function suppressed(agent: Agent, email: string) {
  const r = await svc.api.post('/v1/suppression', { email }, agent.key);
  assert.ok([200, 201].includes(r.status), r.text);
}

test('unknown keys are refused with 400 listing the accepted keys', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const r = await agent.send({ to: 'a@acme.example', text: 'x', intent: INTENT, html: '<p>x</p>' });
  assert.equal(r.status, 400);
  assert.equal(r.body.code, 'bad_request');
  assert.deepEqual(r.body.errors.map((e: any) => [e.field, e.code]), [['html', 'unknown_key']]);
  assert.match(r.body.detail, /accepted keys: attachments, body, category_id, cc, client_id, idempotency_key, intent, subject, text, to/);
  const reply = await svc.api.post(`/v1/inboxes/${agent.inboxId}/reply`, { thread_id: 'thr_x', bcc: 'x@y.example' }, agent.key);
  assert.equal(reply.status, 400);
  assert.match(reply.body.detail, /accepted keys: .*expected_last_message_id.*thread_id/);
  assert.deepEqual(await storedFor(agent), nothing);
});

test('body is the deprecated alias of text; both with different content is conflicting_alias', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const conflict = await agent.send({ to: 'a@acme.example', text: 'one', body: 'two', intent: INTENT });
  assert.equal(conflict.status, 400);
  assert.equal(conflict.body.code, 'bad_request');
  assert.deepEqual(conflict.body.errors.map((e: any) => [e.field, e.code]), [['body', 'conflicting_alias']]);
  assert.deepEqual(await storedFor(agent), nothing);

  const alias = await agent.send({ to: 'a@acme.example', body: 'via body', intent: INTENT });
  assert.equal(alias.status, 202);
  assert.equal(alias.body.review.draft.text, 'via body');
  const same = await agent.send({ to: 'a@acme.example', text: 'same', body: 'same', intent: INTENT });
  assert.equal(same.status, 202);
  assert.equal(same.body.review.draft.text, 'same');
});

test('recipients: required, valid and at most 50', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const none = await agent.send({ text: 'x', intent: INTENT });
  assert.equal(none.status, 400);
  assert.deepEqual(none.body.errors.map((e: any) => [e.field, e.code]), [['to', 'required']]);
  const invalid = await agent.send({ to: ['ok@acme.example', 'not an address'], intent: INTENT });
  assert.equal(invalid.status, 400);
  assert.deepEqual(invalid.body.errors.map((e: any) => [e.field, e.code, e.detail]), [['to', 'invalid_address', 'not an address']]);
  const many = Array.from({ length: 30 }, (_, i) => `p${i}@acme.example`);
  const tooMany = await agent.send({ to: many, cc: many.map((a) => `c${a}`), intent: INTENT });
  assert.equal(tooMany.status, 400);
  assert.equal(tooMany.body.errors[0].code, 'too_many');
  assert.deepEqual(await storedFor(agent), nothing);

  const listed = await agent.send({ to: 'A <a@acme.example>, b@acme.example', cc: [{ email: 'C@Acme.example', name: 'C' }], intent: INTENT });
  assert.equal(listed.status, 202);
  assert.deepEqual(listed.body.review.draft.to, [{ name: 'A', email: 'a@acme.example' }, { name: '', email: 'b@acme.example' }]);
  assert.deepEqual(listed.body.review.draft.cc, [{ name: 'C', email: 'c@acme.example' }]);
});

test('a blocked recipient is 403 recipient_blocked naming it; a domain entry blocks the whole domain and only it', async () => {
  const agent = await agentWithInbox(svc, tenant);
  await contact(agent, 'block', 'rival.example');
  await contact(agent, 'block', 'ceo@acme.example');
  await contact(agent, 'block', 'ignored.example', 'receive');
  const r = await agent.send({ to: ['ok@acme.example', 'x@rival.example', 'CEO@acme.example'], intent: INTENT });
  assert.equal(r.status, 403);
  assert.equal(r.body.code, 'recipient_blocked');
  assert.deepEqual(r.body.errors.map((e: any) => e.detail), ['x@rival.example', 'ceo@acme.example']);
  assert.deepEqual(await storedFor(agent), nothing);

  const sub = await agent.send({ to: 'x@mail.rival.example', intent: INTENT });
  assert.equal(sub.status, 202, 'a subdomain is not the domain');
  const receiveOnly = await agent.send({ to: 'x@ignored.example', intent: INTENT });
  assert.equal(receiveOnly.status, 202, 'receive entries are not enforced on sends');
});

test('allowlist mode: with an allow entry, a recipient matching none is recipient_blocked', async () => {
  const agent = await agentWithInbox(svc, tenant);
  await contact(agent, 'allow', 'acme.example');
  const outside = await agent.send({ to: ['dana@acme.example', 'eve@elsewhere.example'], intent: INTENT });
  assert.equal(outside.status, 403);
  assert.equal(outside.body.code, 'recipient_blocked');
  assert.deepEqual(outside.body.errors.map((e: any) => e.detail), ['eve@elsewhere.example']);
  const inside = await agent.send({ to: 'dana@acme.example', intent: INTENT });
  assert.equal(inside.status, 202);
});

test('a suppressed recipient is 422 recipient_suppressed naming only the suppressed addresses', async () => {
  const agent = await agentWithInbox(svc, tenant);
  await suppressed(agent, 'Gone@Acme.example');
  const r = await agent.send({ to: ['stays@acme.example', 'gone@acme.example'], intent: INTENT }, { 'Idempotency-Key': 'sup-1' });
  assert.equal(r.status, 422);
  assert.equal(r.body.code, 'recipient_suppressed');
  assert.deepEqual(r.body.errors, [{ field: 'to', code: 'recipient_suppressed', detail: 'gone@acme.example' }]);
  assert.doesNotMatch(JSON.stringify(r.body), /stays@|origin|agent|project/);
  assert.deepEqual(await storedFor(agent), nothing);

  // Retried without them, under the same key, it goes through.
  const retry = await agent.send({ to: ['stays@acme.example'], intent: INTENT }, { 'Idempotency-Key': 'sup-1' });
  assert.equal(retry.status, 202);
});

test('blocked and suppressed recipients win over intent_required, and a block over a suppression', async () => {
  const agent = await agentWithInbox(svc, tenant);
  await contact(agent, 'block', 'blocked@acme.example');
  await suppressed(agent, 'optout@acme.example');
  const blocked = await agent.send({ to: 'blocked@acme.example', text: 'no intent' });
  assert.equal(blocked.status, 403);
  assert.equal(blocked.body.code, 'recipient_blocked');
  const optout = await agent.send({ to: 'optout@acme.example', text: 'no intent' });
  assert.equal(optout.status, 422);
  assert.equal(optout.body.code, 'recipient_suppressed');
  const both = await agent.send({ to: ['optout@acme.example', 'blocked@acme.example'] });
  assert.equal(both.status, 403);
  assert.equal(both.body.code, 'recipient_blocked');
  assert.deepEqual(await storedFor(agent), nothing);
});

test('intent_required: 422 with the policy, its source, the field to add and an example; nothing written', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const r = await agent.send({ to: 'dana@acme.example', text: 'Hi' }, { 'Idempotency-Key': 'intent-1' });
  assert.equal(r.status, 422);
  assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal(r.body.code, 'intent_required');
  assert.match(r.body.detail, /require_review/);
  assert.match(r.body.detail, /account_default/);
  assert.match(r.body.detail, /Nothing was sent or queued/);
  assert.match(r.body.detail, /intent\.summary \(8-200 characters/);
  assert.deepEqual(r.body.errors.map((e: any) => e.field), ['intent.summary', 'intent.meta', 'category_id', 'policy', 'retry_with']);
  assert.equal(r.body.errors[0].code, 'required');
  const policy = r.body.errors.find((e: any) => e.field === 'policy');
  assert.deepEqual([policy.policy, policy.source], ['require_review', 'account_default']);
  const example = r.body.errors.find((e: any) => e.field === 'retry_with').example;
  assert.ok(example.summary.length >= 8 && example.summary.length <= 200);
  assert.deepEqual(await storedFor(agent), nothing);


  // The per-inbox override names its source.
  const patched = await svc.api.patch(`${agent.A}/inboxes/${agent.inboxId}`, { review_policy: 'require_review' }, tenant.consoleToken);
  assert.equal(patched.status, 200);
  assert.deepEqual(patched.body.effective_review_policy, { policy: 'require_review', source: 'inbox_override' });
  const overridden = await agent.send({ to: 'dana@acme.example', text: 'Hi' });
  assert.match(overridden.body.detail, /inbox_override/);

  const ok = await agent.send({ to: 'dana@acme.example', text: 'Hi', intent: INTENT }, { 'Idempotency-Key': 'intent-1' });
  assert.equal(ok.status, 202);
  assert.equal(ok.body.outcome, 'queued_for_review');
});

test('an intent that is given but invalid is 400 bad_request naming the field on send, reply, forward and revise; nothing written', async () => {
  const agent = await agentWithInbox(svc, tenant);
  await deliverInbound(svc, agent.address, { from: 'dana@acme.example', subject: 'Demo?', text: 'Can we meet?' });
  const messages = await svc.api.get(`/v1/inboxes/${agent.inboxId}/messages`, agent.key);
  const inbound = messages.body.data[0];
  assert.ok(inbound, 'the inbound message is stored');
  const calls: Array<[string, string, Record<string, unknown>]> = [
    ['send', `/v1/inboxes/${agent.inboxId}/send`, { to: 'dana@acme.example', text: 'Hi' }],
    ['reply', `/v1/inboxes/${agent.inboxId}/reply`, { thread_id: inbound.thread_id, text: 'Yes' }],
    ['forward', `/v1/inboxes/${agent.inboxId}/messages/${inbound.id}/forward`, { to: 'ops@acme.example' }],
  ];
  const defects: Array<[unknown, string, string]> = [
    [{ summary: 'hi da' }, 'intent.summary', 'too_short'],
    [{ summary: 'x'.repeat(201) }, 'intent.summary', 'too_long'],
    [{ meta: { goal: 'demo' } }, 'intent.summary', 'required'],
    [{ summary: 42 }, 'intent.summary', 'invalid_type'],
    [{ summary: INTENT.summary, meta: 'soon' }, 'intent.meta', 'invalid_type'],
    ['please', 'intent', 'invalid_type'],
  ];
  for (const [kind, url, body] of calls) {
    for (const [intent, field, code] of defects) {
      const r = await svc.api.post(url, { ...body, intent }, agent.key, { 'Idempotency-Key': `bad-intent-${kind}` });
      assert.equal(r.status, 400, `${kind} ${JSON.stringify(intent)}: ${r.text}`);
      assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.equal(r.body.code, 'bad_request');
      assert.deepEqual(r.body.errors.map((e: any) => [e.field, e.code]), [[field, code]], `${kind} ${JSON.stringify(intent)}`);
    }
    // The same request without an intent at all is the one that asks for it.
    const missing = await svc.api.post(url, body, agent.key);
    assert.equal(missing.status, 422, `${kind}: ${missing.text}`);
    assert.equal(missing.body.code, 'intent_required');
  }
  assert.deepEqual(await storedFor(agent), nothing);

  // Under allow_direct an invalid intent is the same 400.
  const patched = await svc.api.patch(`${agent.A}/inboxes/${agent.inboxId}`, { review_policy: 'allow_direct' }, tenant.consoleToken);
  assert.equal(patched.status, 200);
  const direct = await agent.send({ to: 'dana@acme.example', text: 'Hi', intent: { summary: 'hi' } });
  assert.equal(direct.status, 400);
  assert.deepEqual(direct.body.errors.map((e: any) => e.field), ['intent.summary']);
  assert.deepEqual(await storedFor(agent), nothing);

  // A revision's intent is checked the same way.
  await svc.api.patch(`${agent.A}/inboxes/${agent.inboxId}`, { review_policy: null }, tenant.consoleToken);
  const queued = await agent.send({ to: 'dana@acme.example', text: 'Hi', intent: INTENT });
  assert.equal(queued.status, 202, queued.text);
  const revise = await svc.api.post(`/v1/reviews/${queued.body.review_id}/revisions`, { parent_revision: queued.body.revision, intent: { summary: 'short' } }, agent.key);
  assert.equal(revise.status, 400, revise.text);
  assert.equal(revise.body.code, 'bad_request');
  assert.deepEqual(revise.body.errors.map((e: any) => [e.field, e.code]), [['intent.summary', 'too_short']]);
});

test('category_id must name a category of the project; a send in a supervised one is queued for review', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const prefix = await agent.send({ to: 'dana@acme.example', intent: INTENT, category_id: 'demo' });
  assert.equal(prefix.status, 400);
  assert.equal(prefix.body.errors[0].field, 'category_id');
  const unknown = await agent.send({ to: 'dana@acme.example', intent: INTENT, category_id: 'cat_missing' });
  assert.equal(unknown.status, 400);
  assert.deepEqual(unknown.body.errors.map((e: any) => [e.field, e.code]), [['category_id', 'not_found']]);
  assert.deepEqual(await storedFor(agent), nothing);

  const created = await svc.api.post(`${agent.A}/categories`, { name: 'Demos' }, tenant.consoleToken);
  assert.equal(created.status, 201, created.text);
  const ok = await agent.send({ to: 'dana@acme.example', intent: INTENT, category_id: created.body.id });
  assert.equal(ok.status, 202);
  assert.equal(ok.body.review.category_id, created.body.id);
  assert.equal(ok.body.review.mode_reason, 'category_supervised');
  const events = await agent.drain(`?review_id=${ok.body.review_id}`);
  assert.equal(events[0].category_id, created.body.id);
});

test('send, reply and forward take a shared category or the agent\'s own; another agent\'s private one is 400 category_id not_found, nothing written', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const other = await agentWithInbox(svc, tenant);
  const category = async (body: object) => {
    const r = await svc.api.post(`${agent.A}/categories`, body, tenant.consoleToken);
    assert.equal(r.status, 201, r.text);
    return r.body.id as string;
  };
  const shared = await category({ name: 'Shared demos' });
  const mine = await category({ name: 'My demos', scope: 'agent_private', agent_id: agent.agentId });
  const theirs = await category({ name: 'Their demos', scope: 'agent_private', agent_id: other.agentId });
  await deliverInbound(svc, agent.address, { from: 'dana@acme.example', subject: 'Demo?', text: 'Can we meet?' });
  const inbound = (await svc.api.get(`/v1/inboxes/${agent.inboxId}/messages`, agent.key)).body.data[0];
  assert.ok(inbound, 'the inbound message is stored');
  const calls: Array<[string, string, Record<string, unknown>]> = [
    ['send', `/v1/inboxes/${agent.inboxId}/send`, { to: 'dana@acme.example', text: 'Hi' }],
    ['reply', `/v1/inboxes/${agent.inboxId}/reply`, { thread_id: inbound.thread_id, text: 'Yes' }],
    ['forward', `/v1/inboxes/${agent.inboxId}/messages/${inbound.id}/forward`, { to: 'ops@acme.example' }],
  ];
  for (const [kind, url, body] of calls) {
    for (const id of [theirs, 'cat_missing']) {
      const r = await svc.api.post(url, { ...body, intent: INTENT, category_id: id }, agent.key);
      assert.equal(r.status, 400, `${kind} ${id}: ${r.text}`);
      assert.deepEqual(r.body.errors.map((e: any) => [e.field, e.code]), [['category_id', 'not_found']], `${kind} ${id}`);
    }
    assert.deepEqual(await storedFor(agent), nothing, `${kind}: nothing written`);
  }
  for (const [kind, url, body] of calls) {
    for (const id of [shared, mine]) {
      const r = await svc.api.post(url, { ...body, intent: INTENT, category_id: id }, agent.key);
      assert.equal(r.status, 202, `${kind} ${id}: ${r.text}`);
      assert.equal(r.body.review.category_id, id);
      assert.equal(r.body.review.mode_reason, 'category_supervised');
    }
  }
});

test('the rolling 24-hour recipient limit refuses a send that does not fit; cancelled drafts do not count', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const limit = await svc.api.patch(`${agent.A}/inboxes/${agent.inboxId}`, { recipient_limit_24h: 2 }, tenant.consoleToken);
  assert.equal(limit.body.recipient_limit_24h, 2);
  const first = await agent.send({ to: ['a@acme.example', 'b@acme.example'], intent: INTENT });
  assert.equal(first.status, 202);
  const over = await agent.send({ to: 'c@acme.example', intent: INTENT });
  assert.equal(over.status, 403);
  assert.match(over.headers.get('content-type')!, /^application\/problem\+json/);
  assert.equal(over.body.code, 'quota_exceeded');
  assert.equal(over.body.error, 'quota_exceeded');
  assert.equal(over.body.message, over.body.detail);
  assert.deepEqual([over.body.consumed, over.body.reserved, over.body.upgrade_required], [2, 0, false]);
  assert.equal(over.body.reason, 'recipient_limit_exceeded');
  assert.deepEqual([over.body.used, over.body.delta, over.body.limit, over.body.remaining], [2, 1, 2, 0]);
  assert.ok(new Date(over.body.next_reset_at).getTime() > Date.now() + 23 * 3600 * 1000);
  assert.equal((await storedFor(agent)).reviews, 1);

  const cancel = await svc.api.post(`/v1/reviews/${first.body.review_id}/cancel`, {}, agent.key);
  assert.equal(cancel.status, 200);
  const fits = await agent.send({ to: 'c@acme.example', intent: INTENT });
  assert.equal(fits.status, 202);
});

test('idempotency: the same key with another body is idempotency_conflict; client_id and idempotency_key are accepted', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const first = await agent.send({ to: 'a@acme.example', text: 'one', intent: INTENT }, { 'Idempotency-Key': 'k-1' });
  assert.equal(first.status, 202);
  const other = await agent.send({ to: 'a@acme.example', text: 'two', intent: INTENT }, { 'Idempotency-Key': 'k-1' });
  assert.equal(other.status, 409);
  assert.equal(other.body.code, 'idempotency_conflict');

  const viaBody = { to: 'a@acme.example', text: 'three', intent: INTENT, idempotency_key: 'k-2' };
  const a = await agent.send(viaBody);
  const b = await agent.send(viaBody);
  assert.equal(a.status, 202);
  assert.equal(b.body.review_id, a.body.review_id);
  assert.equal(b.headers.get('idempotent-replayed'), 'true');
  assert.equal((await storedFor(agent)).reviews, 2);
});

test('another agent\'s inbox is 404, by id or by address, and a key without mailbox:send is 403', async () => {
  const owner = await agentWithInbox(svc, tenant);
  const other = await agentWithInbox(svc, tenant);
  const r = await svc.api.post(`/v1/inboxes/${owner.inboxId}/send`, { to: 'a@acme.example', intent: INTENT }, other.key);
  assert.equal(r.status, 404);
  assert.equal(r.body.code, 'not_found');
  const byAddress = await svc.api.post(`/v1/inboxes/${encodeURIComponent(owner.address)}/send`, { to: 'a@acme.example', intent: INTENT }, other.key);
  assert.equal(byAddress.status, 404);
  const own = await svc.api.post(`/v1/inboxes/${encodeURIComponent(owner.address)}/send`, { to: 'a@acme.example', intent: INTENT }, owner.key);
  assert.equal(own.status, 202, 'the owner may name its inbox by address');

  const issued = await svc.api.post(`${owner.A}/agents/${owner.agentId}/keys`, { permissions: ['mailbox:read'] }, tenant.consoleToken);
  assert.equal(issued.status, 201, issued.text);
  const readOnly = await svc.api.post(`/v1/inboxes/${owner.inboxId}/send`, { to: 'a@acme.example', intent: INTENT }, issued.body.key);
  assert.equal(readOnly.status, 403);
  assert.equal(readOnly.body.code, 'forbidden_scope');
});

test('reply and forward: an unknown thread or message is 404, and their checks run in the same order', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const thread = await svc.api.post(`/v1/inboxes/${agent.inboxId}/reply`, { thread_id: 'thr_missing', text: 'x', intent: INTENT }, agent.key);
  assert.equal(thread.status, 404);
  const forward = await svc.api.post(`/v1/inboxes/${agent.inboxId}/messages/msg_missing/forward`, { to: 'x@acme.example' }, agent.key);
  assert.equal(forward.status, 404);
  assert.deepEqual(await storedFor(agent), nothing);
});
