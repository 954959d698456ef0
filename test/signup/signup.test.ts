// Self-signup over real HTTP, a real SMTP relay on loopback and the real workers: the code is
// read from the mail the relay received, never from a response or a log line.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { after, test } from '../../testkit/test.ts';
import { expireSignupCode } from '../../actors/signup.ts';
import { createLogger } from '../../service/logger.ts';
import { sendMail } from '../../testkit/mail.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
import { startRelay } from '../../testkit/relay.ts';
import { INTENT, agentWithInbox, setPolicy } from '../reviews/setup.ts';
import { signUpAndVerify } from './helpers.ts';

const logLines: string[] = [];
const sink = new PassThrough();
sink.on('data', (chunk: Buffer) => logLines.push(chunk.toString('utf8')));

const relay = await startRelay();
after(() => relay.close());
const svc = await startTestService({
  env: { SMTP_URL: relay.url, SIGNUP_ENABLED: 'true', FREE_INBOX_DOMAIN: 'free.test', SYSTEM_FROM: 'codes@agents.test', SIGNUP_LIMIT_PER_IP: '1000' },
  log: createLogger('debug', sink),
});
const db = svc.services.db;
const count = async (sql: string, values: unknown[] = []) => (await db.query(sql, values)).rows[0].n as number;

let seq = 0;
const newEmail = () => `Person.${++seq}.${Date.now()}@Example.com`;

/** The code in the last mail the relay received for `email`. */
async function codeFor(email: string, after = 0): Promise<string> {
  const mail = await waitFor(() => relay.received.filter((r) => r.to.includes(email.toLowerCase())).slice(after).at(-1), `a code mail for ${email}`);
  const m = /verification code is (\d{6})/.exec(mail.mail.text ?? '');
  assert.ok(m, 'the mail carries a 6-digit code');
  return m[1]!;
}
const mailsTo = (email: string) => relay.received.filter((r) => r.to.includes(email.toLowerCase())).length;
const wrongOf = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

test('signup-status answers the gate', async () => {
  const r = await svc.api.get('/v1/signup-status');
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, { enabled: true });
});

