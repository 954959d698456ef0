// The SDK's receiver-side verifier, against signatures made the way the delivery worker makes them.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { signatureHeader } from '../../actors/webhook-transport.ts';
import { checkWebhookSignature, verifyWebhook } from '../../packages/sdk/src/webhooks.ts';

const body = Buffer.from('{"event":"message.received","id":"evt_7","message":{"subject":"héllo"}}');
const t = 1_800_000_000;
const opts = { now: t + 10 };

test('accepts the signature over the raw bytes, given as bytes or as the same text', async () => {
  const header = signatureHeader(t, body, ['whsec_a']);
  assert.deepEqual(await checkWebhookSignature(body, header, 'whsec_a', opts), { ok: true, timestamp: t });
  assert.equal(await verifyWebhook(body.toString('utf8'), header, 'whsec_a', opts), true);
  assert.equal(await verifyWebhook(new Uint8Array(body), header.toUpperCase().replace('T=', 't=').replace(/V1=/g, 'v1='), 'whsec_a', opts), true);
});

test('any one of several v1 entries may match, in any position', async () => {
  const header = signatureHeader(t, body, ['whsec_new', 'whsec_old']);
  assert.equal(await verifyWebhook(body, header, 'whsec_new', opts), true);
  assert.equal(await verifyWebhook(body, header, 'whsec_old', opts), true);
  assert.deepEqual(await checkWebhookSignature(body, header, 'whsec_other', opts), { ok: false, reason: 'mismatch' });
});

test('refuses a changed body, another timestamp, or a t outside the tolerance either way', async () => {
  const header = signatureHeader(t, body, ['whsec_a']);
  assert.equal(await verifyWebhook(Buffer.from(body.toString().replace('7', '8')), header, 'whsec_a', opts), false);
  assert.equal(await verifyWebhook(body, header.replace(`t=${t}`, `t=${t + 1}`), 'whsec_a', { now: t }), false);
  assert.deepEqual(await checkWebhookSignature(body, header, 'whsec_a', { now: t + 301 }), { ok: false, reason: 'stale' });
  assert.deepEqual(await checkWebhookSignature(body, header, 'whsec_a', { now: t - 301 }), { ok: false, reason: 'stale' });
  assert.equal(await verifyWebhook(body, header, 'whsec_a', { now: t + 301, toleranceSeconds: 600 }), true);
});

test('a header without t or without a well-formed v1 is malformed', async () => {
  for (const header of ['', 'v1=abc', `t=${t}`, `t=${t},v1=zz`, `t=soon,v1=${'0'.repeat(64)}`, `t=${t},v0=${'0'.repeat(64)}`]) {
    assert.deepEqual(await checkWebhookSignature(body, header, 'whsec_a', opts), { ok: false, reason: 'malformed' }, header);
  }
});
