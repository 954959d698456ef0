// Hostile MIME over real SMTP. Every message here must end in 250 and be readable through the API
// with its raw source byte for byte: a 451 is never right for a message whose content is the
// problem, since the sender retries it for days and then bounces it anyway.
// What used to happen:
// - a NUL byte in a body, a header or an encoded-word subject: `invalid byte sequence for encoding
//   "UTF8": 0x00` on insert, answered 451 for ever;
// - a Subject over about 2.7 KB: `index row size ... exceeds btree maximum` on threads_subject, 451;
// - a Message-ID or a References entry over about 2.7 KB: the same on thread_keys' primary key.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { test } from '../../testkit/test.ts';
import { sendRaw } from '../../testkit/mail.ts';
import { smtpDialogue } from '../../testkit/smtp-replies.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';

const svc = await startTestService({ roles: ['api', 'smtp'] });
const tenant = await createTenant(svc, { plan: 'enterprise' });
const { agentKey } = await tenant.enroll('hostile-reader');

const CRLF = '\r\n';
const mime = (headers: string[], body: string | Buffer): Buffer =>
  Buffer.concat([Buffer.from(headers.join(CRLF) + CRLF + CRLF, 'latin1'), typeof body === 'string' ? Buffer.from(body, 'latin1') : body]);

function nested(depth: number): string {
  let body = `Content-Type: text/plain${CRLF}${CRLF}innermost${CRLF}`;
  for (let i = depth; i > 0; i--) {
    body = `Content-Type: multipart/mixed; boundary="b${i}"${CRLF}${CRLF}--b${i}${CRLF}${body}--b${i}--${CRLF}`;
  }
  return body;
}

