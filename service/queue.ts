// The durable job queue (pg-boss on the same PostgreSQL). Jobs are enqueued inside the caller's
// transaction, so a job exists exactly when the change that asked for it committed.
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import PgBoss from 'pg-boss';
import type pg from 'pg';
import { createPool, endPool, notifyOnCommit, writeBeforeCommit, type PreparedStatement } from '../storage/db.ts';
import type { Logger } from './logger.ts';

const plans = createRequire(import.meta.url)('pg-boss/src/plans.js') as {
  completeJobs(schema: string): string;
  failJobsById(schema: string): string;
  fetchNextJob(schema: string): (o: { includeMetadata: boolean; priority: boolean; ignoreStartAfter: boolean }) => string;
};

export const JOB_WAKE_CHANNEL = 'agent_inbox_jobs';

export type Queue = {
  boss: PgBoss;
  started(): boolean;
  /** Whether this service runs `name`'s jobs: its configuration may switch a kind off (never queued). */
  runs(name: string): boolean;
  /**
   * Enqueues inside `tx`; the job is visible only once tx commits. Inside withTransaction the
   * insert goes with the transaction's next statement (writeBeforeCommit).
   */
  send(tx: pg.ClientBase, name: string, data: object, options?: PgBoss.SendOptions): Promise<void>;
  /** Asks every worker process to fetch `name` now rather than at its next poll (inside a transaction: once it commits). */
  wake(db: pg.Pool | pg.ClientBase, name: string): Promise<void>;
  stop(): Promise<void>;
};

const SCHEMA = 'pgboss';
const COMPLETE = plans.completeJobs(SCHEMA);
// The statements pg-boss's worker loop runs after a job without awaiting them (manager.js onFetch).
const UNAWAITED = new Set<string>([COMPLETE, plans.failJobsById(SCHEMA)]);
// A third of the shortest expiry of a queue (60 s, actors/jobs.ts).
const OUTCOME_RETRY_MS = 20_000;
const OUTCOME_RETRY_PAUSE_MS = 500;

// pg-boss's fetch, in each of its forms. It reads and updates the partitioned job table by the
// queue's name ($1), so a plan kept by the connection (generic) would span every queue's partition
// and sort a queue's whole backlog ahead of the LIMIT; PostgreSQL planned the fetch anew at every
// call instead (0.5 to 0.7 ms). Aimed at the queue's own partition, its kept plan reads the
// partition's index in fetch order, as a fresh plan does (roles/workers.ts).
export const FETCH_FORMS: ReadonlySet<string> = new Set(
  [false, true].flatMap((includeMetadata) =>
    [false, true].flatMap((priority) => [false, true].map((ignoreStartAfter) => plans.fetchNextJob(SCHEMA)({ includeMetadata, priority, ignoreStartAfter }))),
  ),
);
const PARTITION = /^j[0-9a-f]{56}$/;

/**
 * The fetch's text aimed at the partition of its queue, once the queue's partition is known, with
 * its batch size written in: a LIMIT the plan cannot see is costed as a tenth of the backlog, and
 * behind a backlog PostgreSQL then planned the fetch anew at every call still.
 */
export function fetchOnPartition(text: string, table: string, batchSize: number): string {
  return text
    .replace(`FROM ${SCHEMA}.job\n`, `FROM ${SCHEMA}.${table}\n`)
    .replace(`UPDATE ${SCHEMA}.job j`, `UPDATE ${SCHEMA}.${table} j`)
    .replace('LIMIT $2\n', `LIMIT ${batchSize}\n`);
}

/**
 * pg-boss's completion aimed at the partition of its queue. It too names the queue as a parameter,
 * and was planned anew at every call for it: its kept plan would visit every queue's partition.
 * Its jobs are matched as `id = ANY(...)`, the same rows as pg-boss's `IN (SELECT UNNEST(...))`:
 * a kept plan of that join, made while the queue was small, read the whole queue at each call.
 */
export function completionOnPartition(table: string): string {
  return COMPLETE
    .replace(`UPDATE ${SCHEMA}.job\n`, `UPDATE ${SCHEMA}.${table}\n`)
    .replace('AND id IN (SELECT UNNEST($2::uuid[]))\n', 'AND id = ANY($2::uuid[])\n');
}

/**
 * pg-boss's statement as a prepared one, named by its text: a connection parses and plans each of
 * pg-boss's few statements once, not on every job (its insert, fetch and completion would each be
 * planned anew per job). A text without parameters may hold several statements and stays simple.
 */
const prepared = new Map<string, string>();
function preparedQuery(text: string, values: unknown[]): PreparedStatement {
  let name = prepared.get(text);
  if (!name) prepared.set(text, (name = `pgboss-${crypto.createHash('sha1').update(text).digest('hex').slice(0, 16)}`));
  return { name, text, values };
}
const query = (db: pg.Pool | pg.ClientBase, text: string, values?: unknown[]) => db.query(values ? preparedQuery(text, values) : text);

