// Runs one queue's jobs with up to `inFlight` of them at once, fetching whenever a place is free.
// pg-boss's own pollers fetch again only once every job of their last fetch has ended: jobs that
// arrive one by one are each fetched alone, and then a queue has only as many jobs running as it
// has pollers, however long each takes (a delivery waits on a remote server). Here a wake-up, a
// job ending or the polling interval fetches as many jobs as there are free places, up to
// `batchSize` a fetch, and each job is settled on its own as soon as it ends.
import type PgBoss from 'pg-boss';
import type { Logger } from '../service/logger.ts';

export type JobRunner = {
  /** Looks for jobs now (a job was queued). */
  wake(): void;
  /** Fetches no more; waits up to `timeoutMs` for the jobs running, then fails those left so their retries run elsewhere. */
  stop(timeoutMs: number): Promise<void>;
  /** Jobs running now. */
  running(): number;
};

export function runJobs(
  boss: PgBoss,
  name: string,
  opts: { inFlight: number; batchSize: number; pollingIntervalMs: number },
  perform: (job: PgBoss.Job<object>) => Promise<Error | null>,
  log: Logger,
): JobRunner {
  const active = new Map<string, Promise<void>>();
  let stopped = false;
  let fetching = false;
  let again = false;

  const settle = async (job: PgBoss.Job<object>, err: Error | null) => {
    try {
      if (err) await boss.fail(name, job.id, err);
      else await boss.complete(name, job.id);
    } catch (e) {
      // Left active, the job expires and is retried by its queue policy, as when a worker dies.
      log.warn({ err: (e as Error).message, job: job.id }, 'recording a job outcome failed');
    }
  };

  const failAll = (ids: string[], reason: string) =>
    Promise.all(ids.map((id) => boss.fail(name, id, new Error(reason)).catch(() => {})));

  const start = (job: PgBoss.Job<object> & { expireInSeconds?: number }) => {
    // As pg-boss's own pollers do: a job still running at its expiry is failed (and retried).
    let timer: NodeJS.Timeout | undefined;
    const expiry = new Promise<Error>((resolve) => {
      timer = setTimeout(() => resolve(new Error(`the job ran past its expiry (${job.expireInSeconds} s)`)), (job.expireInSeconds ?? 900) * 1000);
    });
    const run = Promise.race([perform(job), expiry])
      .then((err) => settle(job, err))
      .finally(() => {
        clearTimeout(timer);
        active.delete(job.id);
        pump();
      });
    active.set(job.id, run);
  };

  const pump = (): void => {
    if (fetching) {
      again = true;
      return;
    }
    fetching = true;
    void (async () => {
      try {
        do {
          again = false;
          while (!stopped && active.size < opts.inFlight) {
            const wanted = Math.min(opts.batchSize, opts.inFlight - active.size);
            const jobs = await boss.fetch<object>(name, { batchSize: wanted });
            // Fetched as the runner stops: failed at once, so their retries run elsewhere.
            if (stopped) {
              await failAll(jobs.map((j) => j.id), 'the worker stopped');
              break;
            }
            for (const job of jobs) start(job);
            if (jobs.length < wanted) break;
          }
        } while (again && !stopped && active.size < opts.inFlight);
      } catch (err) {
        log.warn({ err: (err as Error).message, queue: name }, 'fetching jobs failed; trying again at the next poll');
      } finally {
        fetching = false;
      }
    })();
  };

  const poll = setInterval(pump, opts.pollingIntervalMs);
  pump();

  return {
    wake: pump,
    running: () => active.size,
    async stop(timeoutMs) {
      stopped = true;
      clearInterval(poll);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.allSettled(active.values()), new Promise((r) => (timer = setTimeout(r, timeoutMs)))]);
      clearTimeout(timer);
      await failAll([...active.keys()], 'the worker stopped while the job ran');
    },
  };
}
