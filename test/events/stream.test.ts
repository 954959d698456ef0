// The live event stream over real HTTP: live delivery, resume without loss or repeats, reach.
import assert from 'node:assert/strict';
import { describe, test } from '../../testkit/test.ts';
import { createTenant, startTestService, type Tenant } from '../../testkit/service.ts';
import { eventIdsFor } from '../../storage/opaque-ids.ts';
import { waitFor } from '../../testkit/wait.ts';
import type { PoolClient } from 'pg';
import { publishEvent } from '../../actors/events.ts';
import { addInbox, publish, receiveMessage } from './helpers.ts';
import { openStream, type SseClient } from '../../testkit/sse-client.ts';

const svc = await startTestService({ roles: ['api'], env: { SSE_HEARTBEAT_SECONDS: '0.3', RATE_LIMIT_PER_MINUTE: '10000' } });
const eventIds = await eventIdsFor(svc.services.db);
const evt = (position: number): string => eventIds.encode(position);
const tenant = await createTenant(svc);
const other = await createTenant(svc);
const agent = await tenant.enroll('stream-agent');
const sibling = await tenant.enroll('stream-sibling');
const outsider = await other.enroll('stream-outsider');
const inbox = await addInbox(svc, tenant, agent.agentId);
const siblingInbox = await addInbox(svc, tenant, sibling.agentId);
const outsiderInbox = await addInbox(svc, other, outsider.agentId);

const streams: SseClient[] = [];
async function stream(key: string, path = '/v1/events/stream', headers: Record<string, string> = {}): Promise<SseClient> {
  const s = await openStream(svc.url, path, { token: key, headers });
  streams.push(s);
  return s;
}

/** Runs fn on a connection of its own inside BEGIN (fn commits or rolls back), then releases it. */
async function inOpenTransaction(fn: (tx: PoolClient) => Promise<void>): Promise<void> {
  const tx = await svc.services.db.connect();
  try {
    await tx.query('BEGIN');
    await fn(tx);
  } finally {
    await tx.query('ROLLBACK').catch(() => {}); // when fn failed before ending it
    tx.release();
  }
}

/** The public ids in the log's order: by writing transaction, then id. */
async function logOrder(ids: number[]): Promise<string[]> {
  const { rows } = await svc.services.db.query<{ id: number }>('SELECT id FROM events WHERE id = ANY($1::bigint[]) ORDER BY tx, id', [ids]);
  return rows.map((r) => evt(r.id));
}

const reviewEvent = (t: Tenant, agentId: string, inboxId: string | null, n: number) =>
  publish(svc, { org_id: t.orgId, project_id: t.projectId, inbox_id: inboxId, agent_id: agentId, type: 'review.sent', payload: { review_id: `rr_${n}`, state: 'sent' } });

