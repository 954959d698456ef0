// Members and invitations on the console plane: an invitation's token is shown once and mailed as
// system mail (through a real relay on loopback), accepting binds to the caller's verified email,
// and an org always keeps an owner.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { after, test } from '../../testkit/test.ts';
import * as jose from 'jose';
import { createLogger } from '../../service/logger.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
import { startRelay } from '../../testkit/relay.ts';

const logLines: string[] = [];
const sink = new PassThrough();
sink.on('data', (chunk: Buffer) => logLines.push(chunk.toString('utf8')));
const relay = await startRelay();
after(() => relay.close());
const svc = await startTestService({ env: { SMTP_URL: relay.url, SYSTEM_FROM: 'team@agents.test' }, log: createLogger('debug', sink) });
const db = svc.services.db;
const token = (email: string) => svc.services.identity.mint!(email);

let seq = 0;
const newEmail = () => `invitee.${++seq}.${Date.now()}@people.example`;

async function invite(t: { orgId: string; consoleToken: string }, body: Record<string, unknown>) {
  return svc.api.post(`/v1/admin/orgs/${t.orgId}/invitations`, body, t.consoleToken);
}
const accept = (tok: string, as: string) => svc.api.post('/v1/admin/invitations/accept', { token: tok }, as);
const roleOf = async (orgId: string, email: string) =>
  (await db.query('SELECT m.role FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.org_id = $1 AND u.email = $2 AND m.project_id IS NULL', [orgId, email])).rows[0]?.role ?? null;

test('an owner invites by email: the token is shown once and mailed; the invitee accepts, accepting again answers the same', async () => {
  const t = await createTenant(svc);
  const email = newEmail();
  const r = await invite(t, { email: email.toUpperCase(), role: 'admin' });
  assert.equal(r.status, 201, r.text);
  assert.match(r.body.token, /^pk_invite_[0-9a-z]+_[0-9a-z]+$/);
  assert.equal(r.body.email, email);
  assert.equal(r.body.role, 'admin');
  assert.equal(r.body.status, 'pending');
  assert.equal(r.body.mailed, true);
  assert.equal(r.body.invited_by, t.email);
  const days = (Date.parse(r.body.expires_at) - Date.now()) / 86_400_000;
  assert.ok(days > 6.9 && days <= 7, `expires in 7 days, got ${days}`);

  const mail = await waitFor(() => relay.received.find((m) => m.to.includes(email)), 'the invitation mail');
  assert.equal(mail.from, 'team@agents.test');
  assert.ok(mail.mail.text?.includes(r.body.token), 'the mail carries the token');
  const stored = await db.query('SELECT token_hash FROM invitations WHERE id = $1', [r.body.id]);
  assert.equal(stored.rows[0].token_hash.length, 32, 'only a digest is stored');
  const list = await svc.api.get(`/v1/admin/orgs/${t.orgId}/invitations`, t.consoleToken);
  assert.equal(list.status, 200);
  assert.deepEqual(list.body.items.map((i: any) => i.id), [r.body.id]);
  assert.ok(!list.text.includes(r.body.token), 'the list does not show the token');
  assert.equal((await db.query('SELECT count(*)::int AS n FROM reviews')).rows[0].n, 0, 'not through the Review Loop');

  const invitee = await token(email);
  const ok = await accept(r.body.token, invitee);
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.body.org_id, t.orgId);
  assert.equal(ok.body.role, 'admin');
  assert.equal(ok.body.invitation.status, 'accepted');
  assert.equal((await svc.api.get(`/v1/admin/orgs/${t.orgId}`, invitee)).status, 200, 'the invitee now reaches the org');
  const again = await accept(r.body.token, invitee);
  assert.equal(again.status, 200);
  assert.deepEqual(again.body, ok.body);
  const members = await svc.api.get(`/v1/admin/orgs/${t.orgId}/members`, invitee);
  assert.deepEqual(members.body.items.map((m: any) => [m.email, m.role, m.project_id]), [[t.email, 'owner', null], [email, 'admin', null]]);
  assert.ok(!logLines.join('').includes(r.body.token), 'the token is in no log line');
});