/** `off`: the jobs this service's configuration switches off; sending one queues nothing. */
export async function startQueue(url: string, log: Logger, off: readonly string[] = []): Promise<Queue> {
  const switchedOff = new Set(off);
  // pg-boss runs on a pool of ours, whose every client has an error listener (storage/db.ts):
  // its own pool leaves a client without one between checkout and query. Its statements are the
  // queue's alone, and none needs a sort the planner could avoid: with sorting off, a fetch reads
  // a queue's index in fetch order (roles/workers.ts) even when a young table's statistics say
  // its backlog is two jobs, where the planner otherwise sorted thousands at each fetch.
  const pool = createPool(url, log, 5, 'agent-inbox-queue', { enable_sort: 'off' });
  // Each queue's partition, read once: pg-boss names it by the queue's name, so a queue made again keeps it.
  const partitions = new Map<string, Promise<string | null>>();
  const partitionOf = (name: string) => {
    let table = partitions.get(name);
    if (!table) {
      table = pool
        .query<{ partition_name: string }>(`SELECT partition_name FROM ${SCHEMA}.queue WHERE name = $1`, [name])
        .then(({ rows }) => (rows[0] && PARTITION.test(rows[0].partition_name) ? rows[0].partition_name : null));
      // Not kept when it failed or found none: the next statement aimed there asks again.
      table.then((t) => t ?? partitions.delete(name), () => partitions.delete(name));
      partitions.set(name, table);
    }
    return table;
  };
  // The text a statement of pg-boss's runs as on the queue's own partition, when it is one of
  // those aimed there (its queue's name is the first value) and the partition is known.
  const aimed = async (text: string, values?: unknown[]): Promise<string | null> => {
    const [name, size] = values ?? [];
    if (typeof name !== 'string') return null;
    if (FETCH_FORMS.has(text) && Number.isSafeInteger(size) && (size as number) > 0) {
      const table = await partitionOf(name);
      return table && fetchOnPartition(text, table, size as number);
    }
    if (text === COMPLETE) {
      const table = await partitionOf(name);
      return table && completionOnPartition(table);
    }
    return null;
  };
  const run = async (text: string, values?: unknown[]) => {
    const onPartition = await aimed(text, values);
    if (onPartition) {
      try {
        return await query(pool, onPartition, values);
      } catch (err) {
        // A queue being dropped has no partition for a moment: run as pg-boss wrote it, its partition asked again.
        if ((err as { code?: string }).code !== '42P01') throw err;
        partitions.delete(values![0] as string);
      }
    }
    return query(pool, text, values);
  };
  const executeSql = (text: string, values?: unknown[]) => (UNAWAITED.has(text) ? recordOutcome(() => run(text, values)) : run(text, values));
  // pg-boss records a job's outcome without awaiting it: with the database gone that rejection
  // would end the process. The outcome is tried again while the database comes back (a job left
  // active would wait for its expiry, minutes for a delivery), for a third of the shortest expiry
  // of a queue: an expired job may be another worker's, and its outcome no longer this one's to
  // record. Given up, the job expires and is retried by its queue policy, as when a worker dies.
  const recordOutcome = async (attempt: () => Promise<{ rows: unknown[] }>) => {
    const until = Date.now() + OUTCOME_RETRY_MS;
    for (;;) {
      try {
        return await attempt();
      } catch (err) {
        if (!running || Date.now() + OUTCOME_RETRY_PAUSE_MS > until) {
          log.warn({ err: (err as Error).message }, 'recording a job outcome failed; the job will expire and be retried');
          return { rows: [{ count: 0 }] };
        }
        await new Promise((r) => setTimeout(r, OUTCOME_RETRY_PAUSE_MS).unref());
      }
    }
  };
  const boss = new PgBoss({ schema: SCHEMA, db: { executeSql } });
  let running = false;
  // pg-boss reports lost connections as events; they are logged, never fatal, and its loops resume.
  boss.on('error', (err) => log.warn({ err: err.message }, 'job queue error'));
  boss.on('stopped', () => {
    running = false;
  });
  await boss.start();
  running = true;
  return {
    boss,
    started: () => running,
    runs: (name) => !switchedOff.has(name),
    // The insert's result (the job's id) is not read: it can go with the next statement.
    send: async (tx, name, data, options = {}) => {
      if (switchedOff.has(name)) return;
      const executeSql = async (text: string, values?: unknown[]) => {
        if (!values) return tx.query(text);
        await writeBeforeCommit(tx, preparedQuery(text, values));
        return { rows: [] };
      };
      await boss.send(name, data, { ...options, db: { executeSql } });
    },
    wake: (db, name) => notifyOnCommit(db, JOB_WAKE_CHANNEL, name),
    stop: async () => {
      running = false;
      await boss.stop({ graceful: true, wait: true, timeout: 5_000 });
      await endPool(pool).catch(() => {});
    },
  };
}
