// The greeting of inbound SMTP: at once by default, or after SMTP_EARLY_TALKER_DELAY_MS, during
// which a client that talks first is refused.
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from '../../testkit/test.ts';
import { ConfigError, loadConfig } from '../../service/config.ts';
import { smtpReplies } from '../../testkit/smtp-replies.ts';
import { startTestService } from '../../testkit/service.ts';

/** Writes EHLO the moment the connection is open, without waiting for the greeting; the first `count` replies. */
async function talkFirst(port: number, count: number): Promise<string[]> {
  const socket = net.connect(port, '127.0.0.1');
  const { next } = smtpReplies(socket);
  socket.once('connect', () => socket.write('EHLO early.example\r\n'));
  try {
    const replies: string[] = [];
    while (replies.length < count) replies.push(await next());
    return replies;
  } finally {
    socket.destroy();
  }
}

/** Waits for the greeting, then says EHLO and QUIT; the replies. */
async function waitForGreeting(port: number): Promise<string[]> {
  const socket = net.connect(port, '127.0.0.1');
  const { next } = smtpReplies(socket);
  const replies = [await next()];
  socket.write('EHLO patient.example\r\n');
  replies.push(await next());
  socket.write('QUIT\r\n');
  replies.push(await next());
  socket.end();
  return replies;
}

test('by default the greeting comes at once: a client that sends EHLO before it is served, not refused', async () => {
  const svc = await startTestService({ roles: ['smtp'] });
  assert.equal(svc.config.smtpEarlyTalkerDelayMs, 0);
  for (let i = 0; i < 5; i++) {
    const [greeting, ehlo] = await talkFirst(svc.smtpPort!, 2);
    assert.match(greeting!, /^220 /);
    assert.match(ehlo!, /^250[- ]/);
  }
  await svc.stop();
});

test('with SMTP_EARLY_TALKER_DELAY_MS a client that talks before the greeting gets 421, one that waits is served', async () => {
  const svc = await startTestService({ roles: ['smtp'], env: { SMTP_EARLY_TALKER_DELAY_MS: '400' } });
  assert.equal(svc.config.smtpEarlyTalkerDelayMs, 400);
  const [refused] = await talkFirst(svc.smtpPort!, 1);
  assert.match(refused!, /^421 .*You talk too soon/);
  const [greeting, ehlo, quit] = await waitForGreeting(svc.smtpPort!);
  assert.match(greeting!, /^220 /);
  assert.match(ehlo!, /^250[- ]/);
  assert.match(quit!, /^221 /);
  await svc.stop();
});

test('SMTP_EARLY_TALKER_DELAY_MS must be whole milliseconds from 0 to 60000', () => {
  const env = { DATA_DIR: '/tmp/unused' };
  assert.equal(loadConfig({ ...env, SMTP_EARLY_TALKER_DELAY_MS: '250' }).smtpEarlyTalkerDelayMs, 250);
  for (const bad of ['-1', '1.5', 'soon', '60001']) {
    assert.throws(() => loadConfig({ ...env, SMTP_EARLY_TALKER_DELAY_MS: bad }), (err: Error) => err instanceof ConfigError && /SMTP_EARLY_TALKER_DELAY_MS/.test(err.message), bad);
  }
});
