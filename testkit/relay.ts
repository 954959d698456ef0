// A real SMTP relay on loopback for the Review Loop tests: it records what it receives and can
// be told to refuse, defer, drop the connection after DATA or hold a stage until released.
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';

export type RelayMode = 'accept' | 'refuse' | 'defer-once' | 'drop-after-data' | 'hold-data' | 'hold-greeting';

export type Received = { from: string; to: string[]; raw: Buffer; mail: ParsedMail; at: number };

export type Relay = {
  url: string;
  port: number;
  received: Received[];
  mode: RelayMode;
  /** Resolves when the relay reaches the held stage (hold-* modes). */
  held: Promise<void>;
  /** Lets a held stage go on. */
  release(): void;
  close(): Promise<void>;
};

export async function startRelay(mode: RelayMode = 'accept'): Promise<Relay> {
  let reachHeld!: () => void;
  let release!: () => void;
  const held = new Promise<void>((r) => (reachHeld = r));
  const released = new Promise<void>((r) => (release = r));
  let deferred = false;
  const relay: Relay = {
    url: '',
    port: 0,
    received: [],
    mode,
    held,
    release: () => release(),
    close: () =>
      new Promise((r) => {
        server.close(() => r());
        // The service keeps sessions open between messages; end them rather than wait for them.
        for (const c of connectionsOf(server)) c._socket.destroy();
      }),
  };
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    disableReverseLookup: true,
    logger: false,
    onConnect(_session, callback) {
      if (relay.mode === 'hold-greeting') {
        reachHeld();
        released.then(() => callback());
        return;
      }
      callback();
    },
    onData(stream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        const raw = Buffer.concat(chunks);
        if (relay.mode === 'refuse') return callback(Object.assign(new Error('550 5.7.1 Message refused by policy'), { responseCode: 550 }));
        if (relay.mode === 'defer-once' && !deferred) {
          deferred = true;
          return callback(Object.assign(new Error('451 4.3.0 Try again later'), { responseCode: 451 }));
        }
        const record = async () => {
          relay.received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            mail: await simpleParser(raw),
            at: Date.now(),
          });
        };
        if (relay.mode === 'drop-after-data') {
          await record();
          // The whole message arrived; the client never hears whether it was accepted.
          return dropConnection(server, session.id);
        }
        if (relay.mode === 'hold-data') {
          await record();
          reachHeld();
          await released;
        } else {
          await record();
        }
        callback();
      });
    },
  });
  // A sender that dies mid-session (a SIGKILLed worker) resets its connection: that ends the
  // session, not the relay.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  relay.port = (server.server.address() as AddressInfo).port;
  relay.url = `smtp://127.0.0.1:${relay.port}`;
  return relay;
}

const connectionsOf = (server: SMTPServer) =>
  (server as unknown as { connections: Set<{ id: string; _socket: { destroy(): void } }> }).connections;

function dropConnection(server: SMTPServer, sessionId: string): void {
  for (const c of connectionsOf(server)) if (c.id === sessionId) c._socket.destroy();
}
