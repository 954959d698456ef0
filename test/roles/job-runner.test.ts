// A worker with `inFlight` (roles/job-runner.ts) keeps that many jobs running whenever there are
// that many queued, however they arrive, and settles each job on its own as it ends.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import type { Worker } from '../../actors/workers/worker.ts';
import { loadConfig } from '../../service/config.ts';
import { runJobs } from '../../roles/job-runner.ts';
import { ensureQueues, startWorkers } from '../../roles/workers.ts';
import { withTransaction } from '../../storage/db.ts';
import { openTestQueue } from '../../testkit/queue.ts';
import { waitFor } from '../../testkit/wait.ts';

const { db, queue, listener, log } = await openTestQueue();

/** Jobs that run until released, counting how many run at once. */
function gatedJobs() {
  const runs = new Map<string, number>();
  const now = { running: 0, most: 0 };
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  return {
    runs,
    now,
    release: () => open(),
    async perform(job: { key: string; fail_first?: boolean }) {
      const tries = (runs.get(job.key) ?? 0) + 1;
      runs.set(job.key, tries);
      now.most = Math.max(now.most, ++now.running);
      try {
        await gate;
      } finally {
        now.running--;
      }
      if (job.fail_first && tries === 1) throw new Error(`${job.key} fails its first try`);
    },
  };
}

/** Queues one job in its own transaction and wakes the workers, as a send does. */
const queueOne = (name: string, data: object) =>
  withTransaction(db, async (tx) => {
    await queue.send(tx, name, data);
    await queue.wake(tx, name);
  });

const states = async (name: string) =>
  (await db.query<{ key: string; state: string }>(`SELECT data->>'key' AS key, state FROM pgboss.job WHERE name = $1 ORDER BY 1`, [name])).rows;

test('jobs queued one by one while others run are all running at once, up to inFlight and never more', async () => {
  const jobs = gatedJobs();
  const worker: Worker<{ key: string }> = { name: 'runner-trickle', inFlight: 6, batchSize: 4, perform: (job) => jobs.perform(job) };
  await ensureQueues(queue, db, [worker]);
  const stop = await startWorkers({ db, queue, config: loadConfig({}), log }, listener, [worker]);
  try {
    const keys = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    for (const [i, key] of keys.entries()) {
      await queueOne(worker.name, { key });
      // Each job is running before the next is queued, so each fetch finds one job alone.
      if (i < 6) await waitFor(() => jobs.now.running === i + 1, `job ${key} running beside the ${i} before it`);
    }
    // Two more were queued with every place taken: they wait.
    await new Promise((r) => setTimeout(r, 1_200));
    assert.equal(jobs.now.running, 6, 'six jobs run at once');
    assert.equal(jobs.now.most, 6, 'never more than six');
    assert.equal((await states(worker.name)).filter((j) => j.state === 'created').length, 2, 'the two queued last wait for a place');
    jobs.release();
    await waitFor(async () => (await states(worker.name)).every((j) => j.state === 'completed'), 'every job completed', 15_000);
    assert.deepEqual([...jobs.runs.values()], [1, 1, 1, 1, 1, 1, 1, 1], 'each job ran once');
    assert.equal(jobs.now.most, 6);
  } finally {
    await stop();
  }
});

test('a job that fails is retried by its queue policy while the jobs fetched with it complete once', async () => {
  const jobs = gatedJobs();
  const worker: Worker<{ key: string; fail_first: boolean }> = {
    name: 'runner-retry',
    queue: { retryLimit: 2, retryDelay: 1 },
    inFlight: 8,
    batchSize: 4,
    perform: (job) => jobs.perform(job),
  };
  await ensureQueues(queue, db, [worker]);
  // Queued before the runner starts, so its first fetch takes four of them together.
  await withTransaction(db, async (tx) => {
    for (const key of ['a', 'b', 'c', 'd', 'e']) await queue.send(tx, worker.name, { key, fail_first: key === 'b' });
  });
  jobs.release();
  const stop = await startWorkers({ db, queue, config: loadConfig({}), log }, listener, [worker]);
  try {
    await waitFor(async () => (await states(worker.name)).every((j) => j.state === 'completed'), 'every job completed', 15_000);
    assert.deepEqual(Object.fromEntries(jobs.runs), { a: 1, b: 2, c: 1, d: 1, e: 1 }, 'only the failed job ran again');
  } finally {
    await stop();
  }
});

