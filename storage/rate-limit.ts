import type { Executor } from './db.ts';

/** Hits in the current window (this one included) and the previous one, and seconds into the current. */
export type WindowCounts = { current: number; previous: number; elapsed: number };

/**
 * The current one-minute window `win(w, elapsed)` by the database clock, so every API process
 * agrees. A request is counted with its key lookup (findApiKeyForAuth), in the same round trip.
 */
export const RATE_WINDOW_SQL = `now AS (SELECT extract(epoch FROM clock_timestamp()) AS t),
           win AS (SELECT floor(t / 60)::bigint AS w, t - floor(t / 60) * 60 AS elapsed FROM now)`;

export async function pruneRateWindows(db: Executor): Promise<void> {
  await db.query('DELETE FROM rate_limit_windows WHERE window_start < floor(extract(epoch FROM now()) / 60)::bigint - 2');
}
