// Claiming a self-signup on the console: the person whose verified email the agent signed up with
// becomes owner of the org it created. Real HTTP, a real relay for the codes, tokens minted by the
// development identity provider (`agent-inbox console-token`).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, test } from '../../testkit/test.ts';
import { promisify } from 'node:util';
import * as jose from 'jose';
import { startTestService } from '../../testkit/service.ts';
import { startRelay } from '../../testkit/relay.ts';
import { signUpAndVerify } from './helpers.ts';

const run = promisify(execFile);
const relay = await startRelay();
after(() => relay.close());
const svc = await startTestService({ env: { SMTP_URL: relay.url, SIGNUP_ENABLED: 'true', SIGNUP_LIMIT_PER_IP: '1000' } });
const db = svc.services.db;
const env = { ...process.env, DATABASE_URL: svc.databaseUrl, DATA_DIR: svc.config.dataDir, LOG_LEVEL: 'silent' };

let seq = 0;
const newEmail = () => `claimer.${++seq}.${Date.now()}@people.example`;
const consoleToken = async (email: string) => {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bin/agent-inbox.ts', 'console-token', '--email', email, '--json'], { env });
  return JSON.parse(stdout).console_token as string;
};
const membershipCount = async (orgId: string) => (await db.query('SELECT count(*)::int AS n FROM memberships WHERE org_id = $1', [orgId])).rows[0].n as number;

/** A token of the development provider's own key with the claims given (no email_verified unless said). */
async function devToken(claims: Record<string, unknown>): Promise<string> {
  const stored = JSON.parse(await fs.readFile(path.join(svc.config.dataDir, 'console-signing-key.json'), 'utf8'));
  const key = await jose.importJWK(stored.private, 'ES256');
  return new jose.SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', kid: stored.public.kid })
    .setIssuer('agent-inbox-dev')
    .setAudience('agent-inbox-console')
    .setSubject(`user:${String(claims.email)}`)
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(key);
}

test('console-token marks its email verified', async () => {
  const token = await consoleToken('Someone@People.Example');
  const claims = jose.decodeJwt(token);
  assert.equal(claims.email, 'someone@people.example');
  assert.equal(claims.email_verified, true);
});

test('the person with the verified email lists the sign-up, claims it, becomes owner and sees the agent; claiming again answers the same', async () => {
  const email = newEmail();
  const s = await signUpAndVerify(svc, relay, email, 'finder');
  const token = await consoleToken(email.toUpperCase());

  const list = await svc.api.get('/v1/admin/claims', token);
  assert.equal(list.status, 200, list.text);
  assert.equal(list.body.items.length, 1);
  const offered = list.body.items[0];
  assert.equal(offered.org_id, s.org_id);
  assert.equal(offered.agent_id, s.agent_id);
  assert.equal(offered.agent_handle, 'finder');
  assert.equal(offered.inbox_address, s.inbox_address);
  assert.match(offered.signup_id, /^sgn_/);

  // Before the claim the org is out of the person's reach.
  assert.equal((await svc.api.get(`/v1/admin/orgs/${s.org_id}`, token)).status, 404);
  const claimed = await svc.api.post('/v1/admin/claims', { signup_id: offered.signup_id }, token);
  assert.equal(claimed.status, 201, claimed.text);
  assert.equal(claimed.body.role, 'owner');
  assert.equal(claimed.body.org_id, s.org_id);
  const agents = await svc.api.get(`/v1/admin/orgs/${s.org_id}/projects/${s.project_id}/agents`, token);
  assert.equal(agents.status, 200);
  assert.deepEqual(agents.body.items.map((a: any) => a.id), [s.agent_id]);
  const roles = await db.query('SELECT m.role, m.project_id FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.org_id = $1 AND u.email = $2', [s.org_id, email]);
  assert.deepEqual(roles.rows, [{ role: 'owner', project_id: null }]);

  const again = await svc.api.post('/v1/admin/claims', { signup_id: offered.signup_id }, token);
  assert.equal(again.status, 200);
  assert.deepEqual(again.body, claimed.body);
  assert.equal(await membershipCount(s.org_id), 1);
  assert.deepEqual((await svc.api.get('/v1/admin/claims', token)).body.items, [], 'a claimed sign-up is not offered again');
});

test('another email is 403 and nothing changes; an unverified session email is 403 too', async () => {
  const email = newEmail();
  const s = await signUpAndVerify(svc, relay, email);
  const { rows } = await db.query('SELECT id FROM signups WHERE email = $1', [email]);
  const signupId = rows[0].id;

  const stranger = await consoleToken(newEmail());
  assert.deepEqual((await svc.api.get('/v1/admin/claims', stranger)).body.items, [], 'another email is offered nothing');
  const refused = await svc.api.post('/v1/admin/claims', { signup_id: signupId }, stranger);
  assert.equal(refused.status, 403);
  assert.equal(refused.body.error, 'forbidden');

  // The right email, but the identity provider did not say it is verified.
  const unverified = await devToken({ email });
  assert.equal((await svc.api.get('/v1/admin/claims', unverified)).status, 403);
  const notVouched = await svc.api.post('/v1/admin/claims', { signup_id: signupId }, unverified);
  assert.equal(notVouched.status, 403);
  assert.match(notVouched.body.message, /email_verified/);
  const falseClaim = await svc.api.post('/v1/admin/claims', { signup_id: signupId }, await devToken({ email, email_verified: false }));
  assert.equal(falseClaim.status, 401, 'a token saying the email is not verified is no session at all');

  assert.equal(await membershipCount(s.org_id), 0);
  assert.equal((await db.query('SELECT claimed_at FROM signups WHERE id = $1', [signupId])).rows[0].claimed_at, null);
  // The owner-to-be still can.
  assert.equal((await svc.api.post('/v1/admin/claims', { signup_id: signupId }, await consoleToken(email))).status, 201);
});

test('a sign-up not verified yet cannot be claimed (409) and is not listed; an unknown id is 404', async () => {
  const email = newEmail();
  const r = await svc.api.post('/v1/agent/sign-up', { email });
  assert.equal(r.status, 201);
  const token = await consoleToken(email);
  assert.deepEqual((await svc.api.get('/v1/admin/claims', token)).body.items, []);
  const { rows } = await db.query('SELECT id, org_id FROM signups WHERE email = $1', [email]);
  const early = await svc.api.post('/v1/admin/claims', { signup_id: rows[0].id }, token);
  assert.equal(early.status, 409);
  assert.equal(await membershipCount(rows[0].org_id), 0);
  const unknown = await svc.api.post('/v1/admin/claims', { signup_id: 'sgn_nothing' }, token);
  assert.equal(unknown.status, 404);
  const bad = await svc.api.post('/v1/admin/claims', { signup: rows[0].id }, token);
  assert.equal(bad.status, 400);
});
