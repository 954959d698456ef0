// What inbound SMTP logs at info: one line for a stored message, and a client that hangs up is
// no error.
import assert from 'node:assert/strict';
import net from 'node:net';
import { PassThrough } from 'node:stream';
import { test } from '../../testkit/test.ts';
import { createLogger } from '../../service/logger.ts';
import { sendMail } from '../../testkit/mail.ts';
import { smtpReplies } from '../../testkit/smtp-replies.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';

type Line = { level: number; msg: string; component?: string; err?: unknown; [k: string]: unknown };
const lines: Line[] = [];
const sink = new PassThrough();
let partial = '';
sink.on('data', (chunk: Buffer) => {
  const text = partial + chunk.toString('utf8');
  const complete = text.split('\n');
  partial = complete.pop()!;
  for (const l of complete) if (l) lines.push(JSON.parse(l));
});
const svc = await startTestService({ roles: ['api', 'smtp'], log: createLogger('info', sink) });
const tenant = await createTenant(svc, { plan: 'enterprise' });
const { agentKey } = await tenant.enroll('log-reader');
const INFO = 30;
const WARN = 40;

test('a stored message is one info line naming the client and the stored ids; the connection itself logs nothing at info', async () => {
  const inbox = (await svc.api.post('/v1/inboxes', {}, agentKey)).body as { address: string };
  const from = lines.length;
  const info = await sendMail(svc, { from: 'ada@example.org', to: inbox.address, subject: 'Logged once', text: 'Hello.\n' });
  assert.match(info.response, /^250 /);
  // Logged before the 250 is written.
  const mine = lines.slice(from);
  const stored = mine.filter((l) => l.msg === 'message stored');
  assert.equal(stored.length, 1, JSON.stringify(mine));
  assert.equal(stored[0]!.client, '127.0.0.1');
  assert.match(String((stored[0]!.messages as string[])[0]), /^msg_/);
  assert.deepEqual(mine.filter((l) => l.component === 'smtp-server'), [], 'no per-connection lines at info');
});

test('a client that resets its connection in the middle of a transaction is one info line, with no error and no stack', async () => {
  const inbox = (await svc.api.post('/v1/inboxes', {}, agentKey)).body as { address: string };
  const from = lines.length;
  const socket = net.connect(svc.smtpPort!, '127.0.0.1');
  const { next } = smtpReplies(socket);
  assert.match(await next(), /^220 /);
  socket.write('EHLO gone.example\r\n');
  assert.match(await next(), /^250/);
  socket.write(`MAIL FROM:<gone@example.org>\r\nRCPT TO:<${inbox.address}>\r\n`);
  assert.match(await next(), /^250/);
  assert.match(await next(), /^250/);
  socket.resetAndDestroy();
  await waitFor(() => lines.slice(from).some((l) => l.msg === 'the client hung up'), 'the hang-up is logged');
  const mine = lines.slice(from);
  assert.deepEqual(mine.filter((l) => l.level >= WARN), [], 'nothing at warn or above');
  const hungUp = mine.filter((l) => l.msg === 'the client hung up');
  assert.equal(hungUp.length, 1);
  assert.equal(hungUp[0]!.level, INFO);
  assert.equal(hungUp[0]!.code, 'ECONNRESET');
  assert.equal(hungUp[0]!.err, undefined, 'no error object, so no stack');
});
