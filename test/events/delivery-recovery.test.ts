// Deliveries across processes: a worker killed mid-attempt loses nothing, and the target check is
// made again by the worker that delivers, whatever was checked at registration.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { after, test } from '../../testkit/test.ts';
import { fileURLToPath } from 'node:url';
import { WEBHOOK_DELIVERY } from '../../actors/workers/webhook-delivery.ts';
import { verifyWebhook } from '../../packages/sdk/src/webhooks.ts';
import { eventIdsFor } from '../../storage/opaque-ids.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
import { addInbox, receiveMessage, startReceiver } from './helpers.ts';
import { scratchDir } from '../../testkit/scratch.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
// Every process signs with the same key, as a multi-host deployment configures it.
const ENCRYPTION_KEY = crypto.randomBytes(32).toString('base64');

const api = await startTestService({ roles: ['api'], env: { ENCRYPTION_KEY, WEBHOOK_RETRY_SCHEDULE: '0.2,0.2,0.2' } });
const tenant = await createTenant(api);
const agent = await tenant.enroll('recovery-agent');

test('a worker killed in the middle of an attempt loses no delivery: another worker runs the job again', async () => {
  const inbox = await addInbox(api, tenant, agent.agentId);
  const receiver = await startReceiver();
  receiver.respond((i) => (i === 0 ? 'hang' : 200));
  const hook = await api.api.post('/v1/webhooks', { url: `${receiver.url}/hook`, inbox: inbox.id }, agent.agentKey);
  assert.equal(hook.status, 201, hook.text);
  // A job still active after 2 s belongs to a dead worker (60 s in production), and is retried at once.
  await api.services.queue.boss.updateQueue(WEBHOOK_DELIVERY, { name: WEBHOOK_DELIVERY, expireInSeconds: 2, retryDelay: 0 });

  const dataDir = scratchDir('worker');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bin', 'agent-inbox.ts'), 'start', '--role', 'worker'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: api.databaseUrl, DATA_DIR: dataDir, ENCRYPTION_KEY, WEBHOOK_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'silent', WEBHOOK_TIMEOUT_SECONDS: '30' },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });

  const event = await receiveMessage(api, inbox);
  await waitFor(() => receiver.requests.length === 1, 'the first attempt, by the child worker', 30_000);
  child.kill('SIGKILL');
  await exited;
  const before = await api.services.db.query('SELECT status, attempts FROM webhook_deliveries WHERE webhook_id = $1', [hook.body.id]);
  assert.deepEqual(before.rows, [{ status: 'pending', attempts: 0 }], 'the killed attempt recorded nothing');

  const worker = await startTestService({ roles: ['worker'], databaseUrl: api.databaseUrl, env: { ENCRYPTION_KEY } });
  // pg-boss's supervisor expires jobs of dead workers; it runs every two minutes, so the test calls it.
  await waitFor(async () => {
    await worker.services.queue.boss.maintain();
    return receiver.requests.length === 2;
  }, 'the job run again by the surviving worker', 20_000);

  const ids = receiver.requests.map((r) => JSON.parse(r.raw.toString('utf8')).id);
  // The worker processes mint the id from the key kept in the database, so both give the API's.
  const expected = (await eventIdsFor(api.services.db)).encode(event.id);
  assert.deepEqual(ids, [expected, expected], 'the duplicate carries the same event id');
  const second = receiver.requests[1]!;
  assert.equal(await verifyWebhook(second.raw, String(second.headers['x-service-signature']), hook.body.secret), true);
  const recorded = await waitFor(async () => {
    const r = await api.api.get(`/v1/webhooks/${hook.body.id}/deliveries`, agent.agentKey);
    return r.body.items[0]?.status === 'succeeded' ? r.body.items[0] : null;
  }, 'the delivery recorded');
  assert.equal(recorded.attempt_count, 1);
  assert.deepEqual(recorded.attempts.map((a: any) => a.status_code), [200]);
  await worker.stop();
});

test('the worker checks the target again when it delivers: a name resolving to loopback is refused', async () => {
  const strictWorker = await startTestService({
    roles: ['worker'],
    databaseUrl: api.databaseUrl,
    env: { ENCRYPTION_KEY, WEBHOOK_ALLOW_PRIVATE: 'false', WEBHOOK_RETRY_SCHEDULE: '0.2', WEBHOOK_DEACTIVATE_AFTER: '50' },
  });
  const inbox = await addInbox(api, tenant, agent.agentId);
  const receiver = await startReceiver();
  const port = new URL(receiver.url).port;
  // Accepted at registration by a process allowing private targets; as if DNS changed since.
  const byName = await api.api.post('/v1/webhooks', { url: `http://localhost:${port}/hook`, inbox: inbox.id }, agent.agentKey);
  const byAddress = await api.api.post('/v1/webhooks', { url: `http://127.0.0.1:${port}/hook`, inbox: inbox.id }, agent.agentKey);
  assert.equal(byName.status, 201);
  assert.equal(byAddress.status, 201);
  await receiveMessage(api, inbox);
  const failed = async (id: string) =>
    waitFor(async () => {
      const r = await api.api.get(`/v1/webhooks/${id}/deliveries`, agent.agentKey);
      return r.body.items[0]?.status === 'failed' ? r.body.items[0] : null;
    }, 'the delivery given up');
  const named = await failed(byName.body.id);
  assert.equal(named.attempts[0].status_code, null);
  assert.match(named.attempts[0].error, /^target refused: host localhost resolves to a loopback address/);
  const literal = await failed(byAddress.body.id);
  assert.match(literal.attempts[0].error, /^target refused: url points at a loopback address \(127\.0\.0\.1\)/);
  assert.equal(receiver.requests.length, 0, 'nothing reached the receiver');
  await strictWorker.stop();
});