describe('the event stream', () => {
  test('sends events live as event, id and data frames of text/event-stream', async () => {
    const s = await stream(agent.agentKey);
    assert.equal(s.status, 200);
    assert.match(String(s.headers['content-type']), /^text\/event-stream/);
    assert.match(String(s.headers['cache-control']), /no-cache/);
    assert.equal(s.headers['content-encoding'], undefined);
    const row = await receiveMessage(svc, inbox, 'Live one');
    const [ev] = await s.waitForEvents(1);
    assert.equal(ev!.event, 'message.received');
    assert.equal(ev!.id, evt(row.id));
    const data = JSON.parse(ev!.data);
    assert.equal(data.event, 'message.received');
    assert.equal(data.id, evt(row.id));
    assert.equal(data.inbox, inbox.address);
    assert.equal(data.inbox_id, inbox.id);
    assert.equal(data.message.subject, 'Live one');
    assert.equal(data.created_at, row.created_at.toISOString());
    s.close();
  });

  test('a client reconnecting with Last-Event-ID gets exactly the events it missed, in order, none twice', async () => {
    const first = await stream(agent.agentKey);
    const a = await receiveMessage(svc, inbox);
    const b = await reviewEvent(tenant, agent.agentId, inbox.id, 1);
    const seen = await first.waitForEvents(2);
    assert.deepEqual(seen.map((e) => e.id), [evt(a.id), evt(b.id)]);
    first.close();

    const missed = [await receiveMessage(svc, inbox), await reviewEvent(tenant, agent.agentId, null, 2), await receiveMessage(svc, inbox)];
    // Interleaved events it may not see are skipped, not counted.
    await receiveMessage(svc, siblingInbox);
    await receiveMessage(svc, outsiderInbox);
    const resumed = await stream(agent.agentKey, '/v1/events/stream', { 'last-event-id': evt(b.id) });
    await resumed.waitForEvents(3);
    const live = await receiveMessage(svc, inbox);
    const all = await resumed.waitForEvents(4);
    assert.deepEqual(all.map((e) => e.id), [...missed, live].map((r) => evt(r.id)));
    await reviewEvent(tenant, agent.agentId, inbox.id, 3);
    await resumed.waitForEvents(5);
    const ids = resumed.events.map((e) => e.id);
    assert.equal(new Set(ids).size, ids.length, 'no event twice');
    assert.deepEqual(await logOrder(ids.map((id) => eventIds.decode(id!)!)), ids, 'in log order');
    resumed.close();
  });

  test('last_event_id in the query resumes too, and the Last-Event-ID header wins over it', async () => {
    const a = await receiveMessage(svc, inbox);
    const b = await receiveMessage(svc, inbox);
    const byQuery = await stream(agent.agentKey, `/v1/events/stream?last_event_id=${evt(a.id)}`);
    const [ev] = await byQuery.waitForEvents(1);
    assert.equal(ev!.id, evt(b.id));
    const bothWays = await stream(agent.agentKey, `/v1/events/stream?last_event_id=${evt(a.id - 1)}`, { 'last-event-id': evt(a.id) });
    const [first] = await bothWays.waitForEvents(1);
    assert.equal(first!.id, evt(b.id), 'the header decides');
    byQuery.close();
    bothWays.close();
  });

  test('never shows another tenant\'s events, nor a sibling agent\'s inbox', async () => {
    const mine = await stream(agent.agentKey);
    const theirs = await stream(outsider.agentKey);
    const siblings = await stream(sibling.agentKey);
    await receiveMessage(svc, outsiderInbox, 'for the outsider');
    await receiveMessage(svc, siblingInbox, 'for the sibling');
    await reviewEvent(tenant, sibling.agentId, null, 4);
    const own = await receiveMessage(svc, inbox, 'for me');
    const [ev] = await mine.waitForEvents(1);
    assert.equal(ev!.id, evt(own.id));
    const [t] = await theirs.waitForEvents(1);
    assert.equal(JSON.parse(t!.data).message.subject, 'for the outsider');
    const s = await siblings.waitForEvents(2);
    assert.deepEqual(s.map((e) => e.event), ['message.received', 'review.sent']);
    // Resuming from the very start replays the outsider's own events only, up to the newest.
    const replay = await stream(outsider.agentKey, '/v1/events/stream', { 'last-event-id': evt(0) });
    const marker = await receiveMessage(svc, outsiderInbox, 'marker');
    await waitFor(() => replay.events.some((e) => e.id === evt(marker.id)), 'the replay up to the marker');
    assert.ok(replay.events.length >= 3);
    assert.ok(replay.events.every((e) => JSON.parse(e.data).inbox_id === outsiderInbox.id));
    assert.equal(mine.events.length, 1);
    for (const c of [mine, theirs, siblings, replay]) c.close();
  });

  test('an inbox key sees only events about its inbox', async () => {
    const r = await svc.api.post(`/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}/agents/${agent.agentId}/keys`, { ceiling: 'inbox', inbox_id: inbox.id }, tenant.consoleToken);
    assert.equal(r.status, 201, r.text);
    const second = await addInbox(svc, tenant, agent.agentId);
    const s = await stream(r.body.key);
    await receiveMessage(svc, second);
    await reviewEvent(tenant, agent.agentId, null, 5);
    const own = await receiveMessage(svc, inbox);
    const [ev] = await s.waitForEvents(1);
    assert.equal(ev!.id, evt(own.id));
    s.close();
  });

  test('types filters the event types sent', async () => {
    const s = await stream(agent.agentKey, '/v1/events/stream?types=review.sent');
    await receiveMessage(svc, inbox);
    const review = await reviewEvent(tenant, agent.agentId, inbox.id, 6);
    const [ev] = await s.waitForEvents(1);
    assert.equal(ev!.event, 'review.sent');
    assert.equal(ev!.id, evt(review.id));
    assert.equal(JSON.parse(ev!.data).review_id, 'rr_6');
    s.close();
  });

  test('sends heartbeat comments while idle', async () => {
    const s = await stream(agent.agentKey);
    await s.waitForComment(/^heartbeat$/, 3_000);
    assert.equal(s.events.length, 0);
    s.close();
  });

  test('refuses a malformed resume id, an unknown type and a missing key', async () => {
    const badId = await stream(agent.agentKey, '/v1/events/stream', { 'last-event-id': 'yesterday' });
    assert.equal(badId.status, 400);
    const problem = JSON.parse(badId.body);
    assert.equal(problem.code, 'bad_request');
    assert.equal(problem.errors[0].field, 'last_event_id');
    const badType = await stream(agent.agentKey, '/v1/events/stream?types=message.recieved');
    assert.equal(badType.status, 400);
    assert.equal(JSON.parse(badType.body).errors[0].field, 'types');
    const noKey = await openStream(svc.url, '/v1/events/stream');
    assert.equal(noKey.status, 401);
  });

  test('under concurrent publishing every event arrives once and in order, also on a second API process', async () => {
    const second = await startTestService({ roles: ['api'], databaseUrl: svc.databaseUrl, env: { RATE_LIMIT_PER_MINUTE: '10000' } });
    const here = await stream(agent.agentKey);
    const there = await openStream(second.url, '/v1/events/stream', { token: agent.agentKey });
    streams.push(there);
    const published = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? receiveMessage(svc, inbox) : reviewEvent(tenant, agent.agentId, inbox.id, 100 + i))));
    const expected = await logOrder(published.map((r) => r.id));
    for (const c of [here, there]) {
      await c.waitForEvents(40);
      assert.deepEqual(c.events.map((e) => e.id), expected);
    }
    here.close();
    there.close();
  });

  test('an event whose transaction commits after a newer one is still sent, and first', async () => {
    const s = await stream(agent.agentKey);
    await inOpenTransaction(async (slow) => {
      const early = await publishEvent(slow, svc.services.queue, { org_id: tenant.orgId, project_id: tenant.projectId, inbox_id: inbox.id, agent_id: agent.agentId, type: 'review.sent', payload: { review_id: 'rr_early' } });
      const late = await reviewEvent(tenant, agent.agentId, inbox.id, 7);
      assert.ok(late.id > early.id);
      // The newer event is committed, but a stream that sent it now could never send the older one.
      await new Promise((r) => setTimeout(r, 400));
      assert.equal(s.events.length, 0, 'nothing is sent while an older transaction is still open');
      await slow.query('COMMIT');
      const got = await s.waitForEvents(2);
      assert.deepEqual(got.map((e) => e.id), [evt(early.id), evt(late.id)]);
      const resumed = await stream(agent.agentKey, '/v1/events/stream', { 'last-event-id': evt(early.id) });
      const [next] = await resumed.waitForEvents(1);
      assert.equal(next!.id, evt(late.id));
      resumed.close();
    });
    s.close();
  });

  test('events held back by a transaction that publishes nothing arrive once it ends', async () => {
    const s = await stream(agent.agentKey);
    await inOpenTransaction(async (other) => {
      await other.query('SELECT pg_current_xact_id()'); // a running transaction with an id, as any writer has
      const held = await reviewEvent(tenant, agent.agentId, inbox.id, 8);
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(s.events.length, 0);
      await other.query('ROLLBACK');
      const [ev] = await s.waitForEvents(1);
      assert.equal(ev!.id, evt(held.id));
    });
    s.close();
  });

  test('positions compare as transaction ids, not as text: 99 comes before 100', async () => {
    const t = await createTenant(svc);
    const a = await t.enroll('positions-agent');
    const box = await addInbox(svc, t, a.agentId);
    const insert = async (tx: string) =>
      (await svc.services.db.query<{ id: number }>(
        `INSERT INTO events (org_id, project_id, inbox_id, agent_id, type, payload, tx) VALUES ($1, $2, $3, $4, 'review.sent', '{}', $5::xid8) RETURNING id`,
        [t.orgId, t.projectId, box.id, a.agentId, tx],
      )).rows[0]!.id;
    const later = await insert('100');
    const earlier = await insert('99');
    const replay = await stream(a.agentKey, '/v1/events/stream', { 'last-event-id': evt(0) });
    assert.deepEqual((await replay.waitForEvents(2)).map((e) => e.id), [evt(earlier), evt(later)]);
    const fresh = await stream(a.agentKey);
    const next = await publish(svc, { org_id: t.orgId, project_id: t.projectId, inbox_id: box.id, agent_id: a.agentId, type: 'review.sent' });
    const [first] = await fresh.waitForEvents(1);
    assert.equal(first!.id, evt(next.id), 'a new stream starts after the newest position, not after the text-wise largest');
    replay.close();
    fresh.close();
  });

  test('many open streams share one LISTEN connection, and all get the event', async () => {
    const countConnections = async () => {
      const { rows } = await svc.services.db.query(
        `SELECT count(*)::int AS total, count(*) FILTER (WHERE application_name = 'agent-inbox-listen')::int AS listen
           FROM pg_stat_activity WHERE datname = current_database()`,
      );
      return rows[0] as { total: number; listen: number };
    };
    const before = await countConnections();
    const many = await Promise.all(Array.from({ length: 60 }, () => stream(agent.agentKey)));
    const during = await countConnections();
    assert.equal(during.listen, 1);
    // The pool holds at most 20 connections; 60 streams did not each take one.
    assert.ok(during.total - before.total <= 20, `${before.total} → ${during.total} connections`);
    const row = await receiveMessage(svc, inbox);
    await Promise.all(many.map((s) => s.waitForEvents(1)));
    assert.ok(many.every((s) => s.events[0]!.id === evt(row.id)));
    for (const s of many) s.close();
  });
});

