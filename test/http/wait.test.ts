import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from '../../testkit/test.ts';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { sendMail, sendRaw } from '../../testkit/mail.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'mail');

const svc = await startTestService({ roles: ['api', 'smtp'] });
const tenant = await createTenant(svc, { plan: 'enterprise' });
const { agentKey } = await tenant.enroll('waiter');

async function newInbox() {
  const r = await svc.api.post('/v1/inboxes', {}, agentKey);
  assert.equal(r.status, 201, r.text);
  return r.body as { id: string; address: string };
}

const wait = (inboxId: string, body: Record<string, unknown>) => svc.api.post(`/v1/inboxes/${inboxId}/wait`, body, agentKey);
const deliverFixture = (name: string, to: string) => sendRaw(svc, fs.readFileSync(path.join(FIXTURES, name)), { from: 'sender@example.org', to: [to] });

test('a matching message already stored after since is returned at once', async () => {
  const inbox = await newInbox();
  const since = new Date(Date.now() - 1000).toISOString();
  await sendMail(svc, { from: 'a@example.org', to: inbox.address, subject: 'Already here', text: 'hello' });
  const started = Date.now();
  const r = await wait(inbox.id, { since, timeout_seconds: 10 });
  assert.equal(r.status, 200, r.text);
  assert.ok(Date.now() - started < 2000, 'no waiting');
  assert.equal(r.body.message.subject, 'Already here');
  assert.equal(r.body.message.text.trim(), 'hello');
  assert.equal(r.body.message.inbox, inbox.address);
  assert.ok(!('timed_out' in r.body));
  assert.ok(!('code' in r.body));
});

test('a message arriving during the wait is returned as soon as it is stored', async () => {
  const inbox = await newInbox();
  const started = Date.now();
  const pending = wait(inbox.id, { timeout_seconds: 20 });
  // The mail goes out while the wait is in progress: that is the scenario, not a wait for a condition.
  await delay(300);
  await sendMail(svc, { from: 'later@example.org', to: inbox.address, subject: 'Arrived later', text: 'now' });
  const sent = Date.now();
  const r = await pending;
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.message.subject, 'Arrived later');
  assert.ok(Date.now() - started >= 300);
  assert.ok(Date.now() - sent < 2000, `answered ${Date.now() - sent} ms after the 250`);
});

test('a wait ends with timed_out and no message when nothing comes', async () => {
  const inbox = await newInbox();
  const started = Date.now();
  const r = await wait(inbox.id, { timeout_seconds: 1 });
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, { message: null, timed_out: true });
  const took = Date.now() - started;
  assert.ok(took >= 950 && took < 3000, `took ${took} ms`);
});

test('an older message is never returned to a wait whose since is later: no stale codes', async () => {
  const inbox = await newInbox();
  await sendMail(svc, { from: 'auth@service.example', to: inbox.address, subject: 'Your code', text: 'Your verification code is 111111.' });
  const defaultSince = await wait(inbox.id, { timeout_seconds: 1, extract: 'code' });
  assert.deepEqual(defaultSince.body, { message: null, timed_out: true }, 'since defaults to the start of the call');

  const old = (await svc.api.get(`/v1/inboxes/${inbox.id}/messages`, agentKey)).body.data[0];
  const fromItsTime = await wait(inbox.id, { since: old.received_at, timeout_seconds: 1 });
  assert.equal(fromItsTime.body.timed_out, true, 'since equal to a received_at excludes that message');

  const pending = wait(inbox.id, { since: old.received_at, timeout_seconds: 20, extract: 'code' });
  await delay(200);
  await sendMail(svc, { from: 'auth@service.example', to: inbox.address, subject: 'Your code', text: 'Your verification code is 222222.' });
  const r = await pending;
  assert.equal(r.body.code, '222222');
  assert.notEqual(r.body.message.id, old.id);
});

test('from and subject_contains pick the earliest matching message', async () => {
  const inbox = await newInbox();
  const since = new Date(Date.now() - 1000).toISOString();
  await sendMail(svc, { from: 'noise@example.org', to: inbox.address, subject: 'Welcome aboard', text: 'hi' });
  await sendMail(svc, { from: '"Acme Security" <security@acme.example>', to: inbox.address, subject: 'Newsletter', text: 'hi' });
  await sendMail(svc, { from: 'security@acme.example', to: inbox.address, subject: 'Your Sign-In code', text: 'code 123456' });
  const r = await wait(inbox.id, { since, from: 'ACME.example', subject_contains: 'sign-in', timeout_seconds: 5 });
  assert.equal(r.body.message.subject, 'Your Sign-In code');
  const byName = await wait(inbox.id, { since, from: 'acme security', timeout_seconds: 5 });
  assert.equal(byName.body.message.subject, 'Newsletter', 'the earliest match, by sender name');
  const none = await wait(inbox.id, { since, from: 'nobody.example', timeout_seconds: 1 });
  assert.equal(none.body.timed_out, true);
});

