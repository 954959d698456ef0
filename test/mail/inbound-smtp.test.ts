// Real mail over loopback SMTP to the running service, read back over HTTP.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test } from '../../testkit/test.ts';
import { fileURLToPath } from 'node:url';
import * as qp from 'nodemailer/lib/qp';
import { sendMail, sendRaw } from '../../testkit/mail.ts';
import { smtpDialogue } from '../../testkit/smtp-replies.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'mail');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name));

const svc = await startTestService({ roles: ['api', 'smtp'] });
const tenant = await createTenant(svc, { plan: 'enterprise' });
const { agentKey } = await tenant.enroll('smtp-reader');

async function newInbox(username?: string) {
  const r = await svc.api.post('/v1/inboxes', username ? { username } : {}, agentKey);
  assert.equal(r.status, 201, r.text);
  return r.body as { id: string; address: string };
}

async function onlyMessage(inboxId: string) {
  const list = await svc.api.get(`/v1/inboxes/${inboxId}/messages`, agentKey);
  assert.equal(list.status, 200, list.text);
  assert.equal(list.body.data.length, 1, 'exactly one message stored');
  const full = await svc.api.get(`/v1/messages/${list.body.data[0].id}?format=both`, agentKey);
  assert.equal(full.status, 200, full.text);
  return { summary: list.body.data[0], message: full.body };
}

async function countRows(table: string, inboxId: string): Promise<number> {
  const { rows } = await svc.services.db.query(`SELECT count(*)::int AS n FROM ${table} WHERE inbox_id = $1`, [inboxId]);
  return rows[0].n;
}


test('a plain-text message is stored and read back with its fields', async () => {
  const inbox = await newInbox();
  const info = await sendMail(svc, {
    from: '"Ada Lovelace" <ada@example.org>',
    to: inbox.address,
    subject: 'Plain hello',
    text: 'Hello there,\nthis is plain text.\n',
    messageId: '<plain-1@example.org>',
  });
  assert.match(info.response, /^250 /);
  const { summary, message } = await onlyMessage(inbox.id);
  assert.equal(summary.subject, 'Plain hello');
  assert.match(summary.preview, /Hello there, this is plain text/);
  assert.ok(!('text' in summary), 'listings carry no bodies');
  assert.deepEqual(message.from, { name: 'Ada Lovelace', email: 'ada@example.org' });
  assert.deepEqual(message.to, [{ name: '', email: inbox.address }]);
  assert.equal(message.text, 'Hello there,\nthis is plain text.\n');
  assert.equal(message.html, null, 'no html part, none synthesized');
  assert.equal(message.message_id, '<plain-1@example.org>');
  assert.equal(message.folder, 'INBOX');
  assert.equal(message.seen, false);
  assert.equal(message.inbox, inbox.address);
  assert.equal(message.inbox_id, inbox.id);
  assert.match(message.thread_id, /^thr_/);
  assert.equal(message.parse_error, null);
  assert.ok(message.size > 0);
  const raw = await svc.api.get(`/v1/inboxes/${inbox.id}/messages/${message.id}/raw`, agentKey);
  assert.equal(raw.status, 200);
  assert.equal(raw.headers.get('content-type'), 'message/rfc822');
  assert.match(raw.text, /^Subject: Plain hello\r$/m);
  assert.equal(Buffer.byteLength(raw.text), message.size);
});

test('a multipart/alternative message keeps both parts, and format picks the bodies', async () => {
  const inbox = await newInbox();
  await sendMail(svc, {
    from: 'news@example.org',
    to: inbox.address,
    subject: 'Alternative',
    text: 'The text version.',
    html: '<p>The <b>html</b> version.</p>',
  });
  const { message } = await onlyMessage(inbox.id);
  assert.equal(message.text, 'The text version.');
  assert.equal(message.html, '<p>The <b>html</b> version.</p>');
  assert.equal(message.attachments.length, 0);
  const asText = await svc.api.get(`/v1/messages/${message.id}?format=text`, agentKey);
  assert.equal(asText.body.text, 'The text version.');
  assert.ok(!('html' in asText.body));
  const asHtml = await svc.api.get(`/v1/messages/${message.id}?format=html`, agentKey);
  assert.equal(asHtml.body.html, '<p>The <b>html</b> version.</p>');
  assert.ok(!('text' in asHtml.body));
  const auto = await svc.api.get(`/v1/messages/${message.id}?format=auto`, agentKey);
  assert.equal(auto.body.text, 'The text version.', 'auto prefers the text part');
  assert.ok(!('html' in auto.body));
  const bad = await svc.api.get(`/v1/messages/${message.id}?format=pdf`, agentKey);
  assert.equal(bad.status, 400);
  assert.equal(bad.body.code, 'bad_request');
});

