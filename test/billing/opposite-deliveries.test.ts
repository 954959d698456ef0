// Internal deliveries between two orgs in opposite directions at once: each delivery counts the
// sender's sent message and the receiver's received one in one transaction, so both orgs' usage
// rows are locked by every delivery. They are locked in one fixed order, so no delivery waits on
// another in a cycle: none is aborted as a deadlock and retried, and the counters are exact.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, test } from '../../testkit/test.ts';
import { createLogger } from '../../service/logger.ts';
import { createTenant, startTestService, type Tenant } from '../../testkit/service.ts';
import type { Reply } from '../../testkit/http.ts';
import { waitFor } from '../../testkit/wait.ts';
import { INTENT, agentWithInbox, setPolicy, type Agent } from '../reviews/setup.ts';

const lines: string[] = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    lines.push(String(chunk));
    done();
  },
});
// Two processes deliver (four delivery workers each), so opposite deliveries overlap.
const svc = await startTestService({ log: createLogger('warn', sink) });
const second = await startTestService({ databaseUrl: svc.databaseUrl, roles: ['worker'], log: createLogger('warn', sink) });
const db = svc.services.db;

const PER_DIRECTION = 40;

async function usageOf(t: Tenant) {
  const { rows } = await db.query(
    `SELECT sum(p.sent_messages)::int AS sent_messages, sum(p.sent_recipients)::int AS sent_recipients,
            sum(p.received_messages)::int AS received_messages, sum(p.received_recipients)::int AS received_recipients,
            (SELECT reserved::int FROM usage_accounts WHERE org_id = $1) AS reserved,
            (SELECT sum(bytes)::int FROM usage_storage WHERE org_id = $1) AS storage_bytes,
            (SELECT sum(size)::int FROM messages WHERE org_id = $1) AS stored
       FROM usage_periods p
      WHERE p.org_id = $1 AND p.period = to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM')`,
    [t.orgId],
  );
  return rows[0];
}

test('opposite internal deliveries between two orgs all succeed on their first attempt, with no deadlock and exact counters', async () => {
  // Plans with caps, so every send also reserves on its org's usage row.
  const one = await createTenant(svc, { plan: 'startup' });
  const two = await createTenant(svc, { plan: 'startup' });
  const a: Agent = await agentWithInbox(svc, one);
  const b: Agent = await agentWithInbox(svc, two);
  await setPolicy(a, 'allow_direct');
  await setPolicy(b, 'allow_direct');

  // Eight senders, four each way, alternating: deliveries in both directions are queued together.
  const work = Array.from({ length: 2 * PER_DIRECTION }, (_, i) =>
    i % 2 === 0
      ? { agent: a, body: { to: b.address, subject: `A to B ${i}`, text: 'ping', intent: INTENT } }
      : { agent: b, body: { to: a.address, subject: `B to A ${i}`, text: 'pong', intent: INTENT } });
  const failures = () => lines.filter((l) => /deadlock|job failed/i.test(l));
  const sent: Array<{ r: Reply; agent: Agent }> = [];
  // A failed delivery stops the senders: the test has failed, and what follows would only wait.
  await Promise.all(Array.from({ length: 8 }, async () => {
    for (let w = work.shift(); w && failures().length === 0; w = work.shift()) sent.push({ r: await w.agent.send(w.body), agent: w.agent });
  }));
  for (const { r } of sent) assert.equal(r.status, 202, r.text);
  const ids = sent.map(({ r }) => r.body.review_id as string);
  // Every send delivered, or a delivery failed (a deadlock victim is retried seconds later).
  await waitFor(async () => {
    if (failures().length > 0) return true;
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM machine_instances WHERE id = ANY($1) AND state = 'auto_sent'`, [ids]);
    return rows[0].n === ids.length;
  }, 'every send delivered', 60_000);
  assert.deepEqual(failures(), [], 'no delivery failed, none as a deadlock');

  const { rows: jobs } = await db.query(
    `SELECT count(*)::int AS jobs, count(*) FILTER (WHERE retry_count > 0)::int AS retried, count(DISTINCT data->>'review_id')::int AS reviews
       FROM pgboss.job WHERE name = 'review-delivery' AND data->>'review_id' = ANY($1)`,
    [ids],
  );
  assert.deepEqual(jobs[0], { jobs: ids.length, retried: 0, reviews: ids.length }, 'every delivery succeeded on its first attempt');

  for (const t of [one, two]) {
    const u = await usageOf(t);
    assert.deepEqual(
      { ...u, stored: undefined, storage_bytes: u.storage_bytes === u.stored },
      {
        sent_messages: PER_DIRECTION, sent_recipients: PER_DIRECTION, received_messages: PER_DIRECTION, received_recipients: PER_DIRECTION,
        reserved: 0, storage_bytes: true, stored: undefined,
      },
    );
  }
  const inbox = async (agent: Agent) => (await db.query(`SELECT folder, count(*)::int AS n FROM messages WHERE inbox_id = $1 GROUP BY folder ORDER BY folder`, [agent.inboxId])).rows;
  assert.deepEqual(await inbox(a), [{ folder: 'INBOX', n: PER_DIRECTION }, { folder: 'SENT', n: PER_DIRECTION }]);
  assert.deepEqual(await inbox(b), [{ folder: 'INBOX', n: PER_DIRECTION }, { folder: 'SENT', n: PER_DIRECTION }]);
});

after(async () => {
  await second.stop();
});