test('an invitation accepted by another email is 403 and changes nothing; an unverified session email is 403 too', async () => {
  const t = await createTenant(svc);
  const email = newEmail();
  const r = await invite(t, { email });
  const other = newEmail();
  const wrong = await accept(r.body.token, await token(other));
  assert.equal(wrong.status, 403);
  assert.equal(wrong.body.error, 'forbidden');
  assert.equal(await roleOf(t.orgId, other), null);
  assert.equal((await db.query('SELECT accepted_at FROM invitations WHERE id = $1', [r.body.id])).rows[0].accepted_at, null);

  const stored = JSON.parse(await fs.readFile(path.join(svc.config.dataDir, 'console-signing-key.json'), 'utf8'));
  const unverified = await new jose.SignJWT({ email })
    .setProtectedHeader({ alg: 'ES256', kid: stored.public.kid })
    .setIssuer('agent-inbox-dev').setAudience('agent-inbox-console').setSubject(`user:${email}`).setIssuedAt().setExpirationTime('10m')
    .sign(await jose.importJWK(stored.private, 'ES256'));
  assert.equal((await accept(r.body.token, unverified)).status, 403);
  assert.equal(await roleOf(t.orgId, email), null);

  assert.equal((await accept(r.body.token.slice(0, -2) + 'zz', await token(email))).status, 404, 'a wrong secret is no invitation');
  assert.equal((await accept(r.body.token, await token(email))).body.role, 'member', 'the role defaults to member');
});

test('expired and revoked invitations are refused with 409', async () => {
  const t = await createTenant(svc);
  const email = newEmail();
  const expired = await invite(t, { email, expires_in_hours: 1 });
  await db.query("UPDATE invitations SET expires_at = now() - interval '1 second' WHERE id = $1", [expired.body.id]);
  const late = await accept(expired.body.token, await token(email));
  assert.equal(late.status, 409);
  assert.match(late.body.message, /expired/);

  const revoked = await invite(t, { email });
  assert.equal((await svc.api.del(`/v1/admin/orgs/${t.orgId}/invitations/${revoked.body.id}`, t.consoleToken)).status, 204);
  assert.equal((await accept(revoked.body.token, await token(email))).status, 409);
  assert.equal(await roleOf(t.orgId, email), null);
  const list = await svc.api.get(`/v1/admin/orgs/${t.orgId}/invitations`, t.consoleToken);
  assert.deepEqual(list.body.items.map((i: any) => i.status), ['revoked', 'expired']);
});

test('only owners hand out ownership; members cannot invite; accepting never lowers a role held', async () => {
  const t = await createTenant(svc);
  const adminEmail = newEmail();
  const a = await invite(t, { email: adminEmail, role: 'admin' });
  const admin = await token(adminEmail);
  await accept(a.body.token, admin);
  const byAdmin = await invite({ orgId: t.orgId, consoleToken: admin }, { email: newEmail(), role: 'owner' });
  assert.equal(byAdmin.status, 403);
  const memberEmail = newEmail();
  assert.equal((await invite({ orgId: t.orgId, consoleToken: admin }, { email: memberEmail })).status, 201, 'an admin invites members');
  const m = await invite(t, { email: memberEmail, role: 'member' });
  const member = await token(memberEmail);
  await accept(m.body.token, member);
  assert.equal((await invite({ orgId: t.orgId, consoleToken: member }, { email: newEmail() })).status, 403);

  const lower = await invite(t, { email: t.email, role: 'viewer' });
  const kept = await accept(lower.body.token, t.consoleToken);
  assert.equal(kept.body.role, 'owner');
  assert.equal(await roleOf(t.orgId, t.email), 'owner');
  const bad = await invite(t, { email: 'not an address', role: 'chief' });
  assert.equal(bad.status, 400);
});

