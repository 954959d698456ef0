import { describe, it } from '../../testkit/test.ts';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DEFAULT_PARSE_LIMITS, attachmentBytes, parseMessage } from '../../mail/parse.ts';

function fixture(name: string): Buffer {
  return readFileSync(new URL(`../fixtures/mail/${name}`, import.meta.url));
}

function crlf(text: string): Buffer {
  return Buffer.from(text.replace(/\r?\n/g, '\r\n'));
}

describe('parseMessage: headers and addresses', () => {
  it('reads structured addresses with the domain lower-cased and the local part kept', async () => {
    const mail = await parseMessage(fixture('plain-text.eml'));
    assert.deepEqual(mail.from, { name: 'Alice Martin', email: 'Alice.Martin@example.org' });
    assert.deepEqual(mail.to, [
      { name: 'Support Bot', email: 'bot@agents.example.com' },
      { name: 'Ops, Team', email: 'ops@agents.example.com' },
    ]);
    assert.deepEqual(mail.cc, [{ name: '', email: 'carol@example.net' }]);
    assert.deepEqual(mail.reply_to, [{ name: 'Alice', email: 'alice+replies@example.org' }]);
  });

  it('keeps raw From and To header values, unfolded, for webhook payloads', async () => {
    // The To header of this fixture is folded over two lines.
    const mail = await parseMessage(fixture('plain-text.eml'));
    assert.equal(mail.raw_from, 'Alice Martin <Alice.Martin@Example.ORG>');
    assert.equal(mail.raw_to, 'Support Bot <bot@agents.example.com>, "Ops, Team" <ops@Agents.Example.com>');
  });

  it('gives the date as ISO and the Date header as written', async () => {
    const mail = await parseMessage(fixture('plain-text.eml'));
    assert.equal(mail.date, '2026-03-03T09:14:05.000Z');
    assert.equal(mail.date_header, 'Tue, 3 Mar 2026 10:14:05 +0100');
    assert.equal(mail.subject, 'Quarterly numbers for the board deck');
    assert.equal(mail.message_id, '<CAF9xk2p7Qw@mail.example.org>');
    assert.equal(mail.parse_error, null);
  });

  it('message without Message-ID or Date has null message_id, date and date_header', async () => {
    const mail = await parseMessage(fixture('no-message-id.eml'));
    assert.equal(mail.message_id, null);
    assert.equal(mail.date, null);
    assert.equal(mail.date_header, null);
    assert.equal(mail.in_reply_to, null);
    assert.deepEqual(mail.references, []);
    assert.equal(mail.text, 'Backup finished: 42 files, 0 errors.\n');
  });

  it('reply has In-Reply-To and References in header order', async () => {
    const mail = await parseMessage(fixture('reply-quoted.eml'));
    assert.equal(mail.in_reply_to, '<CAH1x=9Q+7uKkE_8nN@mail.gmail.com>');
    assert.deepEqual(mail.references, ['<rr_9f2k.1741517000@agents.example.com>', '<CAH1x=9Q+7uKkE_8nN@mail.gmail.com>']);
  });

  it('decodes RFC 2047 subject (B and Q words across a fold) and display names', async () => {
    const mail = await parseMessage(fixture('encoded-headers.eml'));
    assert.equal(mail.subject, 'Résumé de la réunion — préparation du budget');
    assert.deepEqual(mail.from, { name: 'François Lefèvre', email: 'francois@exemple.fr' });
    assert.deepEqual(mail.to, [{ name: '山田太郎', email: 'yamada@example.jp' }]);
    // The raw header stays encoded: it is the value as sent.
    assert.equal(mail.raw_from, '=?ISO-8859-1?Q?Fran=E7ois_Lef=E8vre?= <francois@exemple.fr>');
  });
});

