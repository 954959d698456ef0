// Runs the registered workers, each queue on a job runner of its own (./job-runner.ts), and answers
// job wake-ups at once instead of at the next poll.
import type PgBoss from 'pg-boss';
import { WORKERS } from '../actors/workers/registry.ts';
import type { Worker, WorkerDeps } from '../actors/workers/worker.ts';
import { withSessionLock, type Pool } from '../storage/db.ts';
import type { Listener } from '../service/listener.ts';
import { observeJob } from '../service/metrics.ts';
import { runJobs, type JobRunner } from './job-runner.ts';
import type { Logger } from '../service/logger.ts';
import { JOB_WAKE_CHANNEL, startQueue, type Queue } from '../service/queue.ts';

// Any constant shared by every process of this service, apart from the migrations' own.
const QUEUE_LOCK_KEY = 7_146_002;

/**
 * Creates these workers' queues on a queue already started (a set of workers of its own, as a test
 * has); the roles open the service's queue with openJobQueue. Serialised across processes by an
 * advisory lock, as the migrations are: pg-boss creates a queue's partition of its job table, and
 * processes doing that side by side on a new database deadlocked (all but one of them stopped with
 * `deadlock detected`). Queues that exist are left alone.
 */
export async function ensureQueues(queue: Queue, db: Pool, workers: readonly Worker<any>[]): Promise<void> {
  await withSessionLock(db, QUEUE_LOCK_KEY, () => createMissingQueues(queue, workers));
}

/**
 * Starts the job queue and creates every worker's queue, under the same lock: pg-boss's own start
 * creates its scheduler's queue and runs a first maintenance over the job table, which deadlocked
 * beside another process creating queues on a new database. Each role opens the queue this way
 * before it may enqueue.
 */
export async function openJobQueue(db: Pool, url: string, log: Logger, off: readonly string[] = []): Promise<Queue> {
  return withSessionLock(db, QUEUE_LOCK_KEY, async () => {
    const queue = await startQueue(url, log, off);
    try {
      await createMissingQueues(queue, WORKERS);
      await createFetchOrderIndexes(db, WORKERS);
    } catch (err) {
      await queue.stop().catch(() => {});
      throw err;
    }
    return queue;
  });
}

/**
 * pg-boss reads a queue's due jobs through an index on their start time, then sorts them all by
 * priority and age at each fetch: behind a burst of thousands, every fetch sorted thousands (3 ms
 * at 3,000). A queue whose jobs are due when queued gets an index in the fetch's order, read from
 * its head; the queue's connections run with sorting off (service/queue.ts), so that index is taken
 * whatever the statistics of a young table say. Queues of timers keep pg-boss's: most of their
 * jobs wait for a later start, which an index in age order would step over at every fetch.
 */
async function createFetchOrderIndexes(db: Pool, workers: readonly Worker<any>[]): Promise<void> {
  const names = workers.filter((w) => w.fetchInOrder).map((w) => w.name);
  const { rows } = await db.query<{ partition_name: string }>('SELECT partition_name FROM pgboss.queue WHERE name = ANY($1)', [names]);
  for (const { partition_name: table } of rows) {
    if (!/^j[0-9a-f]{56}$/.test(table)) throw new Error(`unexpected job queue table ${table}`);
    // The predicate is the fetch's own, so the planner may read the index for it.
    await db.query(`CREATE INDEX IF NOT EXISTS ${table}_order ON pgboss.${table} (name, priority DESC, created_on, id) WHERE state < 'active'`);
  }
}

async function createMissingQueues(queue: Queue, workers: readonly Worker<any>[]): Promise<void> {
  const existing = new Set((await queue.boss.getQueues()).map((q) => q.name));
  for (const w of workers) {
    if (!existing.has(w.name)) await queue.boss.createQueue(w.name, { name: w.name, ...(w.queue ?? {}) });
  }
}

// How often an idle runner looks for jobs that came without a wake-up (a retry falling due).
const POLLING_INTERVAL_MS = 500;
// How long stopping waits for jobs still running (as the queue's own stop does).
const STOP_TIMEOUT_MS = 5_000;

/** Starts the workers; answers the function stopping them (their running jobs get STOP_TIMEOUT_MS to end). */
export async function startWorkers(deps: WorkerDeps, listener: Listener, workers: readonly Worker<any>[] = WORKERS): Promise<() => Promise<void>> {
  const { boss } = deps.queue;
  const runners = new Map<string, JobRunner>();
  for (const w of workers) {
    if (w.cron) await boss.schedule(w.name, w.cron, {});
    const log = deps.log.child({ worker: w.name });
    const performOne = async (job: PgBoss.Job<object>): Promise<Error | null> => {
      const started = process.hrtime.bigint();
      const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
      try {
        const outcome = await w.perform(job.data, { ...deps, log });
        observeJob(w.name, outcome ?? 'done', seconds());
        return null;
      } catch (err) {
        observeJob(w.name, 'error', seconds());
        log.warn({ err: (err as Error).message, job: job.id }, 'job failed; it will be retried by its queue policy');
        return err as Error;
      }
    };
    runners.set(w.name, runJobs(boss, w.name, { inFlight: w.inFlight ?? 1, batchSize: w.batchSize ?? 1, pollingIntervalMs: POLLING_INTERVAL_MS }, performOne, log));
  }
  const unlisten = listener.on(JOB_WAKE_CHANNEL, (name) => {
    runners.get(name)?.wake();
  });
  return async () => {
    unlisten();
    await Promise.all([...runners.values()].map((r) => r.stop(STOP_TIMEOUT_MS)));
  };
}