test('sign-up mails a code through the relay, answers a temporary key that only verifies, and verify returns the durable key, the inbox and the quickstart calls', async () => {
  const email = newEmail();
  const r = await svc.api.post('/v1/agent/sign-up', { email, agent_handle: 'scout', display_name: 'Scout' });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(Object.keys(r.body).sort(), ['agent_id', 'expires_at', 'inbox_address', 'temporary_key']);
  assert.match(r.body.inbox_address, /^scout-[0-9a-z]+@free\.test$/);
  assert.match(r.body.temporary_key, /^pk_agent_/);
  const ttl = Date.parse(r.body.expires_at) - Date.now();
  assert.ok(ttl > 14 * 60_000 && ttl <= 15 * 60_000, `expires in 15 minutes, got ${ttl} ms`);

  const code = await codeFor(email);
  const mail = relay.received.at(-1)!;
  assert.equal(mail.from, 'codes@agents.test');
  assert.equal(mail.mail.from?.value[0]?.address, 'codes@agents.test');
  assert.ok(!r.text.includes(code), 'the code is not in the response');
  const stored = await db.query('SELECT code_hash, email FROM signups WHERE agent_id = $1', [r.body.agent_id]);
  assert.equal(stored.rows[0].email, email.toLowerCase());
  assert.ok(!stored.rows[0].code_hash.toString('utf8').includes(code) && stored.rows[0].code_hash.length === 32, 'only a hash is stored');
  assert.equal((await db.query("SELECT status FROM inboxes WHERE address = $1", [r.body.inbox_address])).rows[0].status, 'pending');
  assert.equal(await count('SELECT count(*)::int AS n FROM reviews WHERE agent_id = $1', [r.body.agent_id]), 0, 'not through the Review Loop');

  const temp = r.body.temporary_key;
  for (const [method, path, body] of [
    ['GET', '/v1/auth/me', undefined],
    ['GET', '/v1/inboxes', undefined],
    ['POST', '/v1/inboxes', {}],
  ] as const) {
    const refused = await svc.api.request(method, path, { token: temp, body });
    assert.equal(refused.status, 403, `${method} ${path}`);
    assert.equal(refused.body.code, 'forbidden_scope');
  }

  const v = await svc.api.post('/v1/agent/verify', { code }, temp);
  assert.equal(v.status, 200, v.text);
  assert.match(v.body.agent_key, /^pk_agent_/);
  assert.equal(v.body.inbox_address, r.body.inbox_address);
  assert.equal(v.body.agent_id, r.body.agent_id);
  const inbox = v.body.inbox_id;
  assert.deepEqual(v.body.quickstart, [
    { name: 'read_messages', method: 'GET', path: `/v1/inboxes/${inbox}/messages` },
    { name: 'get_message', method: 'GET', path: '/v1/messages/{message_id}' },
    { name: 'wait_for_email', method: 'POST', path: `/v1/inboxes/${inbox}/wait` },
  ]);
  assert.equal((await db.query('SELECT status FROM inboxes WHERE id = $1', [inbox])).rows[0].status, 'active');
  const machine = await db.query("SELECT state FROM machine_instances WHERE kind = 'signup' AND agent_id = $1", [r.body.agent_id]);
  assert.equal(machine.rows[0].state, 'verified');

  // The temporary key is spent; replaying the same verification answers the same.
  assert.equal((await svc.api.get('/v1/auth/me', temp)).status, 401);
  const replay = await svc.api.post('/v1/agent/verify', { code }, temp);
  assert.equal(replay.status, 200);
  assert.deepEqual(replay.body, v.body);
  assert.equal(await count("SELECT count(*)::int AS n FROM api_keys WHERE agent_id = $1 AND kind = 'agent'", [r.body.agent_id]), 1, 'one durable key');
  const otherCode = await svc.api.post('/v1/agent/verify', { code: wrongOf(code) }, temp);
  assert.equal(otherCode.status, 401);

  // The durable key works: a mail to the new inbox is read with the quickstart calls.
  const key = v.body.agent_key;
  const me = await svc.api.get('/v1/auth/me', key);
  assert.equal(me.status, 200);
  assert.deepEqual(me.body.permissions, ['mailbox:create', 'mailbox:read', 'mailbox:send', 'webhook:write', 'commerce:request', 'support:submit']);
  const since = new Date(Date.now() - 1000).toISOString();
  await sendMail(svc, { from: 'friend@example.com', to: v.body.inbox_address, subject: 'Welcome', text: 'Hello new agent' });
  const waited = await svc.api.request('POST', v.body.quickstart[2].path, { token: key, body: { timeout_seconds: 10, since } });
  assert.equal(waited.status, 200, waited.text);
  assert.equal(waited.body.message.subject, 'Welcome');
  const list = await svc.api.get(v.body.quickstart[0].path, key);
  assert.equal(list.body.data.length, 1);
  const one = await svc.api.get(v.body.quickstart[1].path.replace('{message_id}', list.body.data[0].id), key);
  assert.equal(one.status, 200);
  assert.match(one.body.text ?? one.body.extracted_text ?? '', /Hello new agent/);

  assert.ok(!logLines.join('').includes(code), 'the code is in no log line');
});

test("a signed-up org's next inboxes are on the free domain too, its default_domain; the service's domain stays open by name", async () => {
  const v = await signUpAndVerify(svc, relay, newEmail(), 'spread');
  assert.match(v.inbox_address, /@free\.test$/);
  const next = await svc.api.post('/v1/inboxes', {}, v.agent_key);
  assert.equal(next.status, 201, next.text);
  assert.match(next.body.address, /@free\.test$/);
  const named = await svc.api.post('/v1/inboxes', { domain: 'agents.test' }, v.agent_key);
  assert.equal(named.status, 201, named.text);
  assert.match(named.body.address, /@agents\.test$/);
  const { rows } = await db.query("SELECT settings->>'default_domain' AS default_domain FROM orgs WHERE id = $1", [v.org_id]);
  assert.deepEqual(rows, [{ default_domain: 'free.test' }]);
});