test('nested multipart with attachments and inline images lists and serves every part', async () => {
  const inbox = await newInbox();
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
  const pdf = Buffer.from('%PDF-1.4\n% a tiny pdf\n');
  await sendMail(svc, {
    from: 'billing@acme.example',
    to: inbox.address,
    subject: 'Invoice with logo',
    text: 'Your invoice is attached.',
    html: '<p><img src="cid:logo@acme.example"> Your invoice is attached.</p>',
    attachments: [
      { filename: 'logo.png', content: png, contentType: 'image/png', cid: 'logo@acme.example' },
      { filename: 'invoice.pdf', content: pdf, contentType: 'application/pdf' },
      { filename: 'notes.txt', content: 'line one\nline two\n', contentType: 'text/plain' },
    ],
  });
  const { message } = await onlyMessage(inbox.id);
  assert.equal(message.text, 'Your invoice is attached.');
  assert.match(message.html, /cid:logo@acme\.example/);
  const list = await svc.api.get(`/v1/inboxes/${inbox.id}/messages/${message.id}/attachments`, agentKey);
  assert.equal(list.status, 200);
  const byName = Object.fromEntries(list.body.data.map((a: any) => [a.filename, a]));
  assert.deepEqual(Object.keys(byName).sort(), ['invoice.pdf', 'logo.png', 'notes.txt']);
  assert.equal(byName['logo.png'].inline, true);
  assert.equal(byName['logo.png'].content_id, 'logo@acme.example');
  assert.equal(byName['invoice.pdf'].inline, false);
  assert.equal(byName['invoice.pdf'].size, pdf.length);
  assert.deepEqual(message.attachments.map((a: any) => a.id).sort(), list.body.data.map((a: any) => a.id).sort());

  const logo = await fetch(`${svc.url}/v1/inboxes/${inbox.id}/messages/${message.id}/attachments/${byName['logo.png'].id}`, {
    headers: { authorization: `Bearer ${agentKey}` },
  });
  assert.equal(logo.status, 200);
  assert.equal(logo.headers.get('content-type'), 'image/png');
  assert.equal(logo.headers.get('x-content-type-options'), 'nosniff');
  assert.match(logo.headers.get('content-disposition') ?? '', /^attachment; filename="logo.png"/);
  assert.deepEqual(Buffer.from(await logo.arrayBuffer()), png);
  const doc = await fetch(`${svc.url}/v1/inboxes/${inbox.address}/messages/${message.id}/attachments/${byName['invoice.pdf'].id}`, {
    headers: { authorization: `Bearer ${agentKey}` },
  });
  assert.equal(doc.headers.get('content-type'), 'application/pdf');
  assert.deepEqual(Buffer.from(await doc.arrayBuffer()), pdf);
  const missing = await svc.api.get(`/v1/inboxes/${inbox.id}/messages/${message.id}/attachments/att_nope`, agentKey);
  assert.equal(missing.status, 404);
  assert.equal(missing.body.code, 'not_found');
});

test('every attachment of a message is stored with exactly its own bytes: binary, empty, large and small side by side', async () => {
  const inbox = await newInbox();
  const parts = {
    'every-byte.bin': Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256)),
    'empty.bin': Buffer.alloc(0),
    'large.bin': crypto.randomBytes(300_000),
    'one.bin': Buffer.from([0]),
    'small.bin': crypto.randomBytes(17),
  };
  await sendMail(svc, {
    from: 'files@acme.example',
    to: inbox.address,
    subject: 'Files',
    text: 'Five files.',
    attachments: Object.entries(parts).map(([filename, content]) => ({ filename, content, contentType: 'application/octet-stream' })),
  });
  const { message } = await onlyMessage(inbox.id);
  const list = await svc.api.get(`/v1/inboxes/${inbox.id}/messages/${message.id}/attachments`, agentKey);
  assert.deepEqual(list.body.data.map((a: any) => a.filename).sort(), Object.keys(parts).sort());
  for (const a of list.body.data) {
    const res = await fetch(`${svc.url}/v1/inboxes/${inbox.id}/messages/${message.id}/attachments/${a.id}`, { headers: { authorization: `Bearer ${agentKey}` } });
    const expected = parts[a.filename as keyof typeof parts];
    assert.equal(a.size, expected.length, a.filename);
    assert.ok(Buffer.from(await res.arrayBuffer()).equals(expected), `${a.filename}: its own bytes`);
  }
});

