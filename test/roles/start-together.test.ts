// Role processes started at the same moment on an empty database, as `docker compose up` with
// scaled-out roles does: every one must come up. Each creates the job queue's queues at start; run
// side by side, pg-boss's queue creation (a partition per queue) deadlocked, and every process but
// one stopped with `deadlock detected`.
import assert from 'node:assert/strict';
import { after, test } from '../../testkit/test.ts';
import { WORKERS } from '../../actors/workers/registry.ts';
import { startService, type Role, type RunningService } from '../../roles/start.ts';
import { createTestDatabase } from '../../testkit/db.ts';
import { testConfig } from '../../testkit/service.ts';

test("api, smtp and worker processes started together on an empty database all come up, with every worker's queue", async () => {
  const db = await createTestDatabase({ empty: true });
  const roles: Role[][] = [['api'], ['api'], ['smtp'], ['worker'], ['worker'], ['api', 'smtp', 'worker']];
  const configs = await Promise.all(roles.map(() => testConfig()));
  const started = await Promise.allSettled(roles.map((r, i) => startService(configs[i]!, { roles: r, databaseUrl: db.url })));
  const running = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value as RunningService] : []));
  after(async () => {
    for (const r of running) await r.stop();
    await db.drop();
  });
  const failures = started.flatMap((s, i) => (s.status === 'rejected' ? [`${roles[i]!.join('+')}: ${(s.reason as Error).message}`] : []));
  assert.deepEqual(failures, [], 'every process started');
  const { rows } = await running[0]!.services.db.query<{ name: string }>("SELECT name FROM pgboss.queue WHERE name NOT LIKE '\\_\\_pgboss%' ORDER BY name");
  assert.deepEqual(rows.map((r) => r.name), WORKERS.map((w) => w.name).sort(), 'every worker has its queue');
});
