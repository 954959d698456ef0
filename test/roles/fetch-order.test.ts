// A queue whose jobs are due when queued (review deliveries) is fetched from the head of an index
// in fetch order, whatever its young table's statistics say: a burst of thousands queued is not
// sorted at every fetch. Queues of timers keep pg-boss's index on the start time.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, test } from '../../testkit/test.ts';
import { JOBS } from '../../actors/jobs.ts';
import { WORKERS } from '../../actors/workers/registry.ts';
import { createLogger } from '../../service/logger.ts';
import { FETCH_FORMS, completionOnPartition, fetchOnPartition, startQueue, type Queue } from '../../service/queue.ts';
import { openJobQueue } from '../../roles/workers.ts';
import pg from 'pg';
import { createPool, endPool, withTransaction } from '../../storage/db.ts';
import { createTestDatabase } from '../../testkit/db.ts';

const fetchText = (createRequire(import.meta.url)('pg-boss/src/plans.js') as { fetchNextJob(schema: string): (o: object) => string })
  .fetchNextJob('pgboss')({ includeMetadata: false, priority: true });

const database = await createTestDatabase();
const log = createLogger('silent');
const db = createPool(database.url, log, 2);
// Opened as a role opens it: the queues and their indexes exist once it is open.
const queue = await openJobQueue(db, database.url, log);
after(async () => {
  await queue.stop();
  await endPool(db);
  await database.drop();
});

const partitionOf = async (queue: string) =>
  (await db.query<{ partition_name: string }>(`SELECT partition_name FROM pgboss.queue WHERE name = $1`, [queue])).rows[0]!.partition_name;

/** Asserts that `client` keeps a plan for its prepared statement `name` rather than planning each call. */
async function assertKeptPlan(client: pg.Client, name: string): Promise<void> {
  const kept = await client.query<{ generic_plans: number; custom_plans: number }>(
    'SELECT generic_plans::int, custom_plans::int FROM pg_prepared_statements WHERE name = $1',
    [name],
  );
  assert.ok(kept.rows[0]!.generic_plans >= 1, `the connection kept a plan: ${JSON.stringify(kept.rows[0])}`);
}

/** The plan `client` keeps, as `explain` (an EXPLAIN of an EXECUTE) shows it. */
async function keptPlanOf(client: pg.Client, explain: string): Promise<string> {
  await client.query('SET plan_cache_mode = force_generic_plan');
  return (await client.query(explain)).rows.map((r) => r['QUERY PLAN']).join('\n');
}

/** Runs `fn` on a queue of its own, `name`, made on a job queue of this test's own. */
async function withProbeQueue(name: string, fn: (probe: Queue) => Promise<void>): Promise<void> {
  const probe = await startQueue(database.url, log);
  try {
    await probe.boss.createQueue(name, { name });
    await fn(probe);
  } finally {
    await probe.stop();
  }
}

const orderIndexes = async () =>
  (await db.query<{ name: string }>(`SELECT q.name FROM pgboss.queue q JOIN pg_indexes i ON i.schemaname = 'pgboss' AND i.indexname = q.partition_name || '_order' ORDER BY 1`)).rows.map((r) => r.name);

test('only the queues whose jobs are due when queued get an index in fetch order, and opening the queue again adds none', async () => {
  const expected = WORKERS.filter((w) => w.fetchInOrder).map((w) => w.name).sort();
  assert.deepEqual(expected, [JOBS.reviewDelivery.name]);
  assert.deepEqual(await orderIndexes(), expected);
  const again = await openJobQueue(db, database.url, log);
  await again.stop();
  assert.deepEqual(await orderIndexes(), expected);
});

test('a backlog of 2,000 deliveries is fetched through that index, oldest first, with no sort of the backlog', async () => {
  // A transaction's jobs share its start time: the two oldest are queued on their own, first.
  for (const review_id of ['rr_first', 'rr_second']) await withTransaction(db, (tx) => queue.send(tx, JOBS.reviewDelivery.name, { org_id: 'org_probe', review_id }));
  await withTransaction(db, async (tx) => {
    for (let i = 0; i < 1998; i++) await queue.send(tx, JOBS.reviewDelivery.name, { org_id: 'org_probe', review_id: `rr_${i}` });
  });
  // On the queue's own connections (sorting off), as its workers fetch; rolled back, nothing taken.
  const probe = await startQueue(database.url, log);
  try {
    // A text without values runs as it is, its statements together (service/queue.ts).
    const runText = probe.boss.getDb().executeSql as unknown as (text: string) => Promise<Array<{ rows: Array<{ 'QUERY PLAN': string }> }>>;
    const [, plan] = await runText(`BEGIN; EXPLAIN ${fetchText.replace(/\$1/g, `'${JOBS.reviewDelivery.name}'`).replace(/\$2/g, '2')}; ROLLBACK`);
    const lines = plan!.rows.map((r) => r['QUERY PLAN']).join('\n');
    assert.match(lines, /Index Scan using j[0-9a-f]{56}_order/, lines);
    assert.doesNotMatch(lines, /Sort Key: job\.priority/, lines);
  } finally {
    await probe.stop();
  }
  const jobs = await queue.boss.fetch<{ review_id: string }>(JOBS.reviewDelivery.name, { batchSize: 2 });
  // The two oldest are taken (RETURNING gives them in no set order).
  assert.deepEqual(jobs.map((j) => j.data.review_id).sort(), ['rr_first', 'rr_second']);
});

