// The reviewer's work as server-sent events (GET /v1/reviewer/stream) for links with transport
// `sse`: a real SSE client over HTTP, the real workers and a real SMTP relay.
import assert from 'node:assert/strict';
import { after, test } from '../../testkit/test.ts';
import { openStream, type SseClient } from '../../testkit/sse-client.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { startRelay } from '../../testkit/relay.ts';
import { linkReviewer, reviewerAgent } from './reviewer-setup.ts';
import { INTENT, agentWithInbox } from './setup.ts';

const relay = await startRelay();
after(() => relay.close());
const svc = await startTestService({ env: { SMTP_URL: relay.url, SSE_HEARTBEAT_SECONDS: '1' } });
const tenant = await createTenant(svc, { plan: 'enterprise' });
const draft = (subject: string) => ({ to: 'Dana <dana@acme.example>', subject, text: 'Tuesday 10:00 works for us.', intent: INTENT });

const streams: SseClient[] = [];
after(() => streams.forEach((s) => s.close()));
const open = async (key: string, headers: Record<string, string> = {}, query = '') => {
  const s = await openStream(svc.url, `/v1/reviewer/stream${query}`, { token: key, headers });
  streams.push(s);
  return s;
};
const work = (s: SseClient) => s.events.map((e) => JSON.parse(e.data));

/** An agent with an inbox, and a reviewer linked to it over SSE. */
async function linked() {
  const agent = await agentWithInbox(svc, tenant);
  const reviewer = await reviewerAgent(svc, tenant);
  const link = await linkReviewer(svc, tenant, { inbox_address: agent.address, reviewer_agent_id: reviewer.agentId, transport: 'sse' });
  assert.equal(link.status, 201, link.text);
  assert.equal(link.body.webhook_url, null);
  return { agent, reviewer };
}

test('an SSE reviewer receives the work item live, opens and edits; the relay receives the edited mail exactly once', async () => {
  const { agent, reviewer } = await linked();
  const stream = await open(reviewer.key);
  assert.equal(stream.status, 200);
  assert.match(String(stream.headers['content-type']), /^text\/event-stream/);

  const sent = await agent.send(draft('SSE demo'));
  assert.equal(sent.status, 202, sent.text);
  const id = sent.body.review_id;
  const [ev] = await stream.waitForEvents(1);
  assert.equal(ev!.event, 'reviewer.work');
  assert.match(ev!.id!, /^rwk_[A-Za-z0-9_-]{22}$/);
  const item = JSON.parse(ev!.data);
  assert.equal(item.object, 'reviewer_work');
  assert.equal(item.review_id, id);
  assert.equal(item.reason, 'created');
  assert.deepEqual(item.intent, INTENT);
  assert.deepEqual(item.allowed_actions, ['open', 'approve', 'edit', 'reject']);

  assert.equal((await reviewer.decide(id, { action: 'open' })).status, 200);
  const edited = await reviewer.decide(id, { action: 'edit', parent_revision: 1, text: 'Tuesday 10:00 works. See you!' });
  assert.equal(edited.status, 200, edited.text);
  await agent.until(id, 'sent');
  const mails = relay.received.filter((m) => m.mail.subject === 'SSE demo' && m.mail.from?.value[0]?.address === agent.address);
  assert.equal(mails.length, 1);
  assert.equal(mails[0]!.mail.text?.trim(), 'Tuesday 10:00 works. See you!');
  // Nothing else was routed to the reviewer: one item, and the heartbeat keeps the stream open.
  await stream.waitForComment(/^heartbeat$/, 5_000);
  assert.equal(stream.events.length, 1);
  // The webhook push path was not used for an sse link.
  const pushes = await svc.services.db.query('SELECT 1 FROM review_link_deliveries WHERE review_id = $1', [id]);
  assert.equal(pushes.rowCount, 0);
});

test('a stream opened after a queue read sends every item still waiting, then new ones; nothing lost, nothing twice, nothing decided', async () => {
  const { agent, reviewer } = await linked();
  const first = (await agent.send(draft('first'))).body.review_id;
  const decided = (await agent.send(draft('decided'))).body.review_id;
  assert.equal((await reviewer.decide(decided, { action: 'reject', feedback: 'no' })).status, 200);
  const queued = await reviewer.queue();
  assert.deepEqual(queued.body.data.map((w: any) => w.review_id), [first]);
  // Routed between the queue read and the stream.
  const between = (await agent.send(draft('between'))).body.review_id;

  const stream = await open(reviewer.key);
  await stream.waitForEvents(2);
  const later = (await agent.send(draft('later'))).body.review_id;
  await stream.waitForEvents(3);
  assert.deepEqual(work(stream).map((w) => w.review_id), [first, between, later]);
  await stream.waitForComment(/^heartbeat$/, 5_000);
  assert.equal(stream.events.length, 3);
});