test('the last owner can be neither removed nor demoted; roles change and members leave by owners and admins', async () => {
  const t = await createTenant(svc);
  const members = async () => (await svc.api.get(`/v1/admin/orgs/${t.orgId}/members`, t.consoleToken)).body.items as any[];
  const ownerId = (await members())[0].user_id;
  const removeOwner = await svc.api.del(`/v1/admin/orgs/${t.orgId}/members/${ownerId}`, t.consoleToken);
  assert.equal(removeOwner.status, 409);
  assert.match(removeOwner.body.message, /last owner/);
  assert.equal((await svc.api.patch(`/v1/admin/orgs/${t.orgId}/members/${ownerId}`, { role: 'admin' }, t.consoleToken)).status, 409);
  assert.equal(await roleOf(t.orgId, t.email), 'owner');

  const adminEmail = newEmail();
  await accept((await invite(t, { email: adminEmail, role: 'admin' })).body.token, await token(adminEmail));
  const admin = await token(adminEmail);
  assert.equal((await svc.api.del(`/v1/admin/orgs/${t.orgId}/members/${ownerId}`, admin)).status, 403, 'an admin may not remove an owner');
  const memberEmail = newEmail();
  await accept((await invite(t, { email: memberEmail })).body.token, await token(memberEmail));
  const memberId = (await members()).find((m) => m.email === memberEmail).user_id;
  const changed = await svc.api.patch(`/v1/admin/orgs/${t.orgId}/members/${memberId}`, { role: 'viewer' }, admin);
  assert.equal(changed.status, 200, changed.text);
  assert.equal(changed.body.items.find((m: any) => m.user_id === memberId).role, 'viewer');
  assert.equal((await svc.api.patch(`/v1/admin/orgs/${t.orgId}/members/${memberId}`, { role: 'owner' }, admin)).status, 403);

  // A second owner: now the first may go.
  const adminId = (await members()).find((m) => m.email === adminEmail).user_id;
  assert.equal((await svc.api.patch(`/v1/admin/orgs/${t.orgId}/members/${adminId}`, { role: 'owner' }, t.consoleToken)).status, 200);
  assert.equal((await svc.api.del(`/v1/admin/orgs/${t.orgId}/members/${ownerId}`, admin)).status, 204);
  assert.equal((await svc.api.get(`/v1/admin/orgs/${t.orgId}`, t.consoleToken)).status, 404, 'the removed owner no longer reaches the org');
  assert.equal((await svc.api.del(`/v1/admin/orgs/${t.orgId}/members/${adminId}`, admin)).status, 409, 'the new last owner stays');
  assert.equal((await svc.api.del(`/v1/admin/orgs/${t.orgId}/members/usr_nobody`, admin)).status, 404);
});

test('two owners removing each other at once leave one owner', async () => {
  const t = await createTenant(svc);
  const secondEmail = newEmail();
  await accept((await invite(t, { email: secondEmail, role: 'owner' })).body.token, await token(secondEmail));
  const second = await token(secondEmail);
  const items = (await svc.api.get(`/v1/admin/orgs/${t.orgId}/members`, t.consoleToken)).body.items as any[];
  const [a, b] = [items.find((m) => m.email === t.email).user_id, items.find((m) => m.email === secondEmail).user_id];
  const results = await Promise.all([svc.api.del(`/v1/admin/orgs/${t.orgId}/members/${b}`, t.consoleToken), svc.api.del(`/v1/admin/orgs/${t.orgId}/members/${a}`, second)]);
  const statuses = results.map((r) => r.status).sort();
  assert.equal(statuses[0], 204);
  // The other is refused: as the last owner (409), or because its caller was already removed (404).
  assert.ok([404, 409].includes(statuses[1]!), `the other is refused, got ${statuses[1]}`);
  assert.equal((await db.query("SELECT count(*)::int AS n FROM memberships WHERE org_id = $1 AND role = 'owner'", [t.orgId])).rows[0].n, 1);
});