test("every form of the fetch is aimed at its queue's partition, where the connection keeps one plan, read in fetch order", async () => {
  const table = await partitionOf(JOBS.reviewDelivery.name);
  assert.equal(FETCH_FORMS.size, 8);
  for (const form of FETCH_FORMS) {
    const aimed = fetchOnPartition(form, table, 4);
    assert.doesNotMatch(aimed, /pgboss\.job\b/, 'no part of it reads the whole job table');
    assert.equal(aimed.split(`pgboss.${table}`).length - 1, 2, 'it reads and updates the partition');
    assert.match(aimed, /LIMIT 4\n/, 'its batch size is written in');
  }
  // On a connection of its own, set as the queue's are (sorting off), the fetch as the queue prepares it.
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query('SET enable_sort = off');
    const text = fetchOnPartition(fetchText, table, 2);
    for (let i = 0; i < 7; i++) {
      await client.query('BEGIN');
      await client.query({ name: 'fetch-probe', text, values: [JOBS.reviewDelivery.name, 2] });
      await client.query('ROLLBACK');
    }
    await assertKeptPlan(client, 'fetch-probe');
    const plan = await keptPlanOf(client, `EXPLAIN EXECUTE "fetch-probe"('${JOBS.reviewDelivery.name}', 2)`);
    assert.match(plan, new RegExp(`Index Scan using ${table}_order`), plan);
    assert.doesNotMatch(plan, /Sort Key: .*priority/, plan);
  } finally {
    await client.end();
  }
});

test("a job's completion is aimed at its queue's partition, where the connection keeps a plan that reads only its jobs, and completes them", async () => {
  // A queue of its own, young: the plan is made and kept while it is empty, then meets a backlog.
  const name = 'probe-completion';
  await withProbeQueue(name, async (probe) => {
    const table = await partitionOf(name);
    const text = completionOnPartition(table);
    assert.doesNotMatch(text, /pgboss\.job\b/, 'it does not update the whole job table');
    assert.match(text, new RegExp(`UPDATE pgboss\\.${table}\n`));
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      for (let i = 0; i < 7; i++) await client.query({ name: 'complete-probe', text, values: [name, ['00000000-0000-4000-8000-000000000000'], null] });
      await assertKeptPlan(client, 'complete-probe');
      await withTransaction(db, async (tx) => {
        for (let i = 0; i < 2000; i++) await probe.send(tx, name, { n: i });
      });
      const jobs = await probe.boss.fetch<{ n: number }>(name, { batchSize: 3 });
      assert.equal(jobs.length, 3);
      const ids = `'{${jobs.map((j) => j.id).join(',')}}'`;
      const plan = await keptPlanOf(client, `EXPLAIN (ANALYZE, BUFFERS) EXECUTE "complete-probe"('${name}', ${ids}, NULL)`);
      assert.match(plan, new RegExp(`Index Scan using ${table}_pkey on ${table}`), plan);
      assert.match(plan, /Index Cond: \(\(name = \$1\) AND \(id = ANY \(\$2\)\)\)/, plan);
      assert.match(plan, /Update on \S+ .*rows=3 loops=1\)/, `it completed the three jobs: ${plan}`);
    } finally {
      await client.end();
    }
    // Through the queue: fetched, completed, and recorded as completed.
    const [job] = await probe.boss.fetch<{ n: number }>(name, { batchSize: 1 });
    await probe.boss.complete(name, job!.id);
    const { rows: state } = await db.query<{ state: string }>(`SELECT state FROM pgboss.job WHERE name = $1 AND id = $2`, [name, job!.id]);
    assert.equal(state[0]?.state, 'completed');
  });
});

test('a queue dropped and made again is still fetched: its partition is named by the queue', async () => {
  const name = 'probe-remade';
  await withProbeQueue(name, async (probe) => {
    await withTransaction(db, (tx) => probe.send(tx, name, { n: 1 }));
    const [first] = await probe.boss.fetch<{ n: number }>(name, { batchSize: 1 });
    assert.equal(first?.data.n, 1);
    await probe.boss.complete(name, first!.id);
    await db.query(`DELETE FROM pgboss.job WHERE name = $1`, [name]);
    await probe.boss.deleteQueue(name);
    await probe.boss.createQueue(name, { name });
    await withTransaction(db, (tx) => probe.send(tx, name, { n: 2 }));
    assert.deepEqual((await probe.boss.fetch<{ n: number }>(name, { batchSize: 1 })).map((j) => j.data.n), [2], 'the job of the queue made again');
    assert.deepEqual((await probe.boss.fetch<{ n: number }>(name, { batchSize: 1 })).map((j) => j.data.n), [], 'and nothing more');
  });
});
