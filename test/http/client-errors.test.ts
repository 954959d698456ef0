// Requests that Node's HTTP parser refuses never reach the application. They used to be answered
// with a bare status line and an empty body (431 for a 64 KB header, 400 for a bad Content-Length
// or bad chunking); every answer is problem+json now. Raw sockets, since fetch would not send them.
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from '../../testkit/test.ts';
import { startTestService } from '../../testkit/service.ts';

const svc = await startTestService({ roles: ['api'] });
const { port } = new URL(svc.url);

/** Writes the bytes, then reads until the server closes: status, headers and the parsed body. */
async function exchange(request: string): Promise<{ status: number; headers: Record<string, string>; body: any }> {
  const socket = net.connect(Number(port), '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  socket.on('error', () => {}); // the server may reset after answering; what it sent is kept
  socket.write(request);
  await new Promise((resolve) => socket.on('close', resolve));
  const text = Buffer.concat(chunks).toString('utf8');
  const [head = '', body = ''] = text.split('\r\n\r\n', 2);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  assert.ok(body, `an empty body after: ${statusLine}`);
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) };
}

function assertProblem(r: { status: number; headers: Record<string, string>; body: any }, status: number): void {
  assert.equal(r.status, status);
  assert.equal(r.headers['content-type'], 'application/problem+json');
  assert.equal(r.body.status, status);
  assert.equal(r.body.code, 'bad_request');
  assert.match(r.body.type, /\/problems\/bad_request$/);
  assert.ok(r.body.title);
  assert.ok(r.body.detail);
  assert.match(r.body.request_id, /^req_/);
}

test('a request with 64 KB of headers is answered 431 with problem+json', async () => {
  const r = await exchange(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`);
  assertProblem(r, 431);
});

test('a Content-Length that is not a number is answered 400 with problem+json', async () => {
  const r = await exchange('POST /v1/enroll HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: twelve\r\n\r\n{}');
  assertProblem(r, 400);
});

test('a body both chunked and with a Content-Length is answered 400 with problem+json', async () => {
  const r = await exchange('POST /v1/enroll HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n');
  assertProblem(r, 400);
});

test('a chunked body with a malformed chunk size is answered 400 with problem+json', async () => {
  const r = await exchange('POST /v1/enroll HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n');
  assertProblem(r, 400);
});

test('a request line that is not HTTP is answered 400 with problem+json', async () => {
  const r = await exchange('HELLO THERE\r\n\r\n');
  assertProblem(r, 400);
});

test('a NUL in a header value is answered 400 with problem+json', async () => {
  const r = await exchange('GET /v1/inboxes HTTP/1.1\r\nHost: x\r\nIdempotency-Key: a\u0000b\r\n\r\n');
  assertProblem(r, 400);
});
