import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { decideRate } from '../../machines/policy/rate-limit.ts';
import { createLogger } from '../../service/logger.ts';
import { createPool, endPool } from '../../storage/db.ts';
import { countRedemptionAttempt } from '../../storage/enrollment-tokens.ts';
import { RATE_WINDOW_SQL } from '../../storage/rate-limit.ts';
import { createTenant, startTestService, testConfig } from '../../testkit/service.ts';

const env = { RATE_LIMIT_PER_MINUTE: '5', ENROLL_RATE_LIMIT_PER_MINUTE: '4' };
const a = await startTestService({ roles: ['api'], env });
const b = await startTestService({ roles: ['api'], databaseUrl: a.databaseUrl, config: await testConfig(env) });
const tenant = await createTenant(a);

test('the per-key limit holds across two API processes and answers 429 with Retry-After', async () => {
  const { agentKey } = await tenant.enroll();
  // The two processes share the window through the database; stay inside one minute.
  const { rows } = await a.services.db.query<{ s: number }>('SELECT extract(second FROM clock_timestamp())::float8 AS s');
  if (rows[0]!.s > 50) await new Promise((r) => setTimeout(r, (61 - rows[0]!.s) * 1000));
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++) statuses.push((await (i % 2 ? b : a).api.get('/v1/auth/me', agentKey)).status);
  assert.deepEqual(statuses, [200, 200, 200, 200, 200]);
  const limited = await b.api.get('/v1/auth/me', agentKey);
  assert.equal(limited.status, 429);
  assert.equal(limited.body.code, 'rate_limited');
  const retryAfter = Number(limited.headers.get('retry-after'));
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
  assert.equal((await a.api.get('/v1/auth/me', agentKey)).status, 429);
});

test('the limit is per key: another key of the same agent is not limited', async () => {
  const first = await tenant.enroll('limited-agent');
  for (let i = 0; i < 6; i++) await a.api.get('/v1/auth/me', first.agentKey);
  assert.equal((await a.api.get('/v1/auth/me', first.agentKey)).status, 429);
  const second = await tenant.enroll('limited-agent');
  assert.equal((await a.api.get('/v1/auth/me', second.agentKey)).status, 200);
});

test('redemptions of one enrollment token are limited across processes: 429 with Retry-After, other tokens unaffected', async () => {
  const admin = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;
  const issue = async () => (await a.api.post(`${admin}/enrollment-tokens`, { reusable: true }, tenant.consoleToken)).body.token as string;
  const token = await issue();
  const { rows } = await a.services.db.query<{ s: number }>('SELECT extract(second FROM clock_timestamp())::float8 AS s');
  if (rows[0]!.s > 50) await new Promise((r) => setTimeout(r, (61 - rows[0]!.s) * 1000));
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) statuses.push((await (i % 2 ? b : a).api.post('/v1/enroll', { token, agent_handle: `burst-${i}` })).status);
  assert.deepEqual(statuses, [201, 201, 201, 201]);
  const limited = await b.api.post('/v1/enroll', { token, agent_handle: 'burst-4' });
  assert.equal(limited.status, 429);
  assert.equal(limited.body.code, 'rate_limited');
  const retryAfter = Number(limited.headers.get('retry-after'));
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
  const agents = (await a.api.get(`${admin}/agents`, tenant.consoleToken)).body.items;
  assert.equal(agents.some((x: any) => x.handle === 'burst-4'), false, 'the limited redemption created no agent');
  assert.equal((await a.api.post('/v1/enroll', { token: await issue(), agent_handle: 'burst-other' })).status, 201);
});

test('attempts without the secret of a token do not use up its redemptions', async () => {
  const admin = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;
  const token = (await a.api.post(`${admin}/enrollment-tokens`, { reusable: true }, tenant.consoleToken)).body.token as string;
  const forged = token.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a'));
  for (let i = 0; i < 6; i++) assert.equal((await a.api.post('/v1/enroll', { token: forged, agent_handle: 'forger' })).status, 401);
  assert.equal((await a.api.post('/v1/enroll', { token, agent_handle: 'rightful' })).status, 201);
});

test('a request is counted by a commit that does not wait for its flush, and the connection\'s later commits still do', async () => {
  // One connection, so the statement after the count runs where the count ran.
  const pool = createPool(a.databaseUrl, createLogger('silent'), 1);
  try {
    // The suite's clusters run with it off; a deployment's with it on, as here.
    await pool.query('SET synchronous_commit = on');
    const { rows } = await pool.query(`WITH ${RATE_WINDOW_SQL} SELECT (SELECT async_commit FROM now) AS setting, (SELECT w FROM win) AS w`);
    assert.equal(rows[0].setting, 'off', 'the counting statement commits without waiting for the flush');
    const counted = await countRedemptionAttempt(pool, 'tok_async_commit');
    assert.equal(counted.current, 1);
    const after = await pool.query(`SELECT current_setting('synchronous_commit') AS setting`);
    assert.equal(after.rows[0].setting, 'on', 'the setting ended with the counting statement');
  } finally {
    await endPool(pool);
  }
});

test('the sliding estimate weighs the previous window by its remaining overlap', () => {
  assert.deepEqual(decideRate({ current: 5, previous: 0, elapsed: 10 }, 5), { allowed: true });
  assert.equal(decideRate({ current: 6, previous: 0, elapsed: 10 }, 5).allowed, false);
  // Half a minute in, half of the previous window's 8 hits still count: 4 + 2 > 5.
  const d = decideRate({ current: 2, previous: 8, elapsed: 30 }, 5);
  assert.equal(d.allowed, false);
  assert.ok(!d.allowed && d.retryAfterSeconds >= 1 && d.retryAfterSeconds <= 30);
  assert.deepEqual(decideRate({ current: 2, previous: 8, elapsed: 45 }, 5), { allowed: true });
});
