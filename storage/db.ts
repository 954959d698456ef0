import pg from 'pg';
import type { Logger } from '../service/logger.ts';

export type Pool = pg.Pool;
export type Executor = pg.Pool | pg.PoolClient | pg.ClientBase;

// bigint columns (event ids, counters) come back as JS numbers; they stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export function createPool(url: string, log: Logger, max = 20): Pool {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 30_000 });
  // An idle client losing its server (PostgreSQL restarted) must not crash the process.
  pool.on('error', (err) => log.warn({ err: err.message }, 'idle database connection lost'));
  return pool;
}

/**
 * Runs fn in one transaction; every write inside commits or none does. `firstStatement` runs in
 * the same round trip as BEGIN (e.g. taking advisory locks).
 */
export async function withTransaction<T>(pool: Pool, fn: (tx: pg.PoolClient) => Promise<T>, firstStatement?: string | null): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(firstStatement ? `BEGIN; ${firstStatement}` : 'BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '08000',
  '08003',
  '08006',
  '08001',
  '08004',
]);

/** True when an error means the database could not be reached, rather than a bad query. */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: string; message?: string };
  if (e.code && UNAVAILABLE_CODES.has(e.code)) return true;
  const msg = e.message ?? '';
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down)/i.test(msg);
}
