// SSE clients, run as their own process so that reading a thousand streams does not share the
// server's event loop (as the SMTP load runs apart, see _smtp-load.ts). Lean, as the SMTP load
// is: a bare HTTP/1.1 request on a socket, and events counted by their `event:` line, so the
// clients' own work stays small on a machine they share with the service they measure.
// Opens `clients` streams, prints {"ready": true}, then for each of `rounds` events prints the
// moment the first and the last stream had it, in ms since the epoch (performance.timeOrigin +
// performance.now(), the clock the parent process reads too), and at the end this process's CPU.
import net from 'node:net';

type Args = { base: string; path: string; token: string; clients: number; rounds: number };

const MARK = '\nevent: ';
const clock = () => performance.timeOrigin + performance.now();

type Stream = { arrivals: number[]; socket: net.Socket };

/** One stream: resolves once the answer's head says 200 and an event stream. */
function openStream(args: Args, onEvent: (count: number) => void): Promise<Stream> {
  const url = new URL(args.path, args.base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    socket.setNoDelay(true);
    const stream: Stream = { arrivals: [], socket };
    let head = '';
    let open = false;
    let tail = '';
    socket.on('connect', () =>
      socket.write(
        `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/event-stream\r\nAuthorization: Bearer ${args.token}\r\n\r\n`,
      ),
    );
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      let text = chunk.toString('latin1');
      if (!open) {
        head += text;
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        if (!/^HTTP\/1\.1 200 /.test(head) || !/content-type: text\/event-stream/i.test(head)) {
          reject(new Error(`stream did not open: ${head.split('\r\n')[0]}`));
          return;
        }
        open = true;
        text = head.slice(end + 4);
        resolve(stream);
      }
      // A mark split between two reads is found in the tail kept from the last one.
      const seen = tail + text;
      for (let at = seen.indexOf(MARK); at >= 0; at = seen.indexOf(MARK, at + 1)) {
        stream.arrivals.push(clock());
        onEvent(stream.arrivals.length);
      }
      tail = seen.slice(-(MARK.length - 1));
    });
  });
}

async function main(args: Args): Promise<void> {
  // reached[k]: how many streams have had k + 1 events.
  const reached: number[] = [];
  let waiting: { count: number; done: () => void } | null = null;
  const arrived = (count: number) => {
    reached[count - 1] = (reached[count - 1] ?? 0) + 1;
    if (waiting?.count === count && reached[count - 1] === args.clients) waiting.done();
  };
  const streams: Stream[] = [];
  for (let i = 0; i < args.clients; i += 100) {
    streams.push(...(await Promise.all(Array.from({ length: Math.min(100, args.clients - i) }, () => openStream(args, arrived)))));
  }
  console.log(JSON.stringify({ ready: true }));
  for (let round = 0; round < args.rounds; round++) {
    await new Promise<void>((resolve) => {
      waiting = { count: round + 1, done: resolve };
      if (reached[round] === args.clients) resolve();
    });
    const times = streams.map((s) => s.arrivals[round]!);
    console.log(JSON.stringify({ round, first: Math.min(...times), last: Math.max(...times) }));
  }
  for (const s of streams) s.socket.destroy();
  const cpu = process.cpuUsage();
  console.log(JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000 }));
}

main(JSON.parse(process.argv[2]!)).then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
