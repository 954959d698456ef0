// A sender whose connection broke after the final dot, before our 250, keeps the message and
// sends it again. The retry is answered 250 with the copy already stored, never a second one;
// distinct mails that happen to share a Message-ID are still both stored.
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from '../../testkit/test.ts';
import { ingestMessages } from '../../actors/ingest.ts';
import type { InboxRow } from '../../storage/inboxes.ts';
import { sendRaw } from '../../testkit/mail.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { smtpReplies } from '../../testkit/smtp-replies.ts';
import { waitFor } from '../../testkit/wait.ts';

const svc = await startTestService({ roles: ['api', 'smtp'] });
const tenant = await createTenant(svc, { plan: 'enterprise' });
const { agentKey } = await tenant.enroll('retry-reader');

async function newInbox() {
  const r = await svc.api.post('/v1/inboxes', {}, agentKey);
  assert.equal(r.status, 201, r.text);
  return r.body as { id: string; address: string };
}

const storedIds = async (inboxId: string): Promise<string[]> =>
  (await svc.services.db.query('SELECT id FROM messages WHERE inbox_id = $1 ORDER BY seq', [inboxId])).rows.map((r) => r.id);

const mail = (to: string, messageId: string, text: string) =>
  [`From: Ada <ada@example.org>`, `To: ${to}`, `Subject: Invoice 42`, `Message-ID: ${messageId}`, `Date: Mon, 23 Nov 2026 06:00:00 +0000`, '', text, ''].join('\r\n');

/** Sends the whole message, final dot included, and drops the connection without reading the reply. */
async function sendAndHangUp(to: string, raw: string): Promise<void> {
  const socket = net.connect(svc.smtpPort!, '127.0.0.1');
  const { next } = smtpReplies(socket);
  await next();
  for (const line of ['EHLO sender.example', 'MAIL FROM:<ada@example.org>', `RCPT TO:<${to}>`, 'DATA']) {
    socket.write(`${line}\r\n`);
    assert.match(await next(), /^(250|354)/);
  }
  socket.write(`${raw}.\r\n`); // raw ends with CRLF
  socket.destroy();
}

test('the same bytes sent again after the connection broke before the 250 are answered 250 and stored once', async () => {
  const inbox = await newInbox();
  const raw = mail(inbox.address, '<retry-1@example.org>', 'Please find the invoice attached.');
  await sendAndHangUp(inbox.address, raw);
  const [first] = await waitFor(async () => {
    const ids = await storedIds(inbox.id);
    return ids.length ? ids : null;
  }, 'the first delivery to be stored');

  // The sender's queue retries, more than once.
  for (let i = 0; i < 3; i++) {
    const info = await sendRaw(svc, raw, { from: 'ada@example.org', to: [inbox.address] });
    assert.match(info.response, /^250 /);
    assert.match(info.response, new RegExp(`stored as ${first}`), 'the reply names the copy already stored');
  }
  assert.deepEqual(await storedIds(inbox.id), [first], 'one copy');
  const events = await svc.services.db.query(`SELECT count(*)::int AS n FROM events WHERE type = 'message.received' AND inbox_id = $1`, [inbox.id]);
  assert.equal(events.rows[0].n, 1, 'one message.received event');
});

test('retries racing the first delivery still leave one copy', async () => {
  const inbox = await newInbox();
  const raw = mail(inbox.address, '<retry-2@example.org>', 'Sent at once from three queue runners.');
  const replies = await Promise.all([1, 2, 3].map(() => sendRaw(svc, raw, { from: 'ada@example.org', to: [inbox.address] })));
  for (const r of replies) assert.match(r.response, /^250 /);
  const stored = await storedIds(inbox.id);
  assert.equal(stored.length, 1);
  for (const r of replies) assert.match(r.response, new RegExp(`stored as ${stored[0]}`), 'every reply names the one copy');
});

test('the same mail three times in one stored batch is one copy, and each is answered with it', async () => {
  const inbox = await newInbox();
  const row = (await svc.services.db.query<InboxRow>('SELECT * FROM inboxes WHERE id = $1', [inbox.id])).rows[0]!;
  const raw = Buffer.from(mail(inbox.address, '<retry-batch@example.org>', 'Three runners, one batch.'));
  const input = { raw, recipients: [row], envelope_from: 'ada@example.org', recognise_retries: true };
  const results = await ingestMessages({ db: svc.services.db, queue: svc.services.queue }, [input, input, input]);
  const stored = await storedIds(inbox.id);
  assert.equal(stored.length, 1);
  assert.deepEqual(results.map(([copy]) => copy!.id), [stored[0], stored[0], stored[0]]);
  assert.deepEqual(results.map(([copy]) => copy!.fresh), [true, false, false]);
  const seq = results[0]![0]!.seq;
  assert.ok(results.every(([copy]) => copy!.seq === seq), 'each answer carries the stored copy');
});

test('two different mails sharing a Message-ID are both stored', async () => {
  const inbox = await newInbox();
  await sendRaw(svc, mail(inbox.address, '<shared@example.org>', 'First body.'), { from: 'ada@example.org', to: [inbox.address] });
  await sendRaw(svc, mail(inbox.address, '<shared@example.org>', 'A different body.'), { from: 'ada@example.org', to: [inbox.address] });
  assert.equal((await storedIds(inbox.id)).length, 2);
});

test('the same mail to two inboxes is stored in each, and a retry to both adds nothing', async () => {
  const a = await newInbox();
  const b = await newInbox();
  const raw = mail(`${a.address}, ${b.address}`, '<both@example.org>', 'To you both.');
  for (let i = 0; i < 2; i++) await sendRaw(svc, raw, { from: 'ada@example.org', to: [a.address, b.address] });
  assert.equal((await storedIds(a.id)).length, 1);
  assert.equal((await storedIds(b.id)).length, 1);
});
