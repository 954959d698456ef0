import type { Executor } from './db.ts';

export type WindowCounts = { current: number; previous: number; elapsed: number };

/**
 * Counts one hit for the key in the current one-minute window (the database clock, so every
 * API process agrees) and returns it with the previous window's count and the seconds elapsed.
 */
export async function hitRateWindow(db: Executor, keyId: string): Promise<WindowCounts> {
  const { rows } = await db.query<WindowCounts>({
    name: 'rate-limit-hit',
    text: `WITH now AS (SELECT extract(epoch FROM clock_timestamp()) AS t),
          win AS (SELECT floor(t / 60)::bigint AS w, t - floor(t / 60) * 60 AS elapsed FROM now),
          hit AS (
            INSERT INTO rate_limit_windows (key_id, window_start, hits)
            SELECT $1, w, 1 FROM win
            ON CONFLICT (key_id, window_start) DO UPDATE SET hits = rate_limit_windows.hits + 1
            RETURNING hits)
     SELECT (SELECT hits FROM hit) AS current,
            coalesce((SELECT hits FROM rate_limit_windows r, win WHERE r.key_id = $1 AND r.window_start = win.w - 1), 0) AS previous,
            (SELECT elapsed FROM win)::float8 AS elapsed`,
    values: [keyId],
  });
  return rows[0]!;
}

export async function pruneRateWindows(db: Executor): Promise<void> {
  await db.query('DELETE FROM rate_limit_windows WHERE window_start < floor(extract(epoch FROM now()) / 60)::bigint - 2');
}
