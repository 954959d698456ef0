// A large send body's attachments are decoded from the request's bytes (http/attachment-bytes.ts),
// never held as one string. What the service stores is exactly what parsing the whole body would
// have given: the attachments' bytes, and every other string as it was sent.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { test } from '../../testkit/test.ts';
import { LIFT_MIN_BYTES, decodeSpan, liftBase64Strings, placeDecoded, restoreLifted } from '../../http/attachment-bytes.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { INTENT, agentWithInbox, deliverInbound } from '../reviews/setup.ts';

/** What the pipeline makes of a body's bytes: lifted, parsed, put back, decoded into place. */
function parseLifted(raw: Buffer, minBytes?: number): unknown {
  const lifted = liftBase64Strings(raw, minBytes);
  if (!lifted) return JSON.parse(raw.toString('utf8'));
  const body = JSON.parse(lifted.text);
  placeDecoded(body, restoreLifted(body, lifted));
  return body;
}

/** A parsed body as the send reads it: each attachment's content in bytes (decoded here when still base64). */
function asSendReadsIt(body: any): any {
  for (const a of Array.isArray(body) ? [] : body.attachments ?? []) if (typeof a.content === 'string') a.content = Buffer.from(a.content, 'base64');
  return body;
}

test('a span of base64 decodes in place to the bytes Buffer.from decodes, across chunk boundaries, padded or not', () => {
  for (const size of [0, 1, 2, 3, 4, 100, 786_431, 786_432, 786_433, 3 * 786_432 + 2]) {
    const bytes = crypto.randomBytes(size);
    const unpadded = bytes.toString('base64').replace(/=+$/, '');
    for (const text of [bytes.toString('base64'), unpadded, `${unpadded}A`]) {
      const raw = Buffer.from(`"${text}"`, 'latin1');
      const decoded = decodeSpan(raw, { start: 1, end: raw.length - 1 });
      assert.deepEqual(decoded, Buffer.from(text, 'base64'), `${size} bytes`);
      assert.equal(decoded.buffer, raw.buffer, 'decoded into the body\'s own bytes, not a copy');
    }
  }
});

