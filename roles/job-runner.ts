// Runs one queue's jobs with up to `inFlight` of them at once, fetching whenever places are free.
// pg-boss's own pollers fetch again only once every job of their last fetch has ended: jobs that
// arrive one by one are each fetched alone, and then a queue has only as many jobs running as it
// has pollers, however long each takes (a delivery waits on a remote server). Here a wake-up, a
// job ending or the polling interval fetches jobs for the places free.
// Behind a backlog (the last fetch was full), it waits until `batchSize` places are free and
// fetches that many, and the jobs that ended are completed together just before: a fetch and a
// completion serve `batchSize` jobs, as with pollers. Otherwise a single free place is filled at
// once and a job that ended is completed at once. A job that failed is failed at once. (A full
// fetch of the last free places also counts as a backlog: a job queued just after it may wait for
// the next poll.)
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
  let ended: string[] = [];
  let backlog = false;
  let stopped = false;
  let fetching = false;
  let again = false;

  const warn = (ids: string[]) => (e: Error) =>
    // Left active, a job expires and is retried by its queue policy, as when a worker dies.
    log.warn({ err: e.message, jobs: ids }, 'recording a job outcome failed');

  const completeEnded = async () => {
    if (ended.length === 0) return;
    const ids = ended;
    ended = [];
    await boss.complete(name, ids).catch(warn(ids));
  };

  const failAll = (ids: string[], reason: string) => Promise.all(ids.map((id) => boss.fail(name, id, new Error(reason)).catch(warn([id]))));

  const start = (job: PgBoss.Job<object> & { expireInSeconds?: number }) => {
    // As pg-boss's own pollers do: a job still running at its expiry is failed (and retried).
    let timer: NodeJS.Timeout | undefined;
    const expiry = new Promise<Error>((resolve) => {
      timer = setTimeout(() => resolve(new Error(`the job ran past its expiry (${job.expireInSeconds} s)`)), (job.expireInSeconds ?? 900) * 1000);
    });
    const run = Promise.race([perform(job).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e)))), expiry])
      .then(async (err) => {
        clearTimeout(timer);
        active.delete(job.id);
        if (err) return void (await boss.fail(name, job.id, err).catch(warn([job.id])));
        ended.push(job.id);
        if (!backlog || ended.length >= opts.batchSize || active.size === 0) await completeEnded();
      })
      .finally(pump);
    active.set(job.id, run);
  };

  const free = () => opts.inFlight - active.size;
  const mayFetch = () => !stopped && free() >= (backlog ? Math.min(opts.batchSize, opts.inFlight) : 1);

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
          while (mayFetch()) {
            const wanted = Math.min(opts.batchSize, free());
            void completeEnded();
            const jobs = await boss.fetch<object>(name, { batchSize: wanted });
            // Fetched as the runner stops: failed at once, so their retries run elsewhere.
            if (stopped) {
              await failAll(jobs.map((j) => j.id), 'the worker stopped');
              break;
            }
            for (const job of jobs) start(job);
            backlog = jobs.length === wanted;
            if (!backlog) break;
          }
        } while (again && mayFetch());
      } catch (err) {
        log.warn({ err: (err as Error).message, queue: name }, 'fetching jobs failed; trying again at the next poll');
      } finally {
        fetching = false;
      }
    })();
  };

  const poll = setInterval(() => {
    void completeEnded();
    // A backlog that ended while places are filling is seen at the next poll.
    if (!mayFetch() && free() > 0) backlog = false;
    pump();
  }, opts.pollingIntervalMs);
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
      await completeEnded();
      await failAll([...active.keys()], 'the worker stopped while the job ran');
    },
  };
}
