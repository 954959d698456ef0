// A job that ends while PostgreSQL is down: its outcome is recorded once PostgreSQL is back, so a
// completed job is not run again and a failed one is retried by its queue's policy at once. Left
// active, it waited for its expiry: five minutes for a delivery, after a database restart.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, test } from '../../testkit/test.ts';
import { closeScratch, killPostmaster, restartPostgres, until } from '../../testkit/drills.ts';
import { createLogger } from '../../service/logger.ts';
import { startQueue } from '../../service/queue.ts';
import { runJobs } from '../../roles/job-runner.ts';
import { createPool } from '../../storage/db.ts';
import { openScratchEmbedded } from '../../storage/embedded.ts';

const pg = await openScratchEmbedded({ flags: ['-c', 'fsync=off'] });
after(() => closeScratch(pg));
const log = createLogger('silent');
const queue = await startQueue(pg.url, log);
after(() => queue.stop());

for (const ending of ['completes', 'fails'] as const) {
  test(`a job that ${ending === 'completes' ? 'completes' : 'fails'} while the database is down has its outcome recorded once it is back`, async () => {
    const name = `drill-${ending}`;
    await queue.boss.createQueue(name, { name, retryLimit: 3, retryDelay: 1 });
    const runs: Array<() => void> = [];
    let started = 0;
    const runner = runJobs(queue.boss, name, { inFlight: 1, batchSize: 1, pollingIntervalMs: 500 }, async () => {
      started++;
      await new Promise<void>((resolve) => runs.push(resolve));
      return ending === 'fails' && started === 1 ? new Error('the first run fails') : null;
    }, log);
    after(() => runner.stop(1_000));
    const id = await queue.boss.send(name, {});
    await until(() => runs.length === 1, 'the job to start', 10_000);

    await killPostmaster(path.join(pg.dir, 'postgres'));
    runs[0]!();
    await new Promise((r) => setTimeout(r, 1_000));
    await restartPostgres(pg);

    const db = createPool(pg.url, log, 1, 'drill');
    after(() => db.end());
    const state = async () => (await db.query(`SELECT state FROM pgboss.job WHERE id = $1`, [id])).rows[0]?.state as string;
    if (ending === 'completes') {
      await until(async () => (await state()) === 'completed', 'the job to be recorded as completed', 15_000);
      assert.equal(started, 1, 'a completed job is not run again');
    } else {
      await until(() => runs.length === 2, 'the failed job to be run again', 15_000);
      runs[1]!();
      await until(async () => (await state()) === 'completed', 'the second run to be recorded as completed', 15_000);
    }
  });
}