test('an attachment is stored once, in the raw source, and each encoding downloads decoded from it', async () => {
  const inbox = await newInbox();
  const png = crypto.randomBytes(3000);
  const prices = 'caf\u00e9 cr\u00e8me = 12 \u20ac\r\na line long enough to be soft-broken by quoted-printable encoding, which wraps at seventy-six characters\r\n';
  const csv = 'id,total\r\n1,42\r\n';
  const forwarded = 'From: someone@example.org\r\nTo: first@example.org\r\nSubject: The original\r\n\r\nThe original text.\r\n';
  const raw = [
    'From: parts@acme.example',
    `To: ${inbox.address}`,
    'Subject: Every encoding',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="mix"',
    '',
    '--mix',
    'Content-Type: multipart/related; boundary="rel"',
    '',
    '--rel',
    'Content-Type: text/html; charset=utf-8',
    '',
    '<p><img src="cid:pic@acme.example"> See the files.</p>',
    '--rel',
    'Content-Type: image/png',
    'Content-ID: <pic@acme.example>',
    'Content-Transfer-Encoding: base64',
    '',
    png.toString('base64').replace(/.{76}/g, '$&\r\n'),
    '--rel--',
    '--mix',
    'Content-Type: text/plain; charset=utf-8; name="prices.txt"',
    'Content-Disposition: attachment; filename="prices.txt"',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    qp.wrap(qp.encode(prices), 76),
    '--mix',
    'Content-Type: text/csv; name="totals.csv"',
    'Content-Disposition: attachment; filename="totals.csv"',
    'Content-Transfer-Encoding: 7bit',
    '',
    csv.replace(/\r\n$/, ''),
    '--mix',
    'Content-Type: message/rfc822',
    'Content-Disposition: attachment; filename="original.eml"',
    '',
    forwarded.replace(/\r\n$/, ''),
    '--mix--',
    '',
  ].join('\r\n');
  await sendRaw(svc, raw, { from: 'parts@acme.example', to: [inbox.address] });
  const { message } = await onlyMessage(inbox.id);
  const expected: Record<string, Buffer> = {
    'image/png': png,
    'text/plain': Buffer.from(prices),
    'text/csv': Buffer.from(csv.replace(/\r\n$/, '')),
    'message/rfc822': Buffer.from(forwarded.replace(/\r\n$/, '')),
  };
  assert.deepEqual(message.attachments.map((a: any) => a.content_type), Object.keys(expected));
  const { rows } = await svc.services.db.query('SELECT content FROM attachments WHERE inbox_id = $1 AND message_id = $2', [inbox.id, message.id]);
  assert.deepEqual(rows.map((r) => r.content), [null, null, null, null], 'no decoded copy beside the raw source');
  for (const a of message.attachments) {
    const res = await fetch(`${svc.url}/v1/inboxes/${inbox.id}/messages/${message.id}/attachments/${a.id}`, { headers: { authorization: `Bearer ${agentKey}` } });
    assert.equal(res.status, 200, a.content_type);
    const bytes = Buffer.from(await res.arrayBuffer());
    assert.ok(bytes.equals(expected[a.content_type]!), `${a.content_type}: decoded from the source`);
    assert.equal(a.size, bytes.length, `${a.content_type}: its listed size`);
  }
});

