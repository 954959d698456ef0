// Opening a session with the relay: a relay that drops the connection at any step before the
// message is handed over fails the send as deferred, at once, with nothing handed over. A send
// that waited instead held its job, its transaction and a stopping service for ever.
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, test } from '../../testkit/test.ts';
import { RelayError, parseSmtpUrl, sendViaRelay } from '../../mail/outbound/relay.ts';

type Drop = 'close' | 'reset';

/**
 * A relay that speaks SMTP up to `step` (the first command it sees starting with it), then drops
 * the connection: a close (FIN) or a reset (RST). `before-greeting` drops before saying anything.
 */
async function droppingRelay(step: 'before-greeting' | 'EHLO' | 'AUTH', drop: Drop): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const dropNow = (socket: net.Socket) => (drop === 'reset' ? socket.resetAndDestroy() : socket.destroy());
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    if (step === 'before-greeting') return dropNow(socket);
    socket.write('220 relay.test ESMTP\r\n');
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      for (let at = buffered.indexOf('\r\n'); at >= 0; at = buffered.indexOf('\r\n')) {
        const line = buffered.slice(0, at);
        buffered = buffered.slice(at + 2);
        if (line.toUpperCase().startsWith(step)) return dropNow(socket);
        if (/^EHLO/i.test(line)) socket.write('250-relay.test\r\n250-AUTH PLAIN LOGIN\r\n250 8BITMIME\r\n');
        else socket.write('250 OK\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  const auth = step === 'AUTH' ? 'agent:secret@' : '';
  return {
    url: `smtp://${auth}127.0.0.1:${port}?ignore_tls=true`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

const envelope = { from: 'agent@agents.test', to: ['someone@elsewhere.test'] };
const raw = Buffer.from('From: agent@agents.test\r\nTo: someone@elsewhere.test\r\nSubject: hi\r\n\r\nhello\r\n');

for (const step of ['before-greeting', 'EHLO', 'AUTH'] as const) {
  for (const drop of ['close', 'reset'] as const) {
    const when = step === 'before-greeting' ? 'before its greeting' : `on ${step}`;
    test(`a relay that drops the connection (${drop}) ${when} fails the send as deferred, with nothing handed over`, async () => {
      const relay = await droppingRelay(step, drop);
      after(() => relay.close());
      let handedOver = false;
      const sent = sendViaRelay(parseSmtpUrl(relay.url), envelope, raw, async () => {
        handedOver = true;
      });
      await assert.rejects(sent, (err: unknown) => {
        assert.ok(err instanceof RelayError, `a RelayError, got ${String(err)}`);
        assert.equal(err.outcome, 'deferred');
        assert.equal(err.responseCode, null, 'the relay gave no reply to report');
        return true;
      });
      assert.equal(handedOver, false, 'the message was never about to be handed over');
    });
  }
}