// Text that does not compress: PostgreSQL compresses a long index entry before measuring it, so a
// repetitive subject of 7 KB fits in a btree and hides the limit.
const noise = (bytes: number): string => crypto.randomBytes(bytes).toString('base64url');
const longSubject = `Quarterly figures ${noise(5000)}`; // 6.7 KB, past the btree limit of about 2.7 KB
const corpus: Array<{ name: string; raw: Buffer; check?: (m: any) => void }> = [
  {
    name: 'NUL byte in the text body',
    raw: mime(['From: a@example.com', 'Subject: nul body', 'Content-Type: text/plain; charset=utf-8'], `before\u0000after${CRLF}`),
    check: (m) => assert.equal(m.text.trim(), 'beforeafter'),
  },
  {
    name: 'NUL byte in a header',
    raw: mime(['From: "Nul\u0000Name" <a@example.com>', 'Subject: nul\u0000header', 'X-Thing: \u0000'], `body${CRLF}`),
    check: (m) => assert.equal(m.subject, 'nulheader'),
  },
  {
    name: 'NUL in an encoded-word subject',
    raw: mime(['From: a@example.com', `Subject: =?utf-8?B?${Buffer.from('enc\u0000oded').toString('base64')}?=`], `body${CRLF}`),
    check: (m) => assert.equal(m.subject, 'encoded'),
  },
  {
    name: 'NUL in an html body and an attachment name',
    raw: mime(
      ['From: a@example.com', 'Subject: nul html', 'Content-Type: multipart/mixed; boundary="x"'],
      `--x${CRLF}Content-Type: text/html${CRLF}${CRLF}<p>a\u0000b</p>${CRLF}--x${CRLF}` +
        `Content-Type: application/octet-stream; name="f\u0000.bin"${CRLF}Content-Disposition: attachment; filename="f\u0000.bin"${CRLF}${CRLF}data\u0000data${CRLF}--x--${CRLF}`,
    ),
    check: (m) => assert.equal(m.html, '<p>ab</p>'),
  },
  {
    name: 'Subject of 7 KB',
    raw: mime(['From: a@example.com', `Subject: ${longSubject}`], `body${CRLF}`),
    check: (m) => assert.equal(m.subject, longSubject.trim()),
  },
  {
    name: 'reply with a Subject of 7 KB (threads by subject)',
    raw: mime(['From: a@example.com', `Subject: Re: ${longSubject}`], `body${CRLF}`),
  },
  {
    name: 'Subject of 200 KB folded over many lines',
    raw: mime(['From: a@example.com', `Subject: ${Array.from({ length: 4000 }, (_, i) => `word${i} `.repeat(6)).join(`${CRLF} `)}`], `body${CRLF}`),
  },
  {
    name: 'Message-ID, In-Reply-To and References of 4 KB each',
    raw: mime(
      ['From: a@example.com', 'Subject: long ids', `Message-ID: <${noise(3000)}@example.com>`,
        `In-Reply-To: <${noise(3000)}@example.com>`, `References: <${noise(3000)}@example.com> <short@example.com>`],
      `body${CRLF}`,
    ),
  },
  {
    name: 'To header with 5,000 addresses',
    raw: mime(['From: a@example.com', 'Subject: many', `To: ${Array.from({ length: 5000 }, (_, i) => `user${i}@example${i}.com`).join(`,${CRLF} `)}`], `body${CRLF}`),
  },
  {
    name: 'header block over the parser limit (300 KB of headers)',
    raw: mime(['From: a@example.com', 'Subject: big head', ...Array.from({ length: 3000 }, (_, i) => `X-Filler-${i}: ${'f'.repeat(100)}`)], `body${CRLF}`),
  },
  { name: 'multipart nested 200 deep', raw: mime(['From: a@example.com', 'Subject: deep', 'Content-Type: multipart/mixed; boundary="b0"'], `--b0${CRLF}${nested(200)}--b0--${CRLF}`) },
  {
    name: 'unknown charset',
    raw: mime(['From: a@example.com', 'Subject: =?x-klingon?Q?qapla=27?=', 'Content-Type: text/plain; charset=x-klingon'], `Qapla\xe9${CRLF}`),
  },
  {
    name: 'UTF-16 body, ending in a NUL character',
    raw: mime(['From: a@example.com', 'Subject: utf16', 'Content-Type: text/plain; charset=utf-16le', 'Content-Transfer-Encoding: base64'],
      `${Buffer.from('hello wide world\u0000', 'utf16le').toString('base64')}${CRLF}`),
    check: (m) => assert.equal(m.text.trim(), 'hello wide world'),
  },
  {
    name: 'broken base64',
    raw: mime(['From: a@example.com', 'Subject: b64', 'Content-Type: text/plain', 'Content-Transfer-Encoding: base64'], `!!!not*base64***${CRLF}AAAA====AA${CRLF}`),
  },
  { name: 'multipart without a boundary parameter', raw: mime(['From: a@example.com', 'Subject: nb', 'Content-Type: multipart/mixed'], `--x${CRLF}${CRLF}text${CRLF}--x--${CRLF}`) },
  { name: 'multipart whose boundary never occurs', raw: mime(['From: a@example.com', 'Subject: nb2', 'Content-Type: multipart/mixed; boundary="zzz"'], `--x${CRLF}${CRLF}text${CRLF}`) },
  { name: '8-bit bytes in headers', raw: mime(['From: J\xfcrgen <j@example.com>', 'Subject: Gr\xfc\xdfe \xff\xfe', 'X-Bin: \x80\x81\x82'], `body${CRLF}`) },
  { name: 'invalid UTF-8 in an encoded word', raw: mime(['From: a@example.com', 'Subject: =?utf-8?B?/w==?= and =?utf-8?Q?=C3=28?='], `body${CRLF}`) },
  { name: 'a 2 MB line without a line break', raw: mime(['From: a@example.com', 'Subject: long line'], `${'x'.repeat(2 * 1024 * 1024)}${CRLF}`) },
  { name: 'no header block at all', raw: Buffer.from(`just a body\u0000 line${CRLF}`, 'latin1') },
];

async function deliverAndRead(inbox: { id: string; address: string }, sample: (typeof corpus)[number]): Promise<any> {
  const info = await sendRaw(svc, sample.raw, { from: 'sender@example.com', to: [inbox.address] });
  assert.match(info.response, /^250 /);
  const id = /stored as (msg_\S+)/.exec(info.response)?.[1];
  assert.ok(id, info.response);
  const message = await svc.api.get(`/v1/messages/${id}?format=both`, agentKey);
  assert.equal(message.status, 200, message.text.slice(0, 300));
  sample.check?.(message.body);
  const raw = await fetch(`${svc.url}/v1/inboxes/${inbox.id}/messages/${id}/raw`, { headers: { authorization: `Bearer ${agentKey}` } });
  assert.equal(raw.status, 200);
  assert.ok(Buffer.from(await raw.arrayBuffer()).equals(sample.raw), 'the raw source is kept byte for byte');
  return message.body;
}

