// A worker that fetches several jobs at once performs them side by side and settles each on its
// own: a failing job is retried by its queue policy while the others of its fetch complete.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import type { Worker } from '../../actors/workers/worker.ts';
import { loadConfig } from '../../service/config.ts';
import { ensureQueues, startWorkers } from '../../roles/workers.ts';
import { withTransaction } from '../../storage/db.ts';
import { openTestQueue } from '../../testkit/queue.ts';
import { waitFor } from '../../testkit/wait.ts';

const { db, queue, listener, log } = await openTestQueue();

test('a job failing in a fetched batch is retried alone; the others complete once and together', async () => {
  const runs = new Map<string, number>();
  const inFlight = { now: 0, most: 0 };
  const worker: Worker<{ key: string; fail_first: boolean }> = {
    name: 'batch-probe',
    queue: { retryLimit: 2, retryDelay: 1 },
    inFlight: 4,
    batchSize: 4,
    async perform(job) {
      const tries = (runs.get(job.key) ?? 0) + 1;
      runs.set(job.key, tries);
      inFlight.most = Math.max(inFlight.most, ++inFlight.now);
      await new Promise((r) => setTimeout(r, 50));
      inFlight.now--;
      if (job.fail_first && tries === 1) throw new Error(`${job.key} fails its first try`);
    },
  };
  await ensureQueues(queue, db, [worker]);
  // Queued before the worker starts, so its first fetch takes all four.
  await withTransaction(db, async (tx) => {
    for (const key of ['a', 'b', 'c', 'd']) await queue.send(tx, worker.name, { key, fail_first: key === 'b' });
  });
  const stop = await startWorkers({ db, queue, config: loadConfig({}), log }, listener, [worker]);
  try {
    const states = async () =>
      (await db.query<{ key: string; state: string }>(`SELECT data->>'key' AS key, state FROM pgboss.job WHERE name = $1 ORDER BY 1`, [worker.name])).rows;
    await waitFor(async () => (await states()).every((j) => j.state === 'completed'), 'every probe job completed', 15_000);
    assert.deepEqual(Object.fromEntries(runs), { a: 1, b: 2, c: 1, d: 1 }, 'only the failed job ran again');
    assert.equal(inFlight.most, 4, 'the fetched jobs ran side by side');
    assert.deepEqual((await states()).map((j) => j.state), ['completed', 'completed', 'completed', 'completed']);
  } finally {
    await stop();
  }
});

test('when every job of a fetch fails, each is retried by its queue policy until its retries end', async () => {
  const runs = new Map<string, number>();
  const worker: Worker<{ key: string }> = {
    name: 'batch-all-fail',
    queue: { retryLimit: 1, retryDelay: 1 },
    inFlight: 2,
    batchSize: 2,
    async perform(job) {
      runs.set(job.key, (runs.get(job.key) ?? 0) + 1);
      throw new Error('always');
    },
  };
  await ensureQueues(queue, db, [worker]);
  await withTransaction(db, async (tx) => {
    for (const key of ['x', 'y']) await queue.send(tx, worker.name, { key });
  });
  const stop = await startWorkers({ db, queue, config: loadConfig({}), log }, listener, [worker]);
  try {
    await waitFor(async () => {
      const { rows } = await db.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND state = 'failed'`, [worker.name]);
      return rows[0].n === 2;
    }, 'both jobs failed for good', 15_000);
    assert.deepEqual(Object.fromEntries(runs), { x: 2, y: 2 }, 'each job had its try and its one retry');
  } finally {
    await stop();
  }
});