test('an attachment stored with its bytes beside the source is served from them', async () => {
  const inbox = await newInbox();
  const pdf = crypto.randomBytes(5000);
  await sendMail(svc, { from: 'old@acme.example', to: inbox.address, subject: 'Kept bytes', text: 'x', attachments: [{ filename: 'a.pdf', content: pdf, contentType: 'application/pdf' }] });
  const { message } = await onlyMessage(inbox.id);
  const db = svc.services.db;
  await db.query('UPDATE attachments SET content = $3 WHERE inbox_id = $1 AND message_id = $2', [inbox.id, message.id, pdf]);
  // Without a source to parse, the bytes can only come from the row.
  await db.query('DELETE FROM message_sources WHERE inbox_id = $1 AND message_id = $2', [inbox.id, message.id]);
  const res = await fetch(`${svc.url}/v1/inboxes/${inbox.id}/messages/${message.id}/attachments/${message.attachments[0].id}`, { headers: { authorization: `Bearer ${agentKey}` } });
  assert.equal(res.status, 200);
  assert.ok(Buffer.from(await res.arrayBuffer()).equals(pdf));
});

test('a fixture with multipart/related inside multipart/mixed keeps the html, the inline image and the pdf', async () => {
  const inbox = await newInbox();
  await sendRaw(svc, fixture('mixed-related-pdf.eml'), { from: 'billing@acme.example', to: [inbox.address] });
  const { message } = await onlyMessage(inbox.id);
  assert.equal(message.text, null);
  assert.match(message.html, /invoice INV-2026-0042 is attached/);
  assert.deepEqual(
    message.attachments.map((a: any) => [a.content_type, a.inline, a.content_id, a.filename]),
    [
      ['image/png', true, 'logo@acme.example', null],
      ['application/pdf', false, null, 'INV-2026-0042.pdf'],
    ],
  );
});

test('RFC 2047 encoded headers are decoded in subject and names', async () => {
  const inbox = await newInbox();
  await sendRaw(svc, fixture('encoded-headers.eml'), { from: 'francois@exemple.fr', to: [inbox.address] });
  const { message } = await onlyMessage(inbox.id);
  assert.equal(message.subject, 'Résumé de la réunion — préparation du budget');
  assert.deepEqual(message.from, { name: 'François Lefèvre', email: 'francois@exemple.fr' });
  assert.deepEqual(message.to, [{ name: '山田太郎', email: 'yamada@example.jp' }]);

  // nodemailer encodes non-ASCII headers itself; they come back decoded.
  const second = await newInbox();
  await sendMail(svc, { from: '"Zoë Ångström" <zoe@example.se>', to: second.address, subject: 'Grüße 👋 und Ünïcödé', text: 'hej' });
  const { message: m2 } = await onlyMessage(second.id);
  assert.equal(m2.subject, 'Grüße 👋 und Ünïcödé');
  assert.equal(m2.from.name, 'Zoë Ångström');
});

test('non-UTF-8 charsets are decoded to text', async () => {
  const latin = await newInbox();
  await sendRaw(svc, fixture('iso-8859-1-qp.eml'), { from: 'juergen@beispiel.de', to: [latin.address] });
  const { message } = await onlyMessage(latin.id);
  assert.equal(message.subject, 'Grüße aus Köln');
  assert.match(message.text, /vielen Dank für die schnelle Antwort\. Das Café am Dom öffnet um 8 Uhr, wir treffen/);

  const windows = await newInbox();
  await sendRaw(svc, fixture('windows-1252-8bit.eml'), { from: 'renee@example.ie', to: [windows.address] });
  const { message: w } = await onlyMessage(windows.id);
  assert.equal(w.subject, '“Final” price – €49');
  assert.match(w.text, /The price is € 49 – that’s final/);

  const jis = await newInbox();
  await sendRaw(svc, fixture('iso-2022-jp.eml'), { from: 'sender@example.jp', to: [jis.address] });
  const { message: j } = await onlyMessage(jis.id);
  assert.ok(/[\u3040-\u30ff\u4e00-\u9fff]/.test(j.text), 'Japanese text decoded');

  // nodemailer sending raw ISO-8859-1 bytes declared as such.
  const raw = await newInbox();
  await sendMail(svc, {
    from: 'anais@example.fr',
    to: raw.address,
    subject: 'Déjà vu',
    text: Buffer.from('Ça coûte 12 € ? Non, 12 francs.', 'latin1').toString('binary'),
    textEncoding: 'quoted-printable',
    headers: { 'Content-Type': 'text/plain; charset=iso-8859-1' },
  });
  const { message: r } = await onlyMessage(raw.id);
  assert.equal(r.subject, 'Déjà vu');
});

