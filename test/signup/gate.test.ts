// The signup gate: SIGNUP_ENABLED as the default, `agent-inbox signup --enable|--disable` for every
// process, 403 signup_disabled creating nothing, 503 signup_gate_unavailable failing closed, and
// the per-address and per-client limits. With no relay the code goes to the local outbox.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from '../../testkit/test.ts';
import { promisify } from 'node:util';
import { simpleParser } from 'mailparser';
import { createTenant, startTestService } from '../../testkit/service.ts';

const run = promisify(execFile);
const svc = await startTestService({ env: { SIGNUP_LIMIT_PER_IP: '8' } });
const db = svc.services.db;
const env = { ...process.env, DATABASE_URL: svc.databaseUrl, DATA_DIR: svc.config.dataDir, LOG_LEVEL: 'silent' };
const cli = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'bin/agent-inbox.ts', ...args], { env });
const count = async (table: string) => (await db.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n as number;
const created = async () => ({ orgs: await count('orgs'), agents: await count('agents'), inboxes: await count('inboxes'), keys: await count('api_keys'), signups: await count('signups') });

async function outboxCode(email: string): Promise<string> {
  const { rows } = await db.query('SELECT raw FROM outbound_outbox WHERE $1 = ANY(envelope_to) ORDER BY created_at DESC LIMIT 1', [email]);
  assert.equal(rows.length, 1, 'the code mail is in the outbox');
  const mail = await simpleParser(rows[0].raw);
  return /verification code is (\d{6})/.exec(mail.text ?? '')![1]!;
}

test('closed by default: signup-status says so, sign-up answers 403 signup_disabled in the legacy envelope and creates nothing; enrollment still works', async () => {
  assert.deepEqual((await svc.api.get('/v1/signup-status')).body, { enabled: false });
  const before = await created();
  const r = await svc.api.post('/v1/agent/sign-up', { email: 'closed@example.com' });
  assert.equal(r.status, 403);
  assert.equal(r.body.error, 'signup_disabled');
  assert.equal(typeof r.body.message, 'string');
  assert.equal(r.body.code, undefined, 'legacy envelope: no code');
  assert.deepEqual(await created(), before);
  const tenant = await createTenant(svc);
  const agent = await tenant.enroll();
  assert.equal((await svc.api.get('/v1/auth/me', agent.agentKey)).status, 200);
});

test('the operator opens the gate for every process; closing it again stops pending verifications, while existing keys keep working', async () => {
  const opened = await cli('signup', '--enable');
  assert.match(opened.stdout, /signup: enabled/);
  assert.deepEqual((await svc.api.get('/v1/signup-status')).body, { enabled: true });
  const r = await svc.api.post('/v1/agent/sign-up', { email: 'gate@example.com' });
  assert.equal(r.status, 201, r.text);
  const code = await outboxCode('gate@example.com');

  const tenant = await createTenant(svc);
  const agent = await tenant.enroll();
  await cli('signup', '--disable');
  assert.match((await cli('signup', '--status')).stdout, /signup: disabled/);
  const before = await created();
  const v = await svc.api.post('/v1/agent/verify', { code }, r.body.temporary_key);
  assert.equal(v.status, 403);
  assert.equal(v.body.error, 'signup_disabled');
  assert.deepEqual(await created(), before, 'nothing created or elevated');
  assert.equal((await db.query("SELECT count(*)::int AS n FROM api_keys WHERE agent_id = $1 AND kind = 'agent'", [r.body.agent_id])).rows[0].n, 0);
  assert.equal((await svc.api.get('/v1/auth/me', agent.agentKey)).status, 200, 'existing keys keep working');
  assert.equal((await svc.api.post('/v1/enroll', { token: tenant.enrollmentToken, agent_handle: 'after-close' })).status, 201, 'enrollment keeps working');

  await cli('signup', '--enable');
  const ok = await svc.api.post('/v1/agent/verify', { code }, r.body.temporary_key);
  assert.equal(ok.status, 200, 'reopened, the pending sign-up verifies');
});

test('a gate that cannot be read fails closed: 503 signup_gate_unavailable with Retry-After, nothing created', async () => {
  await db.query('ALTER TABLE service_settings RENAME TO service_settings_away');
  try {
    const before = await created();
    const status = await svc.api.get('/v1/signup-status');
    assert.equal(status.status, 503);
    assert.equal(status.body.error, 'signup_gate_unavailable');
    assert.ok(Number(status.headers.get('retry-after')) > 0);
    const r = await svc.api.post('/v1/agent/sign-up', { email: 'unreadable@example.com' });
    assert.equal(r.status, 503);
    assert.equal(r.body.error, 'signup_gate_unavailable');
    assert.ok(Number(r.headers.get('retry-after')) > 0);
    assert.deepEqual(await created(), before);
  } finally {
    await db.query('ALTER TABLE service_settings_away RENAME TO service_settings');
  }
});

test('over 5 sign-ups an hour for one address, or over SIGNUP_LIMIT_PER_IP from one client, is 429 with Retry-After', async () => {
  // The gate is open (previous test). This client has made 1 sign-up so far.
  for (let i = 0; i < 5; i++) assert.ok([200, 201].includes((await svc.api.post('/v1/agent/sign-up', { email: 'busy@example.com' })).status), `sign-up ${i + 1}`);
  const sixth = await svc.api.post('/v1/agent/sign-up', { email: 'busy@example.com' });
  assert.equal(sixth.status, 429);
  assert.equal(sixth.body.code, 'rate_limited');
  assert.ok(Number(sixth.headers.get('retry-after')) > 0);
  // 7 requests from this client so far; the limit is 8.
  assert.equal((await svc.api.post('/v1/agent/sign-up', { email: 'another@example.com' })).status, 201);
  const before = await created();
  const overIp = await svc.api.post('/v1/agent/sign-up', { email: 'third@example.com' });
  assert.equal(overIp.status, 429);
  assert.match(overIp.body.detail, /client address/);
  assert.deepEqual(await created(), before);
});
