import type { Executor } from './db.ts';

/** Hits in the current window (this one included) and the previous one, and seconds into the current. */
export type WindowCounts = { current: number; previous: number; elapsed: number };

/**
 * The current one-minute window `win(w, elapsed)` by the database clock, so every API process
 * agrees. A request is counted with its key lookup (findApiKeyForAuth), in the same round trip.
 * The statement's commit does not wait for its WAL to reach the disk (`synchronous_commit` off
 * for its own transaction): a crash may forget the last fraction of a second of counts, which
 * costs nothing, while waiting for the flush added a disk write to every request. So a statement
 * with this must run alone, never inside a transaction of other writes: hence the pool, not a
 * client, in its callers' types.
 */
export const RATE_WINDOW_SQL = `now AS (SELECT extract(epoch FROM clock_timestamp()) AS t, set_config('synchronous_commit', 'off', true) AS async_commit),
           win AS (SELECT floor(t / 60)::bigint AS w, t - floor(t / 60) * 60 AS elapsed FROM now)`;

export async function pruneRateWindows(db: Executor): Promise<void> {
  await db.query('DELETE FROM rate_limit_windows WHERE window_start < floor(extract(epoch FROM now()) / 60)::bigint - 2');
}