test('a message without a Message-ID is stored with message_id null and its own thread', async () => {
  const inbox = await newInbox();
  await sendRaw(svc, fixture('no-message-id.eml'), { from: 'cron@legacy-host.example', to: [inbox.address] });
  const { message } = await onlyMessage(inbox.id);
  assert.equal(message.message_id, null);
  assert.equal(message.subject, 'Nightly backup finished');
  assert.equal(message.date, null);
  assert.match(message.thread_id, /^thr_/);
  const { rows } = await svc.services.db.query(`SELECT payload FROM events WHERE type = 'message.received' AND inbox_id = $1`, [inbox.id]);
  assert.equal(rows[0].payload.message.thread_id, message.thread_id);
  assert.equal(rows[0].payload.message.date, new Date(message.received_at).toUTCString(), 'without a Date header, the event dates it by its receipt');
  const thread = await svc.api.get(`/v1/inboxes/${inbox.id}/threads/${message.thread_id}`, agentKey);
  assert.equal(thread.status, 200);
  assert.equal(thread.body.message_count, 1);
});

test('malformed MIME is stored, listed and served raw, with parse_error and best-effort fields', async () => {
  const inbox = await newInbox();
  const raw = fixture('malformed.eml');
  await sendRaw(svc, raw, { from: 'broken@example.com', to: [inbox.address] });
  const { summary, message } = await onlyMessage(inbox.id);
  assert.equal(summary.id, message.id);
  assert.match(message.subject, /^Invoice attached/);
  assert.equal(message.date, null, 'an unreadable Date header is null');
  assert.ok(message.text === null || /invoice attached/i.test(message.text));
  const back = await fetch(`${svc.url}/v1/inboxes/${inbox.id}/messages/${message.id}/raw`, { headers: { authorization: `Bearer ${agentKey}` } });
  assert.deepEqual(Buffer.from(await back.arrayBuffer()), raw, 'the raw source is kept byte for byte');

  const wrong = await newInbox();
  await sendRaw(svc, fixture('wrong-boundary.eml'), { from: 'mallory@example.net', to: [wrong.address] });
  const { message: w } = await onlyMessage(wrong.id);
  assert.equal(w.subject, 'Report attached');
  assert.match(w.parse_error, /boundary/);
  assert.equal(w.message_id, '<wrong-boundary-1@example.net>');
});

test('an oversized message is refused with 552 and nothing is stored', async () => {
  const inbox = await newInbox();
  const big = 'x'.repeat(76) + '\r\n';
  const text = big.repeat(Math.ceil((25 * 1024 * 1024 + 1024) / big.length));
  await assert.rejects(
    sendMail(svc, { from: 'big@example.org', to: inbox.address, subject: 'Too big', text }),
    (err: any) => {
      assert.equal(err.responseCode, 552);
      assert.match(err.response, /^552 5\.\d\.\d/);
      return true;
    },
  );
  assert.equal(await countRows('messages', inbox.id), 0);
  assert.equal(await countRows('events', inbox.id), 0);
});

test('SIZE is advertised, and a MAIL FROM declaring more is refused with 552', async () => {
  const replies = await smtpDialogue(svc.smtpPort!, ['EHLO client.example', 'MAIL FROM:<a@example.org> SIZE=30000000', 'QUIT']);
  assert.match(replies[1]!, /^250[- ]SIZE 26214400$/m);
  assert.match(replies[1]!, /^250[- ]ENHANCEDSTATUSCODES$/m);
  assert.doesNotMatch(replies[1]!, /AUTH/, 'no authentication on an inbound MX');
  assert.match(replies[2]!, /^552 5\.\d\.\d /);
});

test('an unknown recipient is refused with 550 5.1.1 at RCPT TO', async () => {
  const inbox = await newInbox();
  await assert.rejects(
    sendMail(svc, { from: 'a@example.org', to: `nobody-${Date.now()}@agents.test`, subject: 'x', text: 'x' }),
    (err: any) => {
      assert.equal(err.responseCode, 550);
      assert.match(err.response, /^550 5\.1\.1 /);
      return true;
    },
  );
  // One good and one unknown recipient: the good one gets it, the unknown one is reported.
  const info = await sendMail(svc, { from: 'a@example.org', to: [inbox.address, 'ghost@agents.test'], subject: 'mixed', text: 'x' });
  assert.deepEqual(info.accepted, [inbox.address]);
  assert.deepEqual(info.rejected, ['ghost@agents.test']);
  assert.equal(await countRows('messages', inbox.id), 1);
});

