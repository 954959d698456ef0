// Contact lists, the suppression list, and the recipient's one-click unsubscribe (RFC 8058).
import assert from 'node:assert/strict';
import { after, test } from '../../testkit/test.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { startRelay } from '../../testkit/relay.ts';
import { INTENT, agentWithInbox } from './setup.ts';

const relay = await startRelay();
after(() => relay.close());
const svc = await startTestService({ env: { SMTP_URL: relay.url } });
const tenant = await createTenant(svc, { plan: 'enterprise' });

test('contacts: add (lower-cased, the same entry once), list, remove; patterns are bare addresses or domains', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const added = await svc.api.post('/v1/contacts', { inbox_id: agent.inboxId, kind: 'block', pattern: 'Spam.Example' }, agent.key);
  assert.equal(added.status, 201);
  assert.match(added.body.id, /^con_/);
  assert.deepEqual([added.body.kind, added.body.pattern, added.body.direction, added.body.inbox_id], ['block', 'spam.example', 'send', agent.inboxId]);
  const again = await svc.api.post('/v1/contacts', { inbox_id: agent.address, kind: 'block', pattern: 'spam.example' }, agent.key);
  assert.equal(again.status, 200);
  assert.equal(again.body.id, added.body.id);
  const allow = await svc.api.post('/v1/contacts', { inbox_id: agent.inboxId, kind: 'allow', pattern: 'dana@acme.example', direction: 'receive' }, agent.key);
  assert.equal(allow.status, 201);

  for (const pattern of ['not a pattern', 'a@b@c', '*.example.com']) {
    const bad = await svc.api.post('/v1/contacts', { inbox_id: agent.inboxId, kind: 'block', pattern }, agent.key);
    assert.equal(bad.status, 400, pattern);
    assert.equal(bad.body.errors[0].field, 'pattern');
  }
  const badKind = await svc.api.post('/v1/contacts', { inbox_id: agent.inboxId, kind: 'mute', pattern: 'x.example' }, agent.key);
  assert.equal(badKind.status, 400);

  const list = await svc.api.get(`/v1/contacts?inbox_id=${agent.inboxId}&limit=1`, agent.key);
  assert.equal(list.status, 200);
  assert.deepEqual(list.body.data.map((c: any) => c.pattern), ['spam.example']);
  const rest = await svc.api.get(`/v1/contacts?inbox_id=${agent.inboxId}&cursor=${list.body.next_cursor}`, agent.key);
  assert.deepEqual(rest.body.data.map((c: any) => c.pattern), ['dana@acme.example']);

  const other = await agentWithInbox(svc, tenant);
  assert.equal((await svc.api.get(`/v1/contacts?inbox_id=${agent.inboxId}`, other.key)).status, 404);
  assert.equal((await svc.api.post('/v1/contacts', { inbox_id: agent.inboxId, kind: 'block', pattern: 'x.example' }, other.key)).status, 404);
  assert.equal((await svc.api.del(`/v1/contacts/${added.body.id}`, other.key)).status, 404);

  assert.equal((await svc.api.del(`/v1/contacts/${added.body.id}`, agent.key)).status, 204);
  assert.equal((await svc.api.del(`/v1/contacts/${added.body.id}`, agent.key)).status, 404);
  const left = await svc.api.get(`/v1/contacts?inbox_id=${agent.inboxId}`, agent.key);
  assert.deepEqual(left.body.data.map((c: any) => c.id), [allow.body.id]);
});

test('suppression: project-wide add, check, list and lift', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const sibling = await agentWithInbox(svc, tenant);
  const added = await svc.api.post('/v1/suppression', { email: 'Quiet@Acme.example', reason: 'asked by phone' }, agent.key);
  assert.equal(added.status, 201);
  assert.deepEqual([added.body.email, added.body.origin, added.body.reason], ['quiet@acme.example', 'agent', 'asked by phone']);
  assert.equal((await svc.api.post('/v1/suppression', { email: 'quiet@acme.example' }, agent.key)).status, 200);
  assert.equal((await svc.api.post('/v1/suppression', { email: 'nope' }, agent.key)).status, 400);

  const check = await svc.api.get('/v1/suppression/QUIET@acme.example', sibling.key);
  assert.equal(check.status, 200);
  assert.equal(check.body.suppressed, true, 'the whole project sees it');
  const clear = await svc.api.get('/v1/suppression/other@acme.example', agent.key);
  assert.deepEqual(clear.body, { email: 'other@acme.example', suppressed: false });

  const blocked = await sibling.send({ to: 'quiet@acme.example', intent: INTENT });
  assert.equal(blocked.status, 422);
  assert.equal(blocked.body.code, 'recipient_suppressed');

  const list = await svc.api.get('/v1/suppression', agent.key);
  assert.ok(list.body.data.some((s: any) => s.email === 'quiet@acme.example'));

  const elsewhere = await createTenant(svc);
  const stranger = await agentWithInbox(svc, elsewhere);
  assert.equal((await svc.api.get('/v1/suppression/quiet@acme.example', stranger.key)).body.suppressed, false, 'another project is not affected');

  assert.equal((await svc.api.del('/v1/suppression/quiet@acme.example', agent.key)).status, 204);
  assert.equal((await svc.api.del('/v1/suppression/quiet@acme.example', agent.key)).status, 404);
  assert.equal((await sibling.send({ to: 'quiet@acme.example', intent: INTENT })).status, 202);
});