test('a send from another agent to a pending inbox waits as SMTP mail does (450, nothing stored) and lands once the sign-up is verified', async () => {
  const email = newEmail();
  const r = await svc.api.post('/v1/agent/sign-up', { email, agent_handle: 'late' });
  assert.equal(r.status, 201, r.text);
  const sender = await agentWithInbox(svc, await createTenant(svc));
  await setPolicy(sender, 'allow_direct');
  const sent = await sender.send({ to: r.body.inbox_address, subject: 'Before you verify', text: 'Hello early.', intent: INTENT });
  assert.equal(sent.status, 202, sent.text);
  const id = sent.body.review_id as string;

  const deferred = await waitFor(async () => {
    const { rows } = await db.query('SELECT phase, last_error FROM review_deliveries WHERE review_id = $1', [id]);
    return rows[0]?.phase === 'deferred' ? rows[0] : null;
  }, 'the delivery to be deferred');
  assert.match(deferred.last_error, new RegExp(`^450 4\\.2\\.1 ${r.body.inbox_address}: the inbox is not active yet`));
  assert.equal((await sender.review(id)).body.state, 'sending_auto');
  const stored = () => count('SELECT count(*)::int AS n FROM messages m JOIN inboxes i ON i.id = m.inbox_id WHERE i.address = $1', [r.body.inbox_address]);
  assert.equal(await stored(), 0, 'nothing is stored in the pending inbox');

  const v = await svc.api.post('/v1/agent/verify', { code: await codeFor(email) }, r.body.temporary_key);
  assert.equal(v.status, 200, v.text);
  await sender.until(id, 'auto_sent', 30_000);
  const list = await svc.api.get(`/v1/inboxes/${v.body.inbox_id}/messages`, v.body.agent_key);
  assert.equal(list.status, 200, list.text);
  assert.deepEqual(list.body.data.map((m: { subject: string }) => m.subject), ['Before you verify']);
});

test('a wrong code counts a try; the fifth locks the sign-up and its key, even for the right code; a re-signup starts over', async () => {
  const email = newEmail();
  const r = await svc.api.post('/v1/agent/sign-up', { email });
  assert.equal(r.status, 201);
  const code = await codeFor(email);
  for (let i = 1; i <= 4; i++) {
    const w = await svc.api.post('/v1/agent/verify', { code: wrongOf(code) }, r.body.temporary_key);
    assert.equal(w.status, 400);
    assert.equal(w.body.code, 'bad_request');
    assert.deepEqual(w.body.errors[0], { field: 'code', code: 'wrong_code' });
    assert.equal(w.body.tries_left, 5 - i);
  }
  const fifth = await svc.api.post('/v1/agent/verify', { code: wrongOf(code) }, r.body.temporary_key);
  assert.equal(fifth.status, 409);
  assert.deepEqual(fifth.body.errors[0], { field: 'code', code: 'locked' });
  const right = await svc.api.post('/v1/agent/verify', { code }, r.body.temporary_key);
  assert.equal(right.status, 409, 'locked: the right code no longer verifies');
  assert.equal(await count("SELECT count(*)::int AS n FROM api_keys WHERE agent_id = $1 AND kind = 'agent'", [r.body.agent_id]), 0);
  assert.equal((await db.query("SELECT state FROM machine_instances WHERE kind = 'signup' AND agent_id = $1", [r.body.agent_id])).rows[0].state, 'locked');

  const again = await svc.api.post('/v1/agent/sign-up', { email });
  assert.equal(again.status, 200);
  assert.equal(again.body.agent_id, r.body.agent_id);
  const fresh = await codeFor(email, 1);
  const ok = await svc.api.post('/v1/agent/verify', { code: fresh }, again.body.temporary_key);
  assert.equal(ok.status, 200, ok.text);
});