test('one message to several hosted inboxes is stored once in each, with one event each', async () => {
  const a = await newInbox();
  const b = await newInbox();
  await sendMail(svc, { from: 'team@example.org', to: [a.address, b.address], cc: a.address, subject: 'To both', text: 'hi both' });
  const { message: ma } = await onlyMessage(a.id);
  const { message: mb } = await onlyMessage(b.id);
  assert.notEqual(ma.id, mb.id);
  assert.equal(ma.subject, 'To both');
  assert.equal(mb.subject, 'To both');
  const { rows } = await svc.services.db.query(
    `SELECT inbox_id, payload FROM events WHERE type = 'message.received' AND inbox_id = ANY($1) ORDER BY id`,
    [[a.id, b.id]],
  );
  assert.equal(rows.length, 2);
  const payload = rows.find((r: any) => r.inbox_id === a.id).payload;
  assert.equal(payload.inbox, a.address);
  assert.equal(payload.message.id, ma.id);
  assert.equal(payload.message.thread_id, ma.thread_id);
  assert.equal(payload.message.from, 'team@example.org');
  assert.match(payload.message.to, new RegExp(a.address.replace('.', '\\.')));
  assert.equal(payload.message.subject, 'To both');
  assert.equal(payload.message.text.trim(), 'hi both');
  assert.equal(payload.message.folder, 'INBOX');
  assert.equal(payload.message.seen, false);
  assert.match(payload.message.date, /\d{4}/);
});

test('recipient addresses are matched without regard to case', async () => {
  const inbox = await newInbox(`mixed-case-${Date.now()}`);
  await sendMail(svc, { from: 'a@example.org', to: inbox.address.toUpperCase(), subject: 'case', text: 'x' });
  assert.equal(await countRows('messages', inbox.id), 1);
});

test('a storage failure after DATA is a 451, nothing is kept, and the retry is stored', async () => {
  const inbox = await newInbox();
  const db = svc.services.db;
  await db.query(`CREATE FUNCTION refuse_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$`);
  await db.query(`CREATE TRIGGER refuse_attachments BEFORE INSERT ON attachments FOR EACH ROW EXECUTE FUNCTION refuse_insert()`);
  const message = {
    from: 'retry@example.org',
    to: inbox.address,
    subject: 'Retry me',
    text: 'body',
    attachments: [{ filename: 'a.txt', content: 'attached' }],
  };
  try {
    await assert.rejects(sendMail(svc, message), (err: any) => {
      assert.equal(err.responseCode, 451);
      assert.match(err.response, /^451 4\.3\.0 /);
      return true;
    });
    assert.equal(await countRows('messages', inbox.id), 0, 'the message row was rolled back with the attachment');
    assert.equal(await countRows('message_sources', inbox.id), 0);
    assert.equal(await countRows('events', inbox.id), 0, 'no event for a message that was not stored');
  } finally {
    await db.query('DROP TRIGGER refuse_attachments ON attachments');
    await db.query('DROP FUNCTION refuse_insert()');
  }
  await sendMail(svc, message);
  assert.equal(await countRows('messages', inbox.id), 1);
  assert.equal(await countRows('events', inbox.id), 1);
});

test('messages arriving together are stored together, and one that cannot be stored fails alone', async () => {
  const inbox = await newInbox();
  const db = svc.services.db;
  await db.query(`CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF NEW.subject = 'poison' THEN RAISE EXCEPTION 'cannot store this one'; END IF; RETURN NEW; END $$`);
  await db.query(`CREATE TRIGGER refuse_poison BEFORE INSERT ON messages FOR EACH ROW EXECUTE FUNCTION refuse_poison()`);
  try {
    const subjects = ['one', 'two', 'poison', 'three', 'four', 'five', 'six', 'seven'];
    const results = await Promise.allSettled(subjects.map((subject) => sendMail(svc, { from: 'burst@example.org', to: inbox.address, subject, text: subject })));
    results.forEach((r, i) => {
      if (subjects[i] === 'poison') {
        assert.equal(r.status, 'rejected');
        assert.equal((r as PromiseRejectedResult).reason.responseCode, 451);
      } else {
        assert.equal(r.status, 'fulfilled', subjects[i]);
      }
    });
  } finally {
    await db.query('DROP TRIGGER refuse_poison ON messages');
    await db.query('DROP FUNCTION refuse_poison()');
  }
  const list = await svc.api.get(`/v1/inboxes/${inbox.id}/messages`, agentKey);
  assert.deepEqual(list.body.data.map((m: any) => m.subject).sort(), ['five', 'four', 'one', 'seven', 'six', 'three', 'two']);
  assert.equal(await countRows('events', inbox.id), 7);
});