test('the relay down: the invitation stands with mailed false, and its token works', async () => {
  const t = await createTenant(svc);
  const email = newEmail();
  relay.mode = 'refuse';
  const r = await invite(t, { email });
  relay.mode = 'accept';
  assert.equal(r.status, 201);
  assert.equal(r.body.mailed, false);
  assert.equal((await accept(r.body.token, await token(email))).status, 200);
});

test('a resend mints a fresh token and mails it: the old token stops working, an expired invitation lives again, an accepted or revoked one is 409', async () => {
  const t = await createTenant(svc);
  const email = newEmail();
  const first = await invite(t, { email, expires_in_hours: 1 });
  await db.query("UPDATE invitations SET expires_at = now() - interval '1 second' WHERE id = $1", [first.body.id]);
  const resend = (id: string, as = t.consoleToken) => svc.api.post(`/v1/admin/orgs/${t.orgId}/invitations/${id}/resend`, undefined, as);
  const r = await resend(first.body.id);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.id, first.body.id, 'the same invitation');
  assert.equal(r.body.status, 'pending');
  assert.equal(r.body.mailed, true);
  assert.notEqual(r.body.token, first.body.token);
  const days = (Date.parse(r.body.expires_at) - Date.now()) / 86_400_000;
  assert.ok(days > 6.9 && days <= 7, `expires in 7 days again, got ${days}`);
  const mails = await waitFor(() => {
    const to = relay.received.filter((m) => m.to.includes(email));
    return to.length === 2 ? to : null;
  }, 'the second invitation mail');
  assert.ok(mails[1]!.mail.text?.includes(r.body.token), 'the new mail carries the new token');

  const invitee = await token(email);
  assert.equal((await accept(first.body.token, invitee)).status, 404, 'the old token no longer works');
  assert.equal((await accept(r.body.token, invitee)).status, 200);
  const done = await resend(first.body.id);
  assert.equal(done.status, 409);
  assert.equal(done.body.error, 'conflict');
  assert.match(done.body.message, /accepted/);

  const revoked = await invite(t, { email: newEmail() });
  await svc.api.del(`/v1/admin/orgs/${t.orgId}/invitations/${revoked.body.id}`, t.consoleToken);
  const again = await resend(revoked.body.id);
  assert.equal(again.status, 409);
  assert.match(again.body.message, /revoked/);
  assert.equal((await resend('inv_nosuch')).status, 404);
  const stranger = await createTenant(svc);
  const foreign = await invite(stranger, { email: newEmail() });
  assert.equal((await resend(foreign.body.id)).status, 404, 'another org\'s invitation is not found here');
});

test('only an owner resends an invitation to the owner role; a member may not resend at all', async () => {
  const t = await createTenant(svc);
  const adminEmail = newEmail();
  const a = await invite(t, { email: adminEmail, role: 'admin' });
  const admin = await token(adminEmail);
  await accept(a.body.token, admin);
  const owner = await invite(t, { email: newEmail(), role: 'owner' });
  const url = `/v1/admin/orgs/${t.orgId}/invitations/${owner.body.id}/resend`;
  assert.equal((await svc.api.post(url, undefined, admin)).status, 403);
  const stored = await db.query('SELECT token_hash FROM invitations WHERE id = $1', [owner.body.id]);
  const memberEmail = newEmail();
  const m = await invite(t, { email: memberEmail, role: 'member' });
  const member = await token(memberEmail);
  await accept(m.body.token, member);
  const pending = await invite(t, { email: newEmail() });
  assert.equal((await svc.api.post(`/v1/admin/orgs/${t.orgId}/invitations/${pending.body.id}/resend`, undefined, member)).status, 403);
  assert.deepEqual((await db.query('SELECT token_hash FROM invitations WHERE id = $1', [owner.body.id])).rows, stored.rows, 'the refused resend changed nothing');
  assert.equal((await svc.api.post(url, undefined, t.consoleToken)).status, 200);
});