test('an expired code is refused, and the timer job expires the sign-up and revokes its key', async () => {
  const email = newEmail();
  const r = await svc.api.post('/v1/agent/sign-up', { email });
  const code = await codeFor(email);
  // The code's 15 minutes pass: its stored expiry is moved into the past.
  await db.query("UPDATE signups SET code_expires_at = now() - interval '1 second' WHERE agent_id = $1", [r.body.agent_id]);
  const v = await svc.api.post('/v1/agent/verify', { code }, r.body.temporary_key);
  assert.equal(v.status, 401);
  assert.deepEqual(v.body.errors[0], { field: 'code', code: 'expired' });
  assert.equal((await db.query("SELECT state FROM machine_instances WHERE kind = 'signup' AND agent_id = $1", [r.body.agent_id])).rows[0].state, 'expired');
  assert.equal(await count("SELECT count(*)::int AS n FROM api_keys WHERE agent_id = $1 AND kind = 'agent'", [r.body.agent_id]), 0);

  // The timer: armed as a pg-boss job at sign-up, it expires a pending sign-up when it fires.
  const email2 = newEmail();
  const r2 = await svc.api.post('/v1/agent/sign-up', { email: email2 });
  const job = await db.query("SELECT data, start_after - created_on AS delay FROM pgboss.job WHERE name = 'signup-code-expiry' AND data->>'org_id' = (SELECT org_id FROM signups WHERE agent_id = $1)", [r2.body.agent_id]);
  assert.equal(job.rows.length, 1);
  assert.equal(job.rows[0].delay.minutes, 15);
  const data = job.rows[0].data;
  assert.equal(await expireSignupCode(svc.services, data), 'expired');
  assert.equal(await expireSignupCode(svc.services, data), 'stale', 'running the job twice changes nothing');
  const after = await svc.api.post('/v1/agent/verify', { code: await codeFor(email2) }, r2.body.temporary_key);
  assert.equal(after.status, 401);
  assert.equal((await svc.api.get('/v1/auth/me', r2.body.temporary_key)).status, 401);
});

test('signing up again while pending rotates the temporary key (the old one is 401) and the code; the old code no longer verifies', async () => {
  const email = newEmail();
  const first = await svc.api.post('/v1/agent/sign-up', { email });
  const oldCode = await codeFor(email);
  const second = await svc.api.post('/v1/agent/sign-up', { email: email.toUpperCase() });
  assert.equal(second.status, 200);
  assert.equal(second.body.agent_id, first.body.agent_id);
  assert.equal(second.body.inbox_address, first.body.inbox_address);
  assert.notEqual(second.body.temporary_key, first.body.temporary_key);
  const newCode = await codeFor(email, 1);
  assert.equal(mailsTo(email), 2);
  const old = await svc.api.post('/v1/agent/verify', { code: oldCode }, first.body.temporary_key);
  assert.equal(old.status, 401, 'the old key is revoked');
  if (oldCode !== newCode) {
    const stale = await svc.api.post('/v1/agent/verify', { code: oldCode }, second.body.temporary_key);
    assert.equal(stale.status, 400, 'the old code is not the current one');
  }
  const ok = await svc.api.post('/v1/agent/verify', { code: newCode }, second.body.temporary_key);
  assert.equal(ok.status, 200);
  // The first code's timer was superseded: when it fires it does nothing.
  const jobs = await db.query("SELECT data FROM pgboss.job WHERE name = 'signup-code-expiry' AND data->>'org_id' = (SELECT org_id FROM signups WHERE agent_id = $1) ORDER BY created_on", [first.body.agent_id]);
  assert.equal(jobs.rows.length, 2);
  assert.equal(await expireSignupCode(svc.services, jobs.rows[0].data), 'stale');
});

