// Figures read at scrape time for /metrics: the job queues (pg-boss's own tables) and the reviews
// by state. Each is one grouped query; a scrape every 15 to 60 s is the expected load.
import type { Executor } from './db.ts';

export type QueueFigures = { queue: string; waiting: number; scheduled: number; active: number; oldest_waiting_seconds: number };

/**
 * Per pg-boss queue: jobs due and not yet taken (`waiting`), jobs whose start is still ahead (a
 * webhook retry hours away is not a backlog, so it is `scheduled`), jobs running, and how long the
 * oldest due job has been due. Every queue is listed, idle ones with zeros.
 */
export async function queueFigures(db: Executor): Promise<QueueFigures[]> {
  const { rows } = await db.query<QueueFigures>(`
    SELECT q.name AS queue,
           count(j.id) FILTER (WHERE j.state < 'active' AND j.start_after <= now())::int AS waiting,
           count(j.id) FILTER (WHERE j.state < 'active' AND j.start_after > now())::int AS scheduled,
           count(j.id) FILTER (WHERE j.state = 'active')::int AS active,
           coalesce(extract(epoch FROM now() - min(j.start_after) FILTER (WHERE j.state < 'active' AND j.start_after <= now())), 0)::float8
             AS oldest_waiting_seconds
      FROM pgboss.queue q
      LEFT JOIN pgboss.job j ON j.name = q.name AND j.state <= 'active'
     GROUP BY q.name
     ORDER BY q.name`);
  return rows;
}

/** Reviews parked with an unknown delivery outcome, waiting for an operator to reconcile them. */
export async function parkedDeliveryCount(db: Executor): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM machine_instances
      WHERE kind = 'review' AND coalesce((snapshot->'context'->>'reconciliation_needed')::boolean, false)`,
  );
  return rows[0]!.n;
}

/** Reviews (persisted review machines) per state, across every tenant. */
export async function reviewsByState(db: Executor): Promise<Array<{ state: string; count: number }>> {
  const { rows } = await db.query<{ state: string; count: number }>(
    `SELECT state, count(*)::int AS count FROM machine_instances WHERE kind = 'review' GROUP BY state ORDER BY state`,
  );
  return rows;
}
