// The reviewer's WebSocket (GET /v1/reviewer/ws) for links with transport `websocket`: a real
// `ws` client against the running service, the real workers and a real SMTP relay.
import assert from 'node:assert/strict';
import { after, test } from '../../testkit/test.ts';
import WebSocket from 'ws';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
import { startRelay } from '../../testkit/relay.ts';
import { linkReviewer, reviewerAgent } from './reviewer-setup.ts';
import { INTENT, agentWithInbox } from './setup.ts';

const relay = await startRelay();
after(() => relay.close());
const svc = await startTestService({ env: { SMTP_URL: relay.url, SSE_HEARTBEAT_SECONDS: '1' } });
const tenant = await createTenant(svc, { plan: 'enterprise' });
const draft = (subject: string) => ({ to: 'Dana <dana@acme.example>', subject, text: 'Tuesday 10:00 works for us.', intent: INTENT });
const wsUrl = (query = '') => `${svc.url.replace(/^http/, 'ws')}/v1/reviewer/ws${query}`;

type Socket = {
  ws: WebSocket;
  frames: any[];
  /** Waits for the n-th frame (1-based) matching `type`. */
  nth(type: string, n: number): Promise<any>;
  /** Sends a decision frame and waits for its answer. */
  decide(ref: string, reviewId: string, body: Record<string, unknown>): Promise<any>;
  closed: Promise<number>;
};

const sockets: WebSocket[] = [];
after(() => sockets.forEach((ws) => ws.terminate()));

async function connect(key: string | null, opts: { query?: string; autoPong?: boolean; headers?: Record<string, string> } = {}): Promise<Socket> {
  const ws = new WebSocket(wsUrl(opts.query), { headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...opts.headers }, autoPong: opts.autoPong ?? true });
  sockets.push(ws);
  const frames: any[] = [];
  ws.on('message', (data) => frames.push(JSON.parse(data.toString())));
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const nth = (type: string, n: number) => waitFor(() => frames.filter((f) => f.type === type)[n - 1], `frame ${n} of type ${type}`);
  return {
    ws,
    frames,
    nth,
    decide: (ref, reviewId, body) => {
      ws.send(JSON.stringify({ type: 'decision', ref, review_id: reviewId, ...body }));
      return waitFor(() => frames.find((f) => f.ref === ref), `the answer to ${ref}`);
    },
    closed,
  };
}

/** The status and problem body of a refused upgrade. */
function refusedUpgrade(key: string | null, query = ''): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl(query), { headers: key ? { authorization: `Bearer ${key}` } : {} });
    ws.on('open', () => reject(new Error('the socket opened')));
    ws.on('error', () => {});
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
  });
}

async function linked() {
  const agent = await agentWithInbox(svc, tenant);
  const reviewer = await reviewerAgent(svc, tenant);
  const link = await linkReviewer(svc, tenant, { inbox_address: agent.address, reviewer_agent_id: reviewer.agentId, transport: 'websocket' });
  assert.equal(link.status, 201, link.text);
  return { agent, reviewer };
}

const withoutRequestId = ({ request_id: _, ...rest }: Record<string, unknown>) => rest;

test('a WebSocket reviewer gets the work pushed, opens and edits by frames; the relay receives the edited mail exactly once', async () => {
  const { agent, reviewer } = await linked();
  const socket = await connect(reviewer.key);
  const id = (await agent.send(draft('WS demo'))).body.review_id;
  const pushed = await socket.nth('work', 1);
  assert.match(pushed.id, /^rwk_[A-Za-z0-9_-]{22}$/);
  assert.equal(pushed.work.object, 'reviewer_work');
  assert.equal(pushed.work.review_id, id);
  assert.equal(pushed.work.reason, 'created');
  assert.deepEqual(pushed.work.allowed_actions, ['open', 'approve', 'edit', 'reject']);

  // Sent back to back: decisions on one review apply in the order they arrived (a chat needs in_review).
  socket.ws.send(JSON.stringify({ type: 'decision', ref: 'o1', review_id: id, action: 'open' }));
  const chatted = await socket.decide('c1', id, { action: 'chat', message: 'Is 10:00 CET?' });
  const opened = socket.frames.find((f) => f.ref === 'o1');
  assert.deepEqual([opened.type, opened.status, opened.body.state], ['result', 200, 'in_review']);
  assert.deepEqual([chatted.type, chatted.status, chatted.body.state], ['result', 200, 'chatting']);
  assert.equal(opened.body.id, id);
  assert.equal(opened.body.route, 'reviewer_agent');
  assert.deepEqual(opened.body.allowed_actions, ['approve', 'edit', 'reject', 'chat', 'hand_back']);
  assert.ok(socket.frames.indexOf(opened) < socket.frames.indexOf(chatted), 'answered in order');
  const edited = await socket.decide('e1', id, { action: 'edit', parent_revision: 1, text: 'Tuesday 10:00 works. Over WS.' });
  assert.deepEqual([edited.type, edited.status, edited.body.state], ['result', 200, 'edited']);
  await agent.until(id, 'sent');
  const mails = relay.received.filter((m) => m.mail.subject === 'WS demo' && m.mail.from?.value[0]?.address === agent.address);
  assert.equal(mails.length, 1);
  assert.equal(mails[0]!.mail.text?.trim(), 'Tuesday 10:00 works. Over WS.');
  assert.equal(socket.frames.filter((f) => f.type === 'work').length, 1);
});