test('hostile attachments download as inert files: sandboxed, not sniffed, active types as bytes, names cleaned', async () => {
  const inbox = await newInbox();
  // Each part once went out with its declared type (text/html ran script on the service's
  // origin) and its filename kept path separators.
  const part = (type: string, disposition: string, body: string) =>
    `--b1\r\nContent-Type: ${type}\r\nContent-Disposition: attachment; ${disposition}\r\nContent-Transfer-Encoding: base64\r\n\r\n${Buffer.from(body).toString('base64')}\r\n`;
  const raw = [
    'From: mallory@evil.example',
    `To: ${inbox.address}`,
    'Subject: Open me',
    'Message-ID: <hostile-1@evil.example>',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="b1"',
    '',
    '--b1\r\nContent-Type: text/plain\r\n\r\nSee attached.\r\n' +
      part('text/html; charset=utf-8', `filename*=utf-8''..%2F..%2Fpage%22%0D%0AX-Injected%3A%201.html`, '<script>alert(document.cookie)</script>') +
      part('image/svg+xml', 'filename="..\\\\..\\\\logo.svg"', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>') +
      part('application/javascript', 'filename="app.js"', 'alert(1)') +
      part('text/xml', 'filename="feed.xml"', '<x/>') +
      part('text/plain', `filename*=utf-8''r%C3%A9sum%C3%A9.txt`, 'plain words') +
      '--b1--',
  ].join('\r\n');
  await sendRaw(svc, raw, { from: 'mallory@evil.example', to: [inbox.address] });
  const { message } = await onlyMessage(inbox.id);
  const list = await svc.api.get(`/v1/inboxes/${inbox.id}/messages/${message.id}/attachments`, agentKey);
  assert.equal(list.body.data.length, 5, list.text);
  const served: Array<{ type: string | null; disposition: string }> = [];
  for (const a of list.body.data) {
    const r = await fetch(`${svc.url}/v1/inboxes/${inbox.id}/messages/${message.id}/attachments/${a.id}`, { headers: { authorization: `Bearer ${agentKey}` } });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(r.headers.get('content-security-policy'), 'sandbox');
    assert.equal(r.headers.get('x-injected'), null);
    const disposition = r.headers.get('content-disposition') ?? '';
    assert.match(disposition, /^attachment/);
    const plain = /filename="([^"]*)"/.exec(disposition)?.[1] ?? '';
    const extended = decodeURIComponent(/filename\*=UTF-8''(\S+)/i.exec(disposition)?.[1] ?? '');
    for (const name of [plain, extended]) assert.doesNotMatch(name, /[/\\"\r\n]/, disposition);
    served.push({ type: r.headers.get('content-type')!.split(';')[0]!, disposition });
  }
  const byType = served.map((s) => s.type).sort();
  assert.deepEqual(byType, ['application/octet-stream', 'application/octet-stream', 'application/octet-stream', 'application/octet-stream', 'text/plain']);
  const resume = served.find((s) => s.type === 'text/plain')!;
  assert.match(resume.disposition, /filename="resume\.txt"/);
  assert.match(resume.disposition, /filename\*=UTF-8''r%C3%A9sum%C3%A9\.txt/);
  const html = served.find((s) => /page/.test(s.disposition))!;
  assert.match(html.disposition, /page/);
  assert.doesNotMatch(html.disposition, /\.\./);

  const source = await fetch(`${svc.url}/v1/inboxes/${inbox.id}/messages/${message.id}/raw`, { headers: { authorization: `Bearer ${agentKey}` } });
  assert.equal(source.headers.get('content-security-policy'), 'sandbox');
  assert.equal(source.headers.get('x-content-type-options'), 'nosniff');
});