process.on('exit', () => streams.forEach((s) => s.close()));

describe('event ids', () => {
  test('are opaque: consecutive events of two tenants carry ids that show no position or gap', async () => {
    const mine = await stream(agent.agentKey);
    const theirs = await stream(outsider.agentKey);
    await receiveMessage(svc, inbox, 'first of mine');
    await receiveMessage(svc, outsiderInbox, 'between');
    await receiveMessage(svc, inbox, 'second of mine');
    const [a, b] = await mine.waitForEvents(2);
    const [t] = await theirs.waitForEvents(1);
    for (const ev of [a!, b!, t!]) {
      assert.match(ev.id!, /^evt_[A-Za-z0-9_-]{22}$/);
      assert.doesNotMatch(ev.id!, /^evt_\d+$/);
      assert.equal(JSON.parse(ev.data).id, ev.id);
    }
    assert.notEqual(a!.id, b!.id);
    mine.close();
    theirs.close();
  });

  test('a made-up, altered or position-shaped Last-Event-ID is 400 naming last_event_id, never 500', async () => {
    const row = await receiveMessage(svc, inbox);
    const real = evt(row.id);
    const flip = (c: string) => (c === 'A' ? 'B' : 'A');
    const forged = [`evt_${row.id}`, String(row.id), 'evt_0', 'evt_' + 'A'.repeat(22), real.slice(0, -1) + flip(real.slice(-1)), real.slice(0, 8) + flip(real[8]!) + real.slice(9), 'evt_%%%', real + 'A'];
    for (const id of forged) {
      for (const [path, headers] of [
        ['/v1/events/stream', { 'last-event-id': id }],
        [`/v1/events/stream?last_event_id=${encodeURIComponent(id)}`, {}],
      ] as const) {
        const r = await openStream(svc.url, path, { token: agent.agentKey, headers });
        assert.equal(r.status, 400, `${id} in ${path}`);
        const body = JSON.parse(r.body);
        assert.equal(body.code, 'bad_request');
        assert.equal(body.errors[0].field, 'last_event_id');
        r.close();
      }
    }
  });
});