test('every message of the hostile corpus is answered 250 and readable through the API, raw bytes intact', async () => {
  const inbox = (await svc.api.post('/v1/inboxes', {}, agentKey)).body as { id: string; address: string };
  // Each sample is tried and its failure noted, so one run names every message that fails.
  const failures: string[] = [];
  const read = new Map<string, any>();
  for (const sample of corpus) {
    try {
      read.set(sample.name, await deliverAndRead(inbox, sample));
    } catch (err) {
      failures.push(`${sample.name}: ${(err as { response?: string }).response ?? (err as Error).message}`);
    }
  }
  assert.deepEqual(failures, []);
  assert.equal(read.get('reply with a Subject of 7 KB (threads by subject)').thread_id, read.get('Subject of 7 KB').thread_id,
    'a reply without references joins the thread of its long subject');
  const list = await svc.api.get(`/v1/inboxes/${inbox.id}/messages?limit=100`, agentKey);
  assert.equal(list.status, 200, list.text);
  assert.equal(list.body.data.length, corpus.length);
  const threads = await svc.api.get(`/v1/inboxes/${inbox.id}/threads?limit=100`, agentKey);
  assert.equal(threads.status, 200, threads.text);
  const search = await svc.api.get(`/v1/inboxes/${inbox.id}/messages/search?q=quarterly`, agentKey);
  assert.equal(search.status, 200, search.text);
  assert.ok(search.body.data.length >= 2, 'the long subjects are searchable');
});


// smtp-server refuses these itself, with 501; this holds the reply permanent (5xx), whatever the
// server, since a 451 would have the sender retry for days.
test('envelope addresses holding a NUL, or of 3 KB, are refused for good, never deferred', async () => {
  const inbox = (await svc.api.post('/v1/inboxes', {}, agentKey)).body as { address: string };
  for (const address of ['a\u0000b@agents.test', `${noise(3000)}@agents.test`]) {
    const replies = await smtpDialogue(svc.smtpPort!, ['EHLO peer.example', 'MAIL FROM:<s@example.com>', `RCPT TO:<${address}>`, 'QUIT']);
    assert.match(replies[3]!, /^5\d\d /, `RCPT ${address.slice(0, 20)}: ${replies[3]}`);
  }
  for (const address of ['s\u0000x@example.com', `${noise(3000)}@example.com`]) {
    const replies = await smtpDialogue(svc.smtpPort!, ['EHLO peer.example', `MAIL FROM:<${address}>`, `RCPT TO:<${inbox.address}>`, 'QUIT']);
    assert.match(replies[2]!, /^5\d\d /, `MAIL ${address.slice(0, 20)}: ${replies[2]}`);
  }
});

// A content failure this corpus does not yet know, stood in for by a trigger raising the errors
// PostgreSQL raises for content (class 54, a program limit; class 22, a data exception). Such
// failures were answered 451 like an outage, so the sender retried for days and then bounced.
test('a message whose parsed fields cannot be stored is stored unparsed, and one that cannot be stored at all is refused for good', async () => {
  const inbox = (await svc.api.post('/v1/inboxes', {}, agentKey)).body as { id: string; address: string };
  const db = svc.services.db;
  await db.query(`CREATE FUNCTION refuse_content() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
      IF NEW.subject = 'unstorable subject' THEN RAISE EXCEPTION 'too large for an index' USING ERRCODE = '54000'; END IF;
      IF NEW.envelope_from = 'doomed@example.com' THEN RAISE EXCEPTION 'cannot hold this' USING ERRCODE = '22023'; END IF;
      RETURN NEW; END $$`);
  await db.query('CREATE TRIGGER refuse_content BEFORE INSERT ON messages FOR EACH ROW EXECUTE FUNCTION refuse_content()');
  try {
    const raw = mime(['From: a@example.com', 'Subject: unstorable subject'], `body${CRLF}`);
    const info = await sendRaw(svc, raw, { from: 'sender@example.com', to: [inbox.address] });
    assert.match(info.response, /^250 /);
    const id = /stored as (msg_\S+)/.exec(info.response)![1];
    const message = await svc.api.get(`/v1/messages/${id}`, agentKey);
    assert.equal(message.status, 200, message.text);
    assert.equal(message.body.subject, '');
    const source = await fetch(`${svc.url}/v1/inboxes/${inbox.id}/messages/${id}/raw`, { headers: { authorization: `Bearer ${agentKey}` } });
    assert.ok(Buffer.from(await source.arrayBuffer()).equals(raw), 'the raw source is kept byte for byte');

    await assert.rejects(
      sendRaw(svc, mime(['From: a@example.com', 'Subject: doomed'], `body${CRLF}`), { from: 'doomed@example.com', to: [inbox.address] }),
      (err: { responseCode?: number }) => err.responseCode === 554,
    );
  } finally {
    await db.query('DROP TRIGGER refuse_content ON messages');
    await db.query('DROP FUNCTION refuse_content()');
  }
  const list = await svc.api.get(`/v1/inboxes/${inbox.id}/messages`, agentKey);
  assert.equal(list.body.data.length, 1, 'the refused message left nothing behind');
});
