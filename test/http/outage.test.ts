// Stopping PostgreSQL under a running service, then starting it again: the service answers 503
// meanwhile and recovers by itself, with its job queue still working.
import assert from 'node:assert/strict';
import { after, test } from '../../testkit/test.ts';
import { openScratchEmbedded } from '../../storage/embedded.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';

const pg = await openScratchEmbedded({ flags: ['-c', 'fsync=off'] });
after(() => pg.close());
const svc = await startTestService({ databaseUrl: pg.url });
const tenant = await createTenant(svc);
const { agentKey } = await tenant.enroll();

test('with PostgreSQL down, /readyz is 503 and requests are 503 unavailable with Retry-After; both recover', async () => {
  assert.equal((await svc.api.get('/readyz')).status, 200);
  await pg.stop();

  const ready = await svc.api.get('/readyz');
  assert.equal(ready.status, 503);
  assert.equal(ready.body.checks.database, false);
  const r = await svc.api.get('/v1/auth/me', agentKey);
  assert.equal(r.status, 503);
  assert.equal(r.body.code, 'unavailable');
  assert.equal(r.headers.get('retry-after'), '5');
  assert.equal((await svc.api.get('/healthz')).status, 200, 'the process itself stays up');

  await pg.start();
  await waitFor(async () => (await svc.api.get('/readyz')).status === 200, '/readyz back to 200', 20_000);
  await waitFor(async () => (await svc.api.get('/v1/auth/me', agentKey)).status === 200, 'requests served again', 20_000);

  // The queue and its workers survived: a job sent now is worked.
  const id = await svc.services.queue.boss.send('maintenance', {});
  assert.ok(id);
  await waitFor(async () => (await svc.services.queue.boss.getJobById('maintenance', id!))?.state === 'completed', 'job completed after recovery', 20_000);
});