describe('parseMessage: bodies', () => {
  it('plain message has its text and null html', async () => {
    const mail = await parseMessage(fixture('plain-text.eml'));
    assert.match(mail.text ?? '', /^Hi team,\n\nCould you send me the Q1 numbers/);
    assert.equal(mail.html, null);
    assert.deepEqual(mail.attachments, []);
  });

  it('multipart/alternative gives text and html from their own parts', async () => {
    // Both parts are UTF-8 quoted-printable with soft line breaks.
    const mail = await parseMessage(fixture('multipart-alternative.eml'));
    assert.equal(mail.text, 'Are you free for lunch on Friday? I was thinking of the café on Main\nStreet — around 12:30.\n\nBob\n');
    assert.equal(
      mail.html,
      '<div dir="ltr"><div>Are you free for lunch on Friday? I was thinking of the café on Main Street — around 12:30.</div><div><br></div><div>Bob</div></div>\n',
    );
  });

  it('html-only message has null text and the html part', async () => {
    // mailparser fills text from the html when no text/plain part exists; nothing may be synthesized.
    const mail = await parseMessage(fixture('html-only.eml'));
    assert.equal(mail.text, null);
    assert.match(mail.html ?? '', /<h1>Good news!<\/h1>/);
  });

  it('text and html parts side by side in multipart/mixed are not merged into each other', async () => {
    // Outside multipart/alternative mailparser renders each part into the other body.
    const raw = crlf(
      [
        'From: a@example.com',
        'Subject: mixed bodies',
        'Content-Type: multipart/mixed; boundary="m"',
        '',
        '--m',
        'Content-Type: text/plain',
        '',
        'plain part',
        '--m',
        'Content-Type: text/html',
        '',
        '<p>html part</p>',
        '--m--',
        '',
      ].join('\n'),
    );
    const mail = await parseMessage(raw);
    assert.equal(mail.text?.trim(), 'plain part');
    assert.equal(mail.html, '<p>html part</p>');
  });

  it('decodes an ISO-8859-1 quoted-printable body and headers', async () => {
    // =FC, =DF, =E9 and a soft line break inside "Uhr,".
    const mail = await parseMessage(fixture('iso-8859-1-qp.eml'));
    assert.equal(mail.subject, 'Grüße aus Köln');
    assert.equal(mail.from?.name, 'Jürgen Müller');
    assert.match(mail.text ?? '', /vielen Dank für die schnelle Antwort\. Das Café am Dom öffnet um 8 Uhr, wir/);
  });

  it('decodes a windows-1252 8bit body, including the bytes ISO-8859-1 lacks', async () => {
    // 0x80, 0x85, 0x92-0x96 are printable in windows-1252 and control codes in ISO-8859-1.
    const mail = await parseMessage(fixture('windows-1252-8bit.eml'));
    assert.equal(mail.subject, '“Final” price – €49');
    assert.equal(mail.from?.name, 'Renée O’Brien');
    assert.equal(mail.text, 'Hi,\n\nThe price is € 49 – that’s final. “No haggling”…\n\nRenée\n');
  });

  it('decodes an ISO-2022-JP body and encoded headers', async () => {
    // 7bit JIS escape sequences in the body and in B-encoded Subject and From, decoded via encoding-japanese.
    const mail = await parseMessage(fixture('iso-2022-jp.eml'));
    assert.equal(mail.subject, '会議の件');
    assert.equal(mail.from?.name, '佐藤');
    assert.match(mail.text ?? '', /こんにちは。来週の会議の件でご連絡します。\n日時：3月10日（火）14:00から/);
  });
});