test('a decision frame is answered with the same problem body as the REST decision: 404, 409 stale, 400 naming the field', async () => {
  const { agent, reviewer } = await linked();
  const other = await linked();
  const socket = await connect(reviewer.key);
  const id = (await agent.send(draft('problems'))).body.review_id;
  const foreign = (await other.agent.send(draft('not yours'))).body.review_id;
  await socket.nth('work', 1);

  const notMine = await socket.decide('n1', foreign, { action: 'open' });
  const notMineRest = await reviewer.decide(foreign, { action: 'open' });
  assert.deepEqual([notMine.type, notMine.status], ['problem', 404]);
  assert.deepEqual(withoutRequestId(notMine.body), withoutRequestId(notMineRest.body));
  assert.equal(notMine.body.code, 'not_found');
  assert.match(notMine.body.request_id, /^req_/);

  const stale = await socket.decide('s1', id, { action: 'approve', parent_revision: 7 });
  const staleRest = await reviewer.decide(id, { action: 'approve', parent_revision: 7 });
  assert.deepEqual([stale.type, stale.status, stale.body.code], ['problem', 409, 'stale']);
  assert.deepEqual(withoutRequestId(stale.body), withoutRequestId(staleRest.body));

  const unknown = await socket.decide('u1', id, { action: 'approve', tone: 'warm' });
  assert.deepEqual([unknown.status, unknown.body.code, unknown.body.errors[0].field], [400, 'bad_request', 'tone']);
  const badAction = await socket.decide('b1', id, { action: 'send_now' });
  assert.deepEqual([badAction.status, badAction.body.errors[0].field], [400, 'action']);
  const noReview = await socket.decide('r1', '', { action: 'open' });
  assert.deepEqual([noReview.status, noReview.body.errors[0].field], [400, 'review_id']);

  socket.ws.send('not json');
  const garbled = await waitFor(() => socket.frames.find((f) => f.type === 'problem' && f.ref === null), 'the answer to a frame that is not JSON');
  assert.deepEqual([garbled.status, garbled.body.code, garbled.body.errors[0].field], [400, 'bad_request', 'type']);
  // Nothing was changed by the refused frames; the socket is still usable.
  assert.equal((await agent.review(id)).body.state, 'needs_review');
  const approved = await socket.decide('a1', id, { action: 'approve', parent_revision: 1 });
  assert.deepEqual([approved.type, approved.body.state], ['result', 'approved']);
});

test('the upgrade is refused with problem+json: no key 401, a key without review:act 403, a forged resume id 400; a plain GET is 400', async () => {
  const { agent, reviewer } = await linked();
  const none = await refusedUpgrade(null);
  assert.deepEqual([none.status, none.body.code], [401, 'unauthorized']);
  const wrong = await refusedUpgrade('pk_agent_nope');
  assert.deepEqual([wrong.status, wrong.body.code], [401, 'unauthorized']);
  const composer = await refusedUpgrade(agent.key);
  assert.deepEqual([composer.status, composer.body.code], [403, 'forbidden_scope']);
  const forged = await refusedUpgrade(reviewer.key, '?last_event_id=rwk_AAAAAAAAAAAAAAAAAAAAAA');
  assert.deepEqual([forged.status, forged.body.errors[0].field], [400, 'last_event_id']);
  const plain = await svc.api.get('/v1/reviewer/ws', reviewer.key);
  assert.equal(plain.status, 400);
  assert.equal(plain.body.errors[0].field, 'Upgrade');
});

test('a reconnect with the last id gets only what was routed since; a fresh one everything waiting', async () => {
  const { agent, reviewer } = await linked();
  const one = (await agent.send(draft('one'))).body.review_id;
  const first = await connect(reviewer.key);
  const got = await first.nth('work', 1);
  first.ws.close();
  await first.closed;
  const two = (await agent.send(draft('two'))).body.review_id;

  const resumed = await connect(reviewer.key, { query: `?last_event_id=${got.id}` });
  assert.equal((await resumed.nth('work', 1)).work.review_id, two);
  const byHeader = await connect(reviewer.key, { headers: { 'last-event-id': got.id } });
  assert.equal((await byHeader.nth('work', 1)).work.review_id, two);
  const fresh = await connect(reviewer.key);
  await fresh.nth('work', 2);
  assert.deepEqual(fresh.frames.filter((f) => f.type === 'work').map((f) => f.work.review_id), [one, two]);
});

test('pings keep an answering socket open; one that stops answering is closed', async () => {
  const { reviewer } = await linked();
  const answering = await connect(reviewer.key);
  let pings = 0;
  answering.ws.on('ping', () => pings++);
  const silent = await connect(reviewer.key, { autoPong: false });
  // A heartbeat each second: the silent one is closed at the second beat without an answer.
  const code = await Promise.race([silent.closed, new Promise<number>((r) => setTimeout(() => r(-1), 8_000))]);
  assert.equal(code, 1006, 'terminated without a close frame');
  await waitFor(() => pings >= 3, 'three pings');
  assert.equal(answering.ws.readyState, WebSocket.OPEN);
});
