// The durable job queue (pg-boss on the same PostgreSQL). Jobs are enqueued inside the caller's
// transaction, so a job exists exactly when the change that asked for it committed.
import PgBoss from 'pg-boss';
import type pg from 'pg';
import { createPool, notifyOnCommit } from '../storage/db.ts';
import type { Logger } from './logger.ts';

export const JOB_WAKE_CHANNEL = 'agent_inbox_jobs';

export type Queue = {
  boss: PgBoss;
  started(): boolean;
  /** Enqueues inside `tx`; the job is visible only once tx commits. */
  send(tx: pg.ClientBase, name: string, data: object, options?: PgBoss.SendOptions): Promise<string | null>;
  /** Asks every worker process to fetch `name` now rather than at its next poll (inside a transaction: once it commits). */
  wake(db: pg.Pool | pg.ClientBase, name: string): Promise<void>;
  stop(): Promise<void>;
};

export async function startQueue(url: string, log: Logger): Promise<Queue> {
  // pg-boss runs on a pool of ours, whose every client has an error listener (storage/db.ts):
  // its own pool leaves a client without one between checkout and query.
  const pool = createPool(url, log, 5, 'agent-inbox-queue');
  const boss = new PgBoss({ schema: 'pgboss', db: { executeSql: (text, values) => pool.query(text, values) } });
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
    send: (tx, name, data, options = {}) =>
      boss.send(name, data, { ...options, db: { executeSql: (text, values) => tx.query(text, values) } }),
    wake: (db, name) => notifyOnCommit(db, JOB_WAKE_CHANNEL, name),
    stop: async () => {
      running = false;
      await boss.stop({ graceful: true, wait: true, timeout: 5_000 });
      await pool.end().catch(() => {});
    },
  };
}
