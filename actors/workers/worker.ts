import type PgBoss from 'pg-boss';
import type { Pool } from '../../storage/db.ts';
import type { Config } from '../../service/config.ts';
import type { Logger } from '../../service/logger.ts';
import type { Queue } from '../../service/queue.ts';

export type WorkerDeps = { db: Pool; queue: Queue; config: Config; log: Logger };

/** One background task: a queue name, its retry policy, and the one effect it performs per job. */
export type Worker<T extends object = object> = {
  name: string;
  queue?: Omit<PgBoss.Queue, 'name'>;
  /** Cron schedule for periodic workers. */
  cron?: string;
  /**
   * Jobs of this queue running at once in one process (default 1), fetched whenever one of them
   * ends or a job is queued (roles/job-runner.ts).
   */
  inFlight?: number;
  /**
   * Jobs fetched at once at most (default 1), performed side by side and settled each on its own:
   * behind a backlog a fetch and a completion serve several jobs.
   */
  batchSize?: number;
  /**
   * Its jobs are due when queued (only a retry waits): its queue gets an index in the fetch's own
   * order (roles/workers.ts), so a backlog is read from its head instead of sorted at each fetch.
   */
  fetchInOrder?: boolean;
  /**
   * Performs one job. A worker whose jobs end in several ways (a webhook attempt succeeding,
   * retrying, failing) names the way it ended; the job runner counts it (`agent_inbox_jobs_total`).
   */
  perform(payload: T, deps: WorkerDeps): Promise<string | void>;
};
