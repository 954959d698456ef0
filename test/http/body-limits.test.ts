// Send, reply, forward and revise bodies are bounded by what a 25 MiB message needs (its
// attachments in base64, a third larger, and the JSON around them). They used to accept 40 MiB,
// and a Content-Length between the two was read whole before anything looked at it.
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from '../../testkit/test.ts';
import { MAX_MESSAGE_BYTES } from '../../actors/send.ts';
import { loadApiDocument } from '../../http/openapi.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';

const svc = await startTestService({ roles: ['api'] });
const tenant = await createTenant(svc, { plan: 'enterprise' });
const { agentKey } = await tenant.enroll('big-sender');
const inbox = (await svc.api.post('/v1/inboxes', {}, agentKey)).body as { id: string };
const LIMIT = 35 * 1024 * 1024;

/** Writes the head, then the body chunks; resolves with the first response the server sends. */
async function exchange(head: string, chunks: Buffer[] = []): Promise<{ status: number; body: any }> {
  const { port } = new URL(svc.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  socket.on('error', () => {});
  let received = '';
  const answer = new Promise<{ status: number; body: any }>((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error(`no answer within 20 s; received: ${received.slice(0, 200)}`)), 20_000);
    socket.on('data', (c: Buffer) => {
      received += c.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(received.slice(0, end))?.[1];
      if (end < 0 || length === undefined || received.length < end + 4 + Number(length)) return;
      clearTimeout(deadline);
      resolve({ status: Number(received.split(' ')[1]), body: JSON.parse(received.slice(end + 4, end + 4 + Number(length))) });
    });
  });
  socket.write(head);
  for (const chunk of chunks) {
    if (socket.destroyed) break;
    if (!socket.write(chunk)) await new Promise((resolve) => socket.once('drain', resolve).once('close', resolve));
  }
  try {
    return await answer;
  } finally {
    socket.destroy();
  }
}

const sendHead = (headers: string) =>
  `POST /v1/inboxes/${inbox.id}/send HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${agentKey}\r\nContent-Type: application/json\r\n${headers}\r\n`;

function assertTooLarge(r: { status: number; body: any }): void {
  assert.equal(r.status, 413);
  assert.equal(r.body.code, 'bad_request');
  assert.equal(r.body.errors[0].field, 'body');
  assert.equal(r.body.errors[0].code, 'too_large');
}

test('the body limit of send, reply, forward and revise fits a 25 MiB message in base64 and little more', () => {
  const large = loadApiDocument().operations.filter((op) => op.maxBodyBytes > 1024 * 1024);
  assert.deepEqual(large.map((op) => op.operationId).length, 4);
  const base64 = 4 * Math.ceil(MAX_MESSAGE_BYTES / 3);
  for (const op of large) {
    assert.equal(op.maxBodyBytes, LIMIT, op.operationId);
    assert.ok(op.maxBodyBytes >= base64 && op.maxBodyBytes < base64 + 2 * 1024 * 1024, op.operationId);
  }
});

test('a send whose Content-Length passes 35 MiB is refused 413 before any of its body is sent', async () => {
  const r = await exchange(sendHead(`Content-Length: ${38 * 1024 * 1024}\r\n`));
  assertTooLarge(r);
});

test('a chunked send is refused 413 once it passes 35 MiB', async () => {
  const chunkOf = (data: Buffer) => Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]);
  const mib = chunkOf(Buffer.alloc(1024 * 1024, 0x61));
  const chunks = [chunkOf(Buffer.from('{"to":["a@example.com"],"text":"')), ...Array.from({ length: 36 }, () => mib), Buffer.from('0\r\n\r\n')];
  const r = await exchange(sendHead('Transfer-Encoding: chunked\r\n'), chunks);
  assertTooLarge(r);
});

test('a body just under the limit is read and judged on its content', async () => {
  const body = JSON.stringify({ to: ['a@example.com'], text: 'x'.repeat(LIMIT - 100), unknown: true });
  const r = await exchange(sendHead(`Content-Length: ${Buffer.byteLength(body)}\r\n`), [Buffer.from(body)]);
  assert.equal(r.status, 400);
  assert.equal(r.body.errors.find((e: any) => e.code === 'unknown_key')?.field, 'unknown');
});
