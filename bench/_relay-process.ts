// The benches' relay process (started by _relay.ts), so that taking thousands of mails does not share
// the service's event loop: a relay is another machine's work, as the SMTP load and the SSE clients
// are other processes' (_smtp-load.ts, _sse-clients.ts). A real SMTP server on loopback that keeps,
// per Message-ID, when the whole message arrived (in ms since the epoch, performance.timeOrigin +
// performance.now(), the clock the parent reads too).
// Prints {"ready": true, "port": N}. Reads lines on stdin: {"watch": "<id>"} is answered with
// {"id": "<id>", "at": ms} once that message has arrived (at once if it has); {"cpu": true} with
// {"cpuMs": ms}, this process's CPU so far.
import readline from 'node:readline';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

const clock = () => performance.timeOrigin + performance.now();
const print = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

// A message can arrive before the parent asks for it: arrivals are kept.
const arrived = new Map<string, number>();
const watched = new Set<string>();
const answer = (id: string) => {
  watched.delete(id);
  print({ id, at: arrived.get(id) });
};

const server = new SMTPServer({
  disabledCommands: ['STARTTLS', 'AUTH'],
  authOptional: true,
  disableReverseLookup: true,
  logger: false,
  onData(stream, _session, callback) {
    let head = '';
    stream.on('data', (chunk: Buffer) => {
      if (head.length < 8192) head += chunk.toString('utf8', 0, Math.min(chunk.length, 8192));
    });
    stream.on('end', () => {
      const at = clock();
      const id = /^Message-ID:\s*(<[^>]+>)/im.exec(head)?.[1];
      if (id) {
        arrived.set(id, at);
        if (watched.has(id)) answer(id);
      }
      callback();
    });
  },
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
print({ ready: true, port: (server.server.address() as AddressInfo).port });

for await (const line of readline.createInterface({ input: process.stdin })) {
  const ask = JSON.parse(line) as { watch?: string; cpu?: boolean };
  if (ask.watch) {
    watched.add(ask.watch);
    if (arrived.has(ask.watch)) answer(ask.watch);
  }
  if (ask.cpu) {
    const used = process.cpuUsage();
    print({ cpuMs: (used.user + used.system) / 1000 });
  }
}
server.close();
