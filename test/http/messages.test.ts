import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from '../../testkit/test.ts';
import { fileURLToPath } from 'node:url';
import { sendMail, sendRaw } from '../../testkit/mail.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'mail');

const svc = await startTestService({ roles: ['api', 'smtp'] });
const tenant = await createTenant(svc, { plan: 'enterprise' });
const { agentKey } = await tenant.enroll('reader');

async function newInbox() {
  const r = await svc.api.post('/v1/inboxes', {}, agentKey);
  assert.equal(r.status, 201, r.text);
  return r.body as { id: string; address: string };
}

async function listAll(inboxId: string, query = '') {
  const r = await svc.api.get(`/v1/inboxes/${inboxId}/messages${query}`, agentKey);
  assert.equal(r.status, 200, r.text);
  return r.body;
}

test('messages list newest first in pages of limit, with next_cursor until the end', async () => {
  const inbox = await newInbox();
  for (let i = 1; i <= 7; i++) await sendMail(svc, { from: 'a@example.org', to: inbox.address, subject: `n${i}`, text: `body ${i}` });
  const subjects: string[] = [];
  let cursor: string | null = null;
  do {
    const body: any = await listAll(inbox.id, `?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
    assert.ok(body.data.length <= 3);
    subjects.push(...body.data.map((m: any) => m.subject));
    cursor = body.next_cursor;
    assert.equal(body.has_more, cursor !== null);
  } while (cursor);
  assert.deepEqual(subjects, ['n7', 'n6', 'n5', 'n4', 'n3', 'n2', 'n1']);
  const defaults = await listAll(inbox.id);
  assert.equal(defaults.data.length, 7);
  assert.equal(defaults.has_more, false);
  assert.equal(defaults.next_cursor, null);
  const clamped = await listAll(inbox.id, '?limit=-4');
  assert.equal(clamped.data.length, 1);
  const badFolder = await svc.api.get(`/v1/inboxes/${inbox.id}/messages?folder=ARCHIVE`, agentKey);
  assert.equal(badFolder.status, 400);
  assert.equal(badFolder.body.code, 'bad_request');
  assert.equal(badFolder.body.errors[0].field, 'folder');
});

test('batch update marks seen and moves folders; the list follows the folder', async () => {
  const inbox = await newInbox();
  for (const s of ['keep', 'trash', 'spam']) await sendMail(svc, { from: 'a@example.org', to: inbox.address, subject: s, text: s });
  const ids = Object.fromEntries((await listAll(inbox.id)).data.map((m: any) => [m.subject, m.id]));
  const r = await svc.api.patch(
    `/v1/inboxes/${inbox.id}/messages/batch`,
    { updates: [{ id: ids.keep, seen: true }, { id: ids.trash, folder: 'TRASH' }, { id: ids.spam, folder: 'SPAM', seen: true }] },
    agentKey,
  );
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body.data.map((m: any) => [m.subject, m.folder, m.seen]), [
    ['keep', 'INBOX', true],
    ['trash', 'TRASH', false],
    ['spam', 'SPAM', true],
  ]);
  assert.deepEqual((await listAll(inbox.id)).data.map((m: any) => m.subject), ['keep']);
  assert.deepEqual((await listAll(inbox.id, '?folder=TRASH')).data.map((m: any) => m.subject), ['trash']);
  assert.deepEqual((await listAll(inbox.id, '?folder=SPAM')).data.map((m: any) => m.subject), ['spam']);
  const one = await svc.api.get(`/v1/messages/${ids.keep}`, agentKey);
  assert.equal(one.body.seen, true);

  const again = await svc.api.patch(`/v1/inboxes/${inbox.id}/messages/batch`, { updates: [{ id: ids.keep, seen: false }, { id: ids.keep, seen: true }, { id: ids.keep, folder: 'INBOX', seen: false }] }, agentKey);
  assert.equal(again.status, 200);
  assert.deepEqual(again.body.data.map((m: any) => [m.id, m.seen]), [[ids.keep, false]], 'later updates of one id win');
});

test('a batch naming an unknown id changes nothing and names it', async () => {
  const inbox = await newInbox();
  await sendMail(svc, { from: 'a@example.org', to: inbox.address, subject: 'only', text: 'x' });
  const [m] = (await listAll(inbox.id)).data;
  const r = await svc.api.patch(`/v1/inboxes/${inbox.id}/messages/batch`, { updates: [{ id: m.id, seen: true }, { id: 'msg_missing', seen: true }] }, agentKey);
  assert.equal(r.status, 404);
  assert.equal(r.body.code, 'not_found');
  assert.deepEqual(r.body.errors, [{ field: 'updates.id', code: 'not_found', detail: 'msg_missing' }]);
  assert.equal((await svc.api.get(`/v1/messages/${m.id}`, agentKey)).body.seen, false);

  const tooMany = await svc.api.patch(`/v1/inboxes/${inbox.id}/messages/batch`, { updates: Array.from({ length: 101 }, () => ({ id: m.id, seen: true })) }, agentKey);
  assert.equal(tooMany.status, 400);
  assert.equal(tooMany.body.errors[0].code, 'too_many');
  const empty = await svc.api.patch(`/v1/inboxes/${inbox.id}/messages/batch`, { updates: [{ id: m.id }] }, agentKey);
  assert.equal(empty.status, 400, 'an update must change something');
  const unknown = await svc.api.patch(`/v1/inboxes/${inbox.id}/messages/batch`, { updates: [{ id: m.id, starred: true }] }, agentKey);
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.errors[0].code, 'unknown_key');
});

test('extracted views drop quoted history and signatures; variant=extracted serves them as text and html', async () => {
  const inbox = await newInbox();
  await sendRaw(svc, fs.readFileSync(path.join(FIXTURES, 'reply-quoted.eml')), { from: 'dana.whitfield@gmail.com', to: [inbox.address] });
  const [summary] = (await listAll(inbox.id)).data;
  assert.equal(summary.preview, 'Thursday at 18:00 works for me. Please keep the rollback plan from last time.');
  const source = await svc.api.get(`/v1/messages/${summary.id}?format=both`, agentKey);
  assert.match(source.body.text, /Would Thursday at 18:00 UTC work/);
  assert.equal(source.body.extracted_text.trim(), 'Thursday at 18:00 works for me. Please keep the rollback plan from last\ntime.');
  assert.doesNotMatch(source.body.extracted_html, /gmail_quote|Site Reliability/);
  assert.match(source.body.extracted_html, /Thursday at 18:00 works for me/);
  const extracted = await svc.api.get(`/v1/messages/${summary.id}?format=both&variant=extracted`, agentKey);
  assert.equal(extracted.body.text, source.body.extracted_text);
  assert.equal(extracted.body.html, source.body.extracted_html);
  assert.equal(extracted.body.in_reply_to, '<CAH1x=9Q+7uKkE_8nN@mail.gmail.com>');
  assert.deepEqual(extracted.body.references, ['<rr_9f2k.1741517000@agents.example.com>', '<CAH1x=9Q+7uKkE_8nN@mail.gmail.com>']);
});

test('without format a message has text, html, extracted_text and extracted_html; format narrows them', async () => {
  const inbox = await newInbox();
  await sendRaw(svc, fs.readFileSync(path.join(FIXTURES, 'multipart-alternative.eml')), { from: 'a@example.org', to: [inbox.address] });
  await sendMail(svc, { from: 'b@example.org', to: inbox.address, subject: 'plain only', text: 'Just text here.' });
  const [plain, alternative] = (await listAll(inbox.id)).data;
  const full = await svc.api.get(`/v1/messages/${alternative.id}`, agentKey);
  assert.equal(full.status, 200, full.text);
  assert.equal(typeof full.body.text, 'string');
  assert.equal(typeof full.body.html, 'string');
  assert.equal(typeof full.body.extracted_text, 'string');
  assert.equal(typeof full.body.extracted_html, 'string');
  const textOnly = await svc.api.get(`/v1/messages/${plain.id}`, agentKey);
  assert.equal(textOnly.body.text.trim(), 'Just text here.');
  assert.ok('html' in textOnly.body && 'extracted_html' in textOnly.body, 'absent bodies are keys with null');
  assert.equal(textOnly.body.html, null, 'no html synthesized from text');
  assert.equal(textOnly.body.extracted_html, null);
  const narrowed = await svc.api.get(`/v1/messages/${alternative.id}?format=text`, agentKey);
  assert.deepEqual([narrowed.body.text, narrowed.body.extracted_text], [full.body.text, full.body.extracted_text]);
  assert.ok(!('html' in narrowed.body) && !('extracted_html' in narrowed.body), 'format=text leaves the html keys out');
  const htmlOnly = await svc.api.get(`/v1/messages/${alternative.id}?format=html`, agentKey);
  assert.equal(htmlOnly.body.html, full.body.html);
  assert.ok(!('text' in htmlOnly.body) && !('extracted_text' in htmlOnly.body));
});

test('an html-only message has text null, html as sent, and an extracted text view', async () => {
  const inbox = await newInbox();
  await sendRaw(svc, fs.readFileSync(path.join(FIXTURES, 'html-only.eml')), { from: 'no-reply@shop.example', to: [inbox.address] });
  const [summary] = (await listAll(inbox.id)).data;
  const auto = await svc.api.get(`/v1/messages/${summary.id}?format=auto`, agentKey);
  assert.ok(!('text' in auto.body), 'auto picks html when there is no text part');
  assert.match(auto.body.html, /<h1>Good news!<\/h1>/);
  const both = await svc.api.get(`/v1/messages/${summary.id}?format=both`, agentKey);
  assert.equal(both.body.text, null, 'nothing synthesized into text');
  assert.match(both.body.extracted_text, /Your order #7731 is on its way & should arrive by Tuesday\./);
  assert.match(summary.preview, /Good news!/);
});