test('a wait on one inbox ignores mail for another', async () => {
  const mine = await newInbox();
  const theirs = await newInbox();
  const pending = wait(mine.id, { timeout_seconds: 2 });
  await delay(200);
  await sendMail(svc, { from: 'x@example.org', to: theirs.address, subject: 'Not yours', text: 'x' });
  assert.equal((await pending).body.timed_out, true);
});

test('codes are extracted from realistic verification mails, html-only included', async () => {
  const cases: Array<[string, string]> = [
    ['verify-plain-code.eml', '482913'],
    ['github-device.eml', '48291037'],
    ['slack-code.eml', 'XKT-4M9'],
    ['verify-html-td.eml', '739204'],
  ];
  for (const [file, code] of cases) {
    const inbox = await newInbox();
    const since = new Date(Date.now() - 1000).toISOString();
    await deliverFixture(file, inbox.address);
    const r = await wait(inbox.id, { since, extract: 'code', timeout_seconds: 5 });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.code, code, file);
    assert.ok(r.body.message, file);
    assert.ok(!('link' in r.body));
  }
});

test('links are extracted from verification mails, skipping unsubscribe links', async () => {
  const inbox = await newInbox();
  const since = new Date(Date.now() - 1000).toISOString();
  await deliverFixture('verify-link.eml', inbox.address);
  const r = await wait(inbox.id, { since, extract: 'link', timeout_seconds: 5 });
  assert.equal(r.body.link, 'https://example.com/verify?token=8f1c2e9a7b3d4c5e6f708192a3b4c5d6&u=1');
  assert.equal(r.body.message.subject, 'Please verify your email');

  const htmlOnly = await newInbox();
  await sendMail(svc, {
    from: 'no-reply@app.example',
    to: htmlOnly.address,
    subject: 'Confirm your account',
    html: '<p><a href="https://app.example/unsubscribe">Unsubscribe</a></p><p><a href="https://app.example/confirm/3f9a8b7c6d5e4f3a2b1c">Confirm my account</a></p>',
  });
  const h = await wait(htmlOnly.id, { since, extract: 'link', timeout_seconds: 5 });
  assert.equal(h.body.link, 'https://app.example/confirm/3f9a8b7c6d5e4f3a2b1c');
});

test('with extract, a message without a code is passed over for the next one that has it', async () => {
  const inbox = await newInbox();
  const since = new Date(Date.now() - 1000).toISOString();
  await sendMail(svc, { from: 'team@service.example', to: inbox.address, subject: 'Welcome!', text: 'Thanks for signing up. We are glad to have you.' });
  const pending = wait(inbox.id, { since, from: 'service.example', extract: 'code', timeout_seconds: 20 });
  await delay(200);
  await sendMail(svc, { from: 'team@service.example', to: inbox.address, subject: 'Your code', text: 'Your one-time passcode: 935172' });
  const r = await pending;
  assert.equal(r.body.code, '935172');
  assert.equal(r.body.message.subject, 'Your code');
  const plain = await wait(inbox.id, { since, from: 'service.example', timeout_seconds: 1 });
  assert.equal(plain.body.message.subject, 'Welcome!', 'without extract the first match is returned');
});

test('a code whose only keyword is in the subject comes back from a wait over real SMTP', async () => {
  const inbox = await newInbox();
  const pending = wait(inbox.id, { from: 'acme.example', extract: 'code', timeout_seconds: 20 });
  await delay(200);
  await sendMail(svc, { from: 'Acme <no-reply@acme.example>', to: inbox.address, subject: 'Your login code', text: 'Hi there,\n\nUse 771204 to sign in.\n\nIt expires in 10 minutes.' });
  const r = await pending;
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.code, '771204');
  assert.equal(r.body.message.subject, 'Your login code');
});

test('invalid wait requests are refused', async () => {
  const inbox = await newInbox();
  for (const body of [{ timeout_seconds: 121 }, { timeout_seconds: 0 }, { extract: 'pin' }, { since: 'yesterday' }, { unknown: true }]) {
    const r = await wait(inbox.id, body);
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.equal(r.body.code, 'bad_request');
  }
});