test('Last-Event-ID resumes after the last item received: only the work routed since follows', async () => {
  const { agent, reviewer } = await linked();
  const one = (await agent.send(draft('one'))).body.review_id;
  const s1 = await open(reviewer.key);
  const [ev] = await s1.waitForEvents(1);
  s1.close();
  const two = (await agent.send(draft('two'))).body.review_id;
  const three = (await agent.send(draft('three'))).body.review_id;

  const resumed = await open(reviewer.key, { 'last-event-id': ev!.id! });
  await resumed.waitForEvents(2);
  assert.deepEqual(work(resumed).map((w) => w.review_id), [two, three]);
  // The query parameter works the same; the ids are stable across connections.
  const byQuery = await open(reviewer.key, {}, `?last_event_id=${encodeURIComponent(resumed.events[0]!.id!)}`);
  await byQuery.waitForEvents(1);
  assert.deepEqual(work(byQuery).map((w) => w.review_id), [three]);
  assert.equal(byQuery.events[0]!.id, resumed.events[1]!.id);
  // Without a resume id, everything waiting comes again.
  const fresh = await open(reviewer.key);
  await fresh.waitForEvents(3);
  assert.deepEqual(work(fresh).map((w) => w.review_id), [one, two, three]);
});

test('a hand_back and a revision each send a new item; a fresh connection replays only the current revision', async () => {
  const { agent, reviewer } = await linked();
  const id = (await agent.send(draft('revise me'))).body.review_id;
  const stream = await open(reviewer.key);
  await stream.waitForEvents(1);
  assert.equal((await reviewer.decide(id, { action: 'open' })).status, 200);
  const back = await reviewer.decide(id, { action: 'hand_back', feedback: 'name the room' });
  assert.equal(back.status, 200, back.text);
  const [, handed] = await stream.waitForEvents(2);
  assert.deepEqual([JSON.parse(handed!.data).reason, JSON.parse(handed!.data).revision], ['handed_back', 1]);
  const revised = await agent.api.post(`/v1/reviews/${id}/revisions`, { parent_revision: 1, text: 'Tuesday 10:00 in room 4.' }, agent.key);
  assert.equal(revised.status, 200, revised.text);
  const [, , again] = await stream.waitForEvents(3);
  const item = JSON.parse(again!.data);
  assert.equal(item.reason, 'revised');
  assert.equal(item.revision, 2);
  assert.equal(item.draft.text, 'Tuesday 10:00 in room 4.');
  assert.deepEqual(item.feedback.map((f: any) => [f.kind, f.feedback]), [['hand_back', 'name the room']]);
  // Work of revision 1 moved on: a fresh connection gets the revision-2 item only.
  const fresh = await open(reviewer.key);
  await fresh.waitForEvents(1);
  await fresh.waitForComment(/^heartbeat$/, 5_000);
  assert.deepEqual(work(fresh).map((w) => [w.review_id, w.revision, w.reason]), [[id, 2, 'revised']]);
});

test('the stream is refused without a key (401), without review:act (403), and with a resume id it did not issue (400)', async () => {
  const { agent, reviewer } = await linked();
  const none = await openStream(svc.url, '/v1/reviewer/stream');
  assert.equal(none.status, 401);
  assert.equal(JSON.parse(none.body).code, 'unauthorized');
  const composer = await open(agent.key);
  assert.equal(composer.status, 403);
  assert.equal(JSON.parse(composer.body).code, 'forbidden_scope');
  const forged = await open(reviewer.key, { 'last-event-id': 'rwk_AAAAAAAAAAAAAAAAAAAAAA' });
  assert.equal(forged.status, 400);
  const problem = JSON.parse(forged.body);
  assert.equal(problem.code, 'bad_request');
  assert.equal(problem.errors[0].field, 'last_event_id');
});

test('the SDK yields the reviewer\'s work items typed, and resumes after the last one it yielded', async () => {
  const { AgentInbox } = await import('../../packages/sdk/src/index.ts');
  const { agent, reviewer } = await linked();
  const client = new AgentInbox({ baseUrl: svc.url, apiKey: reviewer.key });
  const one = (await agent.send(draft('sdk one'))).body.review_id;
  const controller = new AbortController();
  let last = '';
  for await (const { id, work } of client.reviewerWork({ signal: controller.signal })) {
    assert.equal(work.review_id, one);
    assert.deepEqual(work.allowed_actions, ['open', 'approve', 'edit', 'reject']);
    last = id;
    break;
  }
  controller.abort();
  const two = (await agent.send(draft('sdk two'))).body.review_id;
  const again = new AbortController();
  for await (const { work } of client.reviewerWork({ lastEventId: last, signal: again.signal })) {
    assert.equal(work.review_id, two);
    break;
  }
  again.abort();
});