test('behind a backlog, a fetch and a completion each serve a batch of jobs', async () => {
  const name = 'runner-backlog';
  await ensureQueues(queue, db, [{ name, perform: async () => {} }]);
  await withTransaction(db, async (tx) => {
    for (let i = 0; i < 12; i++) await queue.send(tx, name, { key: `k${String(i).padStart(2, '0')}` });
  });
  const calls = { fetch: 0, complete: 0 };
  const boss = new Proxy(queue.boss, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop !== 'fetch' && prop !== 'complete') return typeof value === 'function' ? value.bind(target) : value;
      return (...args: unknown[]) => {
        calls[prop]++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const runs: string[] = [];
  const runner = runJobs(boss, name, { inFlight: 4, batchSize: 4, pollingIntervalMs: 5_000 }, async (job) => {
    runs.push((job.data as { key: string }).key);
    await new Promise((r) => setTimeout(r, 50));
    return null;
  }, log);
  try {
    await waitFor(async () => (await states(name)).every((j) => j.state === 'completed'), 'every job completed', 15_000);
    assert.equal(runs.length, 12, 'each job ran once');
    assert.equal(new Set(runs).size, 12);
    assert.ok(calls.fetch <= 5, `twelve jobs took ${calls.fetch} fetches`);
    assert.ok(calls.complete <= 4, `twelve jobs took ${calls.complete} completions`);
  } finally {
    await runner.stop(100);
  }
});

test('stopping waits for the jobs running to end; one still running when the wait is over is failed and retried later', async () => {
  const name = 'runner-stop';
  await ensureQueues(queue, db, [{ name, queue: { retryLimit: 1, retryDelay: 1 }, perform: async () => {} }]);
  await withTransaction(db, async (tx) => {
    await queue.send(tx, name, { key: 'quick' });
    await queue.send(tx, name, { key: 'stuck' });
  });
  const started: string[] = [];
  const runner = runJobs(queue.boss, name, { inFlight: 2, batchSize: 2, pollingIntervalMs: 100 }, async (job) => {
    const { key } = job.data as { key: string };
    started.push(key);
    await new Promise((r) => setTimeout(r, key === 'quick' ? 300 : 4_000));
    return null;
  }, log);
  await waitFor(() => runner.running() === 2, 'both jobs running');
  const stopping = Date.now();
  await runner.stop(1_000);
  const waited = Date.now() - stopping;
  assert.ok(waited >= 900 && waited < 5_000, `stop waited about its timeout (${waited} ms)`);
  assert.deepEqual(Object.fromEntries((await states(name)).map((j) => [j.key, j.state])), { quick: 'completed', stuck: 'retry' });
  assert.deepEqual(started.sort(), ['quick', 'stuck']);
  // Stopped, it fetches no more: the retry waits for another worker.
  await new Promise((r) => setTimeout(r, 1_500));
  assert.deepEqual(started.sort(), ['quick', 'stuck']);
});

test('a job running past its expiry is failed and retried, as pg-boss\'s own pollers do', async () => {
  const name = 'runner-expiry';
  await ensureQueues(queue, db, [{ name, queue: { retryLimit: 1, retryDelay: 0, expireInSeconds: 1 }, perform: async () => {} }]);
  await withTransaction(db, (tx) => queue.send(tx, name, { key: 'slow' }));
  let tries = 0;
  const runner = runJobs(queue.boss, name, { inFlight: 1, batchSize: 1, pollingIntervalMs: 100 }, async () => {
    tries++;
    // The first try outlives its one-second expiry; the retry ends at once.
    if (tries === 1) await new Promise((r) => setTimeout(r, 3_000));
    return null;
  }, log);
  try {
    await waitFor(async () => (await states(name))[0]?.state === 'completed', 'the retry completed', 10_000);
    assert.equal(tries, 2, 'it ran a second time after the first try expired');
  } finally {
    await runner.stop(100);
  }
});
