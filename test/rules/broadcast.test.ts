// A change to an active rule reaches exactly the live drafts it affects, as one review.rule_changed
// broadcast item each on the durable review event queue, acknowledged by broadcast_id.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { INTENT, agentWithInbox, type Agent } from '../reviews/setup.ts';

const svc = await startTestService({ roles: ['api'] });
const tenant = await createTenant(svc);
const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;
// Rules of scope category name a category of the project that exists.
const orders: string = (await svc.api.post(`${A}/categories`, { name: 'Orders' }, tenant.consoleToken)).body.id;
const human = (path: string, body: object = {}) => svc.api.post(path, body, tenant.consoleToken);
const first = await agentWithInbox(svc, tenant, { handle: 'first' });
const second = await agentWithInbox(svc, tenant, { handle: 'second' });

async function draft(agent: Agent): Promise<string> {
  const r = await agent.send({ to: ['dana@acme.example'], subject: 'Demo', text: 'Tuesday works.', intent: INTENT });
  assert.equal(r.status, 202, r.text);
  return r.body.review_id ?? r.body.id;
}

async function ackAll(agent: Agent) {
  const items = await agent.drain();
  const acks = [...new Map(items.map((e: any) => [e.review_id, e.seq])).entries()].map(([review_id, through_seq]) => ({ review_id, through_seq }));
  if (acks.length) await svc.api.post('/v1/reviews/events/ack', { acks }, agent.key);
}

const changed = async (agent: Agent) => (await agent.drain()).filter((e: any) => e.type === 'review.rule_changed');

test('a per-agent rule change broadcasts to exactly that agent\'s live drafts; acking by broadcast_id clears them', async () => {
  const live1 = await draft(first);
  const live2 = await draft(first);
  const cancelled = await draft(first);
  assert.equal((await svc.api.post(`/v1/reviews/${cancelled}/cancel`, {}, first.key)).status, 200);
  const others = await draft(second);
  await ackAll(first);
  await ackAll(second);

  const r = await human(`${A}/rules`, { rule_text: 'Sign as First.', scope_agent_id: first.agentId });
  assert.equal(r.status, 201, r.text);
  const version = (await svc.api.get('/v1/rules', first.key)).body.rules_version;

  const items = await changed(first);
  assert.deepEqual(items.map((e: any) => e.review_id).sort(), [live1, live2].sort());
  const [item] = items;
  assert.match(item.broadcast_id, /^brd_/);
  assert.ok(items.every((e: any) => e.broadcast_id === item.broadcast_id), 'one change, one broadcast id');
  assert.equal(item.rule_id, r.body.id);
  assert.equal(item.rules_version, version);
  assert.equal(item.state, 'needs_review');
  assert.equal(item.revision, 1);
  assert.deepEqual(await changed(second), [], `${others} is another agent's draft`);

  const ack = await svc.api.post('/v1/reviews/events/ack', { acks: [], broadcast_ids: [item.broadcast_id] }, first.key);
  assert.equal(ack.status, 200, ack.text);
  assert.deepEqual(await changed(first), []);
  // The broadcast took each draft's next sequence: the review's own events carry on after it.
  const revised = await svc.api.post(`/v1/reviews/${live1}/revisions`, { parent_revision: 1, rules_version: version, text: 'Tuesday works. First' }, first.key);
  assert.equal(revised.status, 200, revised.text);
  const next = (await first.drain()).filter((e: any) => e.review_id === live1);
  assert.deepEqual(next.map((e: any) => e.type), ['review.needs_review']);
  assert.equal(next[0].seq, item.seq + 1);
});

test('a project rule reaches every agent\'s live drafts; a proposal reaches none until activated', async () => {
  await ackAll(first);
  await ackAll(second);
  const a = await draft(first);
  const b = await draft(second);
  await ackAll(first);
  await ackAll(second);
  const p = await human(`${A}/rules`, { rule_text: 'Add the time zone.', status: 'proposed' });
  assert.deepEqual(await changed(first), []);
  assert.deepEqual(await changed(second), []);
  await human(`${A}/rules/${p.body.id}/activate`);
  assert.ok((await changed(first)).some((e: any) => e.review_id === a));
  assert.ok((await changed(second)).some((e: any) => e.review_id === b));
});

test('a category rule reaches only drafts of that category', async () => {
  await ackAll(first);
  const plain = await draft(first);
  await ackAll(first);
  await human(`${A}/rules`, { rule_text: 'Quote the order number.', scope: 'category', category_id: orders });
  assert.ok(!(await changed(first)).some((e: any) => e.review_id === plain));
});