describe('parseMessage: attachments', () => {
  it('nested mixed > related keeps the cid image inline and the pdf as an attachment', async () => {
    const mail = await parseMessage(fixture('mixed-related-pdf.eml'));
    assert.equal(mail.text, null);
    // cid: references stay as sent instead of being inlined as data: URLs.
    assert.match(mail.html ?? '', /<img src="cid:logo@acme\.example" alt="Acme">/);
    assert.equal(mail.attachments.length, 2);

    const [image, pdf] = mail.attachments;
    assert.equal(image?.content_type, 'image/png');
    assert.equal(image?.content_id, 'logo@acme.example');
    assert.equal(image?.filename, null);
    // No Content-Disposition, but the html refers to it by cid.
    assert.equal(image?.inline, true);
    assert.equal(image?.size, 70);
    assert.equal(image?.part_index, 0);

    assert.equal(pdf?.filename, 'INV-2026-0042.pdf');
    assert.equal(pdf?.content_type, 'application/pdf');
    assert.equal(pdf?.inline, false);
    assert.equal(pdf?.content_id, null);
    assert.equal(pdf?.size, 142);
    assert.equal(pdf?.content.subarray(0, 8).toString(), '%PDF-1.4');
    assert.equal(pdf?.part_index, 1);
  });

  it('part_index is the same every time the same message is parsed', async () => {
    const first = await parseMessage(fixture('mixed-related-pdf.eml'));
    const second = await parseMessage(fixture('mixed-related-pdf.eml'));
    assert.deepEqual(
      first.attachments.map((attachment) => [attachment.part_index, attachment.filename, attachment.content_id]),
      second.attachments.map((attachment) => [attachment.part_index, attachment.filename, attachment.content_id]),
    );
  });

  it('a mail handed to the parser in pieces loses nothing where a piece ends, whichever byte of a delimiter falls there', async () => {
    // Pieces are 64 KiB: each shift puts another byte of "\r\n--b\r\n" at the first piece's end.
    const pdf = Buffer.from(Array.from({ length: 100_000 }, (_, i) => (i * 7919) % 256));
    const head = 'From: a@example.org\r\nTo: b@example.org\r\nSubject: pieces\r\nMIME-Version: 1.0\r\n' +
      'Content-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n';
    for (let shift = 0; shift < 8; shift++) {
      const end = 64 * 1024 - shift - head.length;
      let text = '';
      while (text.length + 72 < end) text += `${'x'.repeat(70)}\r\n`;
      text += 'y'.repeat(end - text.length);
      const raw = Buffer.from(`${head}${text}\r\n--b\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename="a.pdf"\r\n` +
        `Content-Transfer-Encoding: base64\r\n\r\n${pdf.toString('base64').replace(/.{76}/g, '$&\r\n')}\r\n--b--\r\n`);
      assert.equal(raw.indexOf('\r\n--b\r\nContent-Type: application/pdf'), 64 * 1024 - shift);
      const mail = await parseMessage(raw);
      assert.equal(mail.text, text.replaceAll('\r\n', '\n'), `shift ${shift}: the text`);
      assert.equal(mail.attachments.length, 1, `shift ${shift}`);
      assert.ok(mail.attachments[0]!.content.equals(pdf), `shift ${shift}: the attachment's bytes`);
    }
  });

  it('attachmentBytes reads exactly the part parseMessage lists at each index, and nothing past the last', async () => {
    const many = crlf([
      'From: a@example.org', 'To: b@example.org', 'Subject: many parts', 'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="m"', '',
      '--m', 'Content-Type: text/plain', '', 'Body.',
      ...Array.from({ length: 5 }, (_, i) => [
        '--m', `Content-Type: application/octet-stream; name="p${i}.bin"`, 'Content-Transfer-Encoding: base64', '',
        Buffer.alloc(20_000 * i, i + 1).toString('base64').replace(/.{76}/g, '$&\n'),
      ]).flat(),
      '--m--', '',
    ].join('\n'));
    for (const raw of [many, fixture('mixed-related-pdf.eml'), fixture('forward-as-attachment.eml')]) {
      const listed = (await parseMessage(raw)).attachments;
      assert.ok(listed.length > 0);
      for (const a of listed) {
        const bytes = await attachmentBytes(raw, a.part_index);
        assert.ok(bytes?.equals(a.content), `part ${a.part_index} of ${listed.length}`);
      }
      assert.equal(await attachmentBytes(raw, listed.length), null);
    }
    assert.equal(await attachmentBytes(many, 0, { ...DEFAULT_PARSE_LIMITS, maxMessageBytes: 100 }), null, 'a mail over the parse limit lists no parts');
  });

  it('an attached message/rfc822 stays one attachment and does not leak into text', async () => {
    // By default mailparser descends into an inline message/rfc822 and renders its headers into text.
    const mail = await parseMessage(fixture('forward-as-attachment.eml'));
    assert.equal(mail.text, 'See the attached message from legal.\n');
    assert.equal(mail.attachments.length, 1);
    assert.equal(mail.attachments[0]?.content_type, 'message/rfc822');
    assert.match(mail.attachments[0]?.content.toString() ?? '', /Subject: Contract draft/);
  });
});