test('long base64 strings are lifted out of the text; short ones, and any with an escape, a space or a character after `=`, stay in it', () => {
  const long = crypto.randomBytes(3000).toString('base64');
  const raw = Buffer.from(
    JSON.stringify({
      text: 'Grüße, "quoted" \\ back\\slash ✓',
      attachments: [
        { filename: 'a.bin', content: long },
        { content: 'c2hvcnQ=' },
        { content: `${long.slice(0, 2000)} ${long.slice(2000)}` },
        { content: long.replace(/\//g, '\\/') },
        { content: `${long.slice(0, 2000)}=A${long.slice(2000)}` },
      ],
    }),
  );
  const lifted = liftBase64Strings(raw, 1024)!;
  assert.equal(lifted.spans.size, 1, 'only the long, plain base64 string is lifted');
  assert.ok(!lifted.text.includes(long), 'its base64 is not in the text');
  assert.ok(lifted.text.length < raw.length - long.length + 100);
  assert.equal(liftBase64Strings(Buffer.from(JSON.stringify({ text: 'no long strings' })), 1024), null);
});

test('the parsed body equals the whole body parsed: attachments decoded, long base64 elsewhere (values, keys, nested) put back as sent', () => {
  const b64 = () => crypto.randomBytes(2000).toString('base64');
  const bodies = [
    { text: b64(), subject: 'Hi', attachments: [{ content: b64() }, { content: b64(), filename: 'x' }] },
    { intent: { summary: b64(), meta: { goal: [b64(), 'a'] } }, attachments: [{ content: 'AAAA' }] },
    { [b64()]: 1, attachments: [] },
    { attachments: [{ content: b64(), note: b64() }], other: { attachments: [{ content: b64() }] } },
    { text: `"lifted:${'0'.repeat(24)}:0"`, attachments: [{ content: `lifted:${'0'.repeat(24)}:0` }] },
    { text: `${b64()} and a space`, attachments: [{ content: `${b64()}\n${b64()}` }, { content: `${b64().replace(/=+$/, '')}A` }] },
    [b64(), { attachments: [{ content: b64() }] }],
  ];
  for (const body of bodies) {
    const raw = Buffer.from(JSON.stringify(body));
    // Read first: the attachments are decoded into the body's own bytes.
    const whole = asSendReadsIt(JSON.parse(raw.toString('utf8')));
    assert.deepEqual(asSendReadsIt(parseLifted(raw, 1024)), whole);
  }
});

test('a body cut off inside a long base64 string is still refused as JSON', () => {
  const raw = Buffer.from(`{"attachments":[{"content":"${crypto.randomBytes(3000).toString('base64')}`);
  assert.throws(() => parseLifted(raw, 1024), SyntaxError);
});

// Through the service: the three operations whose bodies carry attachments, each with a body over
// 1 MiB, so the large-body path is the one taken.
const svc = await startTestService({ roles: ['api', 'smtp'] });
const tenant = await createTenant(svc, { plan: 'enterprise' });
const db = svc.services.db;
const agent = await agentWithInbox(svc, tenant);
await deliverInbound(svc, agent.address, { from: 'dana@acme.example', subject: 'Demo?', text: 'Can we meet?' });
const inbound = (await svc.api.get(`/v1/inboxes/${agent.inboxId}/messages`, agent.key)).body.data[0];

const OPERATIONS: Array<[string, string, Record<string, unknown>]> = [
  ['send', `/v1/inboxes/${agent.inboxId}/send`, { to: 'dana@acme.example' }],
  ['reply', `/v1/inboxes/${agent.inboxId}/reply`, { thread_id: inbound.thread_id }],
  ['forward', `/v1/inboxes/${agent.inboxId}/messages/${inbound.id}/forward`, { to: 'ops@acme.example' }],
];

async function storedAttachments(reviewId: string): Promise<Array<{ filename: string | null; content: Buffer }>> {
  const { rows } = await db.query(`SELECT filename, content FROM review_attachments WHERE review_id = $1 ORDER BY position`, [reviewId]);
  return rows;
}

for (const [name, path, base] of OPERATIONS) {
  test(`${name}: a body over 1 MiB stores each attachment's exact bytes and a long base64-only text as sent`, async () => {
    const big = crypto.randomBytes(900 * 1024);
    const small = crypto.randomBytes(10);
    const slashes = crypto.randomBytes(LIFT_MIN_BYTES);
    const text = crypto.randomBytes(LIFT_MIN_BYTES).toString('base64').replace(/=+$/, '');
    // The third attachment's base64 escapes its slashes (`\/`, as some encoders write JSON): it is parsed as usual.
    const raw = JSON.stringify({
      ...base,
      text,
      intent: INTENT,
      attachments: [
        { filename: 'big.bin', content: big.toString('base64') },
        { filename: 'small.bin', content: small.toString('base64') },
        { filename: 'slashes.bin', content: slashes.toString('base64') },
      ],
    }).replace(/"content":"([^"]*)"}]/, (_, b64: string) => `"content":"${b64.replace(/\//g, '\\/')}"}]`);
    assert.ok(raw.length > 1024 * 1024, 'the body takes the large-body path');
    const r = await svc.api.request('POST', path, { raw, token: agent.key });
    assert.equal(r.status, 202, r.text);
    const stored = await storedAttachments(r.body.review_id);
    assert.deepEqual(stored.map((a) => [a.filename, a.content]), [['big.bin', big], ['small.bin', small], ['slashes.bin', slashes]]);
    const draft = r.body.review.draft;
    assert.deepEqual(draft.attachments.map((a: any) => [a.filename, a.size]), [['big.bin', big.length], ['small.bin', 10], ['slashes.bin', slashes.length]]);
    // A forward's text is the note, then the forwarded message.
    if (name === 'forward') assert.ok(draft.text.startsWith(text), 'the text comes first, as sent');
    else assert.equal(draft.text, text);
  });

  test(`${name}: a large body's defects are answered as before: a space in an attachment's base64, an unknown key beside it`, async () => {
    const b64 = crypto.randomBytes(800 * 1024).toString('base64');
    const spaced = JSON.stringify({ ...base, text: 'x', intent: INTENT, attachments: [{ content: `${b64.slice(0, 1000)} ${b64.slice(1000)}!` }, { content: b64 }] });
    const bad = await svc.api.request('POST', path, { raw: spaced, token: agent.key });
    assert.equal(bad.status, 400, bad.text);
    assert.deepEqual(bad.body.errors.map((e: any) => [e.field, e.code]), [['attachments.0.content', 'invalid_format']]);
    const unknown = JSON.stringify({ ...base, text: 'x', intent: INTENT, attachments: [{ content: b64, extra: b64 }, { content: b64 }] });
    const refused = await svc.api.request('POST', path, { raw: unknown, token: agent.key });
    assert.equal(refused.status, 400, refused.text);
    assert.deepEqual(refused.body.errors.map((e: any) => [e.field, e.code]), [['attachments.0.extra', 'unknown_key']]);
  });
}