test('the relay down during sign-up answers otp_send_failed and leaves the sign-up pending; a retry once it is back sends a code that verifies', async () => {
  const email = newEmail();
  relay.mode = 'refuse';
  const failed = await svc.api.post('/v1/agent/sign-up', { email });
  relay.mode = 'accept';
  assert.equal(failed.status, 502);
  assert.equal(failed.body.error, 'otp_send_failed');
  assert.equal(typeof failed.body.message, 'string');
  const row = await db.query("SELECT m.state, m.snapshot FROM machine_instances m JOIN signups s ON s.id = m.id WHERE s.email = $1", [email.toLowerCase()]);
  assert.equal(row.rows[0].state, 'pending_verification');
  assert.equal(row.rows[0].snapshot.context.code_sent, false);
  assert.equal(mailsTo(email), 0);

  const retry = await svc.api.post('/v1/agent/sign-up', { email });
  assert.equal(retry.status, 200);
  const ok = await svc.api.post('/v1/agent/verify', { code: await codeFor(email) }, retry.body.temporary_key);
  assert.equal(ok.status, 200);
});

test('a code for an address hosted here is delivered internally, into that inbox', async () => {
  const tenant = await createTenant(svc);
  const agent = await tenant.enroll();
  const inbox = await svc.api.post('/v1/inboxes', {}, agent.agentKey);
  const before = relay.received.length;
  const since = new Date(Date.now() - 1000).toISOString();
  const r = await svc.api.post('/v1/agent/sign-up', { email: inbox.body.address });
  assert.equal(r.status, 201);
  const waited = await svc.api.post(`/v1/inboxes/${inbox.body.id}/wait`, { timeout_seconds: 10, extract: 'code', since }, agent.agentKey);
  assert.equal(waited.body.message.from.email, 'codes@agents.test');
  assert.match(waited.body.code, /^\d{6}$/);
  assert.equal(relay.received.length, before, 'nothing went to the relay');
  const v = await svc.api.post('/v1/agent/verify', { code: waited.body.code }, r.body.temporary_key);
  assert.equal(v.status, 200);
});

test('sign-up validates its body, naming the field', async () => {
  const bad = await svc.api.post('/v1/agent/sign-up', { email: 'not-an-address' });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.errors[0].field, 'email');
  const extra = await svc.api.post('/v1/agent/sign-up', { email: newEmail(), plan: 'enterprise' });
  assert.equal(extra.status, 400);
  const code = await svc.api.post('/v1/agent/verify', { code: '12ab' }, 'pk_agent_x_y');
  assert.equal(code.status, 401, 'the key is checked first');
});

test('two first sign-ups of one address at once make one sign-up: one creates it, the other rotates it', async () => {
  const email = newEmail();
  const [a, b] = await Promise.all([svc.api.post('/v1/agent/sign-up', { email }), svc.api.post('/v1/agent/sign-up', { email })]);
  assert.deepEqual([a.status, b.status].sort(), [200, 201]);
  assert.equal(a.body.agent_id, b.body.agent_id);
  assert.equal(await count('SELECT count(*)::int AS n FROM signups WHERE email = $1', [email.toLowerCase()]), 1);
});

test('a pending inbox refuses inbound SMTP at RCPT TO with 450 4.2.1 and stores nothing; once verified the retry is delivered', async () => {
  const email = newEmail();
  const r = await svc.api.post('/v1/agent/sign-up', { email });
  const code = await codeFor(email);
  const mail = { from: 'early@example.org', to: r.body.inbox_address, subject: 'Too early', text: 'Before verification' };
  await assert.rejects(sendMail(svc, mail), (err: any) => {
    assert.equal(err.responseCode, 450);
    assert.match(err.response, /^450 4\.2\.1 .*not active yet/);
    return true;
  });
  assert.equal(await count('SELECT count(*)::int AS n FROM messages m JOIN inboxes i ON i.org_id = m.org_id AND i.id = m.inbox_id WHERE i.address = $1', [r.body.inbox_address]), 0);

  const v = await svc.api.post('/v1/agent/verify', { code }, r.body.temporary_key);
  assert.equal(v.status, 200);
  const info = await sendMail(svc, mail);
  assert.deepEqual(info.accepted, [r.body.inbox_address]);
  const list = await waitFor(async () => {
    const l = await svc.api.get(`/v1/inboxes/${v.body.inbox_id}/messages`, v.body.agent_key);
    return l.body.data.length === 1 ? l : null;
  }, 'the retried mail');
  assert.equal(list.body.data[0].subject, 'Too early');
});