function unsubscribeLink(raw: string): string {
  const m = /List-Unsubscribe:\s+<([^>]+)>,\s+<(mailto:[^>]+)>/.exec(raw.replace(/\r\n\s+/g, ' '));
  assert.ok(m, 'List-Unsubscribe header with an https link and a mailto');
  return new URL(m![1]!).pathname;
}

test('one-click unsubscribe: the link in the sent mail suppresses the recipient for the sending project, and cannot be forged', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const r = await agent.send({ to: 'reader@news.example', subject: 'Weekly', text: 'Hello', intent: INTENT });
  await agent.decide(r.body.review_id, { action: 'approve' });
  await agent.until(r.body.review_id, 'sent');
  const mail = relay.received.find((m) => m.mail.messageId === `<${r.body.review_id}.1@agents.test>`)!;
  const raw = mail.raw.toString();
  assert.match(raw, /List-Unsubscribe-Post: List-Unsubscribe=One-Click/);
  const path = unsubscribeLink(raw);

  const pageView = await svc.api.get(path);
  assert.equal(pageView.status, 200);
  assert.match(pageView.headers.get('content-type') ?? '', /text\/html/);
  assert.match(pageView.text, /reader@news\.example/);
  assert.equal((await svc.api.get('/v1/suppression/reader@news.example', agent.key)).body.suppressed, false, 'GET changes nothing');

  const [payload, mac] = path.split('/').pop()!.split('.');
  const forged = Buffer.from(JSON.stringify({ o: tenant.orgId, r: 'rr_someoneelse' })).toString('base64url');
  for (const bad of [`${forged}.${mac}`, `${payload}.${mac!.slice(0, -2)}xx`, 'garbage']) {
    const res = await svc.api.request('POST', `/v1/unsubscribe/${bad}`, { raw: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(res.status, 404, bad);
  }
  assert.equal((await svc.api.get('/v1/suppression/reader@news.example', agent.key)).body.suppressed, false);

  const click = await svc.api.request('POST', path, { raw: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assert.equal(click.status, 200);
  const again = await svc.api.request('POST', path, { raw: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assert.equal(again.status, 200);
  const check = await svc.api.get('/v1/suppression/reader@news.example', agent.key);
  assert.equal(check.body.suppressed, true);
  assert.equal(check.body.origin, 'unsubscribe');

  const next = await agent.send({ to: 'reader@news.example', intent: INTENT });
  assert.equal(next.status, 422);
  assert.equal(next.body.code, 'recipient_suppressed');
  const lift = await svc.api.del('/v1/suppression/reader@news.example', agent.key);
  assert.equal(lift.status, 403, 'an agent cannot lift the recipient\'s own opt-out');
  assert.equal(lift.body.code, 'forbidden_scope');
});

test('the confirmation page opts out one recipient of a message sent to several', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const r = await agent.send({ to: ['one@news.example', 'two@news.example'], subject: 'Team', text: 'Hello both', intent: INTENT });
  await agent.decide(r.body.review_id, { action: 'approve' });
  await agent.until(r.body.review_id, 'sent');
  const mail = relay.received.find((m) => m.mail.messageId === `<${r.body.review_id}.1@agents.test>`)!;
  const path = unsubscribeLink(mail.raw.toString());
  const form = await svc.api.request('POST', path, { raw: 'email=two%40news.example', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assert.equal(form.status, 200);
  assert.equal((await svc.api.get('/v1/suppression/two@news.example', agent.key)).body.suppressed, true);
  assert.equal((await svc.api.get('/v1/suppression/one@news.example', agent.key)).body.suppressed, false);
});