describe('parseMessage: malformed and hostile input', () => {
  it('malformed message (garbage headers, fake delimiter, truncated base64) parses best-effort', async () => {
    // Missing '>' in From, empty and bracket-garbage To entries, a header line without a colon,
    // an unparseable Date, a line that only starts like the boundary, no closing delimiter,
    // and a base64 attachment cut off mid-quantum.
    const mail = await parseMessage(fixture('malformed.eml'));
    assert.equal(mail.subject, 'Invoice attached (partial)');
    assert.deepEqual(mail.from, { name: 'Broken Sender', email: 'broken@example.com' });
    assert.deepEqual(mail.to, [{ name: '', email: 'bot@agents.example.com' }]);
    // mailparser substitutes the current time for an unparseable date; we report none.
    assert.equal(mail.date, null);
    assert.equal(mail.date_header, 'not a date at all');
    assert.match(mail.text ?? '', /^Please find the invoice attached\./);
    assert.equal(mail.attachments.length, 1);
    assert.equal(mail.attachments[0]?.filename, 'invoice.pdf');
    assert.ok((mail.attachments[0]?.size ?? 0) > 0);
  });

  it('multipart body whose boundary never occurs is flagged with parse_error, headers kept', async () => {
    // mailparser reads the whole body as preamble and returns an empty message without an error.
    const mail = await parseMessage(fixture('wrong-boundary.eml'));
    assert.equal(mail.parse_error, 'multipart/mixed body has no part delimited by its boundary');
    assert.equal(mail.subject, 'Report attached');
    assert.deepEqual(mail.from, { name: 'Mallory Sender', email: 'mallory@example.net' });
    assert.equal(mail.text, null);
    assert.equal(mail.html, null);
  });

  it('header block over the limit falls back to the raw headers with parse_error set', async () => {
    // mailsplit rejects a MIME header block over maxHeadSize with EMAXLEN; the message must not be lost.
    const junk = 'x'.repeat(DEFAULT_PARSE_LIMITS.maxHeaderBytes + 1024);
    const raw = crlf(
      [
        // 0x92 is a right single quote in windows-1252 and a control code in ISO-8859-1.
        'From: =?windows-1252?Q?Zo=EB_O=92Hara?= <zoe@Example.com>',
        'To: bot@agents.example.com',
        'Subject: =?UTF-8?B?SGVhZGVy?= =?UTF-8?B?IGZsb29k?=',
        'Date: Tue, 17 Mar 2026 10:00:00 +0000',
        'Message-ID: <flood-1@example.com>',
        `X-Junk: ${junk}`,
        '',
        'body',
      ].join('\n'),
    );
    const mail = await parseMessage(raw);
    assert.match(mail.parse_error ?? '', /EMAXLEN/);
    assert.equal(mail.subject, 'Header flood');
    assert.deepEqual(mail.from, { name: 'Zoë O’Hara', email: 'zoe@example.com' });
    assert.equal(mail.raw_to, 'bot@agents.example.com');
    assert.equal(mail.date, '2026-03-17T10:00:00.000Z');
    assert.equal(mail.message_id, '<flood-1@example.com>');
    assert.equal(mail.text, null);
  });

  it('more MIME parts than the limit falls back to the raw headers with parse_error set', async () => {
    const parts = Array.from({ length: 20 }, (_, i) => `--p\nContent-Type: text/plain\n\npart ${i}\n`).join('');
    const raw = crlf(`From: many@example.com\nSubject: Many parts\nContent-Type: multipart/mixed; boundary=p\n\n${parts}--p--\n`);
    const mail = await parseMessage(raw, { ...DEFAULT_PARSE_LIMITS, maxParts: 5 });
    assert.match(mail.parse_error ?? '', /child nodes/);
    assert.equal(mail.subject, 'Many parts');
    assert.equal(mail.from?.email, 'many@example.com');
  });

  it('message over the size limit is not parsed, its headers are read with parse_error set', async () => {
    const raw = fixture('reply-quoted.eml');
    const mail = await parseMessage(raw, { ...DEFAULT_PARSE_LIMITS, maxMessageBytes: 1000 });
    assert.match(mail.parse_error ?? '', /over the 1000 byte parse limit/);
    assert.equal(mail.subject, 'Re: Re: [ops] Deploy window for Thursday');
    assert.equal(mail.in_reply_to, '<CAH1x=9Q+7uKkE_8nN@mail.gmail.com>');
    assert.deepEqual(mail.references, ['<rr_9f2k.1741517000@agents.example.com>', '<CAH1x=9Q+7uKkE_8nN@mail.gmail.com>']);
    assert.equal(mail.text, null);
  });

  it('parse that outlasts the deadline falls back to the raw headers with parse_error set', async () => {
    // 8 MiB of base64 cannot be decoded within 1 ms; the SMTP transaction must not wait on it.
    const base64 = Buffer.alloc(6 * 1024 * 1024, 7).toString('base64').replace(/.{76}/g, '$&\r\n');
    const raw = Buffer.from(
      'From: slow@example.com\r\nSubject: Slow\r\nContent-Type: application/octet-stream\r\n' +
        `Content-Transfer-Encoding: base64\r\n\r\n${base64}\r\n`,
    );
    const mail = await parseMessage(raw, { ...DEFAULT_PARSE_LIMITS, timeoutMs: 1 });
    assert.equal(mail.parse_error, 'parse did not finish within 1 ms');
    assert.equal(mail.subject, 'Slow');
  });

  it('never throws on input that is not a message at all', async () => {
    for (const raw of [Buffer.alloc(0), Buffer.from('\r\n\r\n'), Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x80]), Buffer.from(':::\n\n')]) {
      const mail = await parseMessage(raw);
      assert.equal(mail.from, null);
      assert.equal(typeof mail.subject, 'string');
    }
  });
});
