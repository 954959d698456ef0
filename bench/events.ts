// `npm run bench -- events [--messages N] [--clients N] [--rounds N]`
// 1. Webhook latency: from the end of SMTP DATA (the client's final ".") to the moment the webhook
//    receiver gets the POST, one message at a time over one SMTP connection.
// 2. Stream fan-out: N open SSE clients, one event (sent over SMTP), the time until every client has it,
//    and the time from the first client having it to the last. The clients run in a process of
//    their own (_sse-clients.ts), as they would on other machines: reading a thousand streams in
//    the service's process would add their work to the service's.
// The service runs in this process on one PostgreSQL (DATABASE_URL, or an embedded one in a temp folder).
import { spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ORG_OWNER } from '../machines/policy/console-roles.ts';
import { issueEnrollmentToken } from '../actors/enrollment.ts';
import { createOrgWithOwner } from '../actors/tenancy.ts';
import { loadConfig } from '../service/config.ts';
import { startService } from '../roles/start.ts';
import { benchDatabase, benchEnv } from './_service.ts';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
// Rounds not counted, as the webhook's first ten messages are not: they warm the streams' code up.
const WARM_ROUNDS = 2;
const ms = (n: number) => `${n.toFixed(1)} ms`;

/** A minimal SMTP client that reports when the end-of-data marker left. */
async function smtpSession(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  let buffer = '';
  const waiting: Array<(reply: string) => void> = [];
  socket.on('data', (chunk) => {
    buffer += chunk.toString('utf8');
    let m: RegExpExecArray | null;
    while ((m = /^(\d{3}) .*\r\n/m.exec(buffer))) {
      const end = m.index + m[0].length;
      const reply = buffer.slice(0, end);
      buffer = buffer.slice(end);
      waiting.shift()?.(reply);
    }
  });
  const reply = () => new Promise<string>((resolve) => waiting.push(resolve));
  const command = async (line: string, expect: RegExp) => {
    const r = reply();
    socket.write(`${line}\r\n`);
    const got = await r;
    if (!expect.test(got)) throw new Error(`SMTP ${line.split(' ')[0]}: ${got.trim()}`);
  };
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const banner = await reply();
  if (!banner.startsWith('220')) throw new Error(`SMTP banner: ${banner}`);
  await command('EHLO bench.example', /^250/);
  return {
    /** Sends one message; resolves with the time the final "." was written, after the 250. */
    async send(to: string, subject: string): Promise<number> {
      await command('MAIL FROM:<bench@example.com>', /^250/);
      await command(`RCPT TO:<${to}>`, /^250/);
      await command('DATA', /^354/);
      const message = [
        'From: Bench <bench@example.com>',
        `To: ${to}`,
        `Subject: ${subject}`,
        `Message-ID: <${subject}@bench.example>`,
        `Date: ${new Date().toUTCString()}`,
        '',
        'Your code is 123456.',
      ].join('\r\n');
      const done = reply();
      socket.write(`${message}\r\n`);
      const endOfData = performance.now();
      socket.write('.\r\n');
      const got = await done;
      if (!got.startsWith('250')) throw new Error(`SMTP end of DATA: ${got.trim()}`);
      return endOfData;
    },
    close: () => socket.end('QUIT\r\n'),
  };
}

export async function run(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { messages: { type: 'string', default: '200' }, clients: { type: 'string', default: '1000' }, rounds: { type: 'string', default: '20' } },
  });
  const messages = Number(values.messages);
  const clients = Number(values.clients);
  const rounds = Number(values.rounds);

  const database = await benchDatabase();
  const config = loadConfig(benchEnv(database.dataDir, { WEBHOOK_ALLOW_PRIVATE: 'true', RATE_LIMIT_PER_MINUTE: '1000000' }));
  const svc = await startService(config, { databaseUrl: database.url });
  const base = svc.httpUrl!;
  const post = async (p: string, body: unknown, token?: string) => {
    const res = await fetch(base + p, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as any;
    if (res.status >= 300) throw new Error(`${p}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };

  const { org, project } = await createOrgWithOwner(svc.services.db, { name: 'Bench', owner_email: 'bench@example.com', plan_tier: 'enterprise' });
  const token = await issueEnrollmentToken(svc.services.db, { issuer: ORG_OWNER, org_id: org.id, project_id: project.id, reusable: true, created_by: 'bench', now: new Date() });
  const { agent_key: key } = await post('/v1/enroll', { token: token.raw, agent_handle: 'bench-agent' });
  const inbox = await post('/v1/inboxes', { username: 'bench' }, key);

  // The webhook receiver: arrival time per subject.
  const arrivals = new Map<string, number>();
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      res.end('ok');
      const subject = JSON.parse(Buffer.concat(chunks).toString('utf8')).message.subject as string;
      arrivals.set(subject, at);
      waiters.get(subject)?.();
    });
  });
  const waiters = new Map<string, () => void>();
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  await post('/v1/webhooks', { url: `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}/hook`, inbox: inbox.address }, key);

  const smtp = await smtpSession(svc.smtpPort!);
  const latencies: number[] = [];
  for (let i = 0; i < messages + 10; i++) {
    const subject = `bench-${i}`;
    const arrived = new Promise<void>((resolve) => waiters.set(subject, resolve));
    const endOfData = await smtp.send(inbox.address, subject);
    await arrived;
    // The first ten warm connections and caches up.
    if (i >= 10) latencies.push(arrivals.get(subject)! - endOfData);
  }
  latencies.sort((a, b) => a - b);
  console.log(`webhook: SMTP end of DATA → receiver request, ${messages} messages one at a time`);
  console.log(`  p50 ${ms(percentile(latencies, 50))}  p99 ${ms(percentile(latencies, 99))}  max ${ms(latencies[latencies.length - 1]!)}  (target p50 < 50 ms)`);

  // Fan-out: every client holds a stream, in a process of its own (_sse-clients.ts); each round
  // sends one message and waits for the clients' report of when the first and the last had it.
  const opened = performance.now();
  const clientsProcess = sseClients({ base, path: '/v1/events/stream?types=message.received', token: key, clients, rounds: WARM_ROUNDS + rounds });
  await clientsProcess.next<{ ready: true }>();
  console.log(`stream: ${clients} SSE clients open in ${ms(performance.now() - opened)} (a process of their own)`);
  const fanout: number[] = [];
  const firsts: number[] = [];
  const spreads: number[] = [];
  for (let round = 0; round < WARM_ROUNDS + rounds; round++) {
    const endOfData = performance.timeOrigin + (await smtp.send(inbox.address, `fanout-${round}`));
    const { first, last } = await clientsProcess.next<{ first: number; last: number }>();
    if (round < WARM_ROUNDS) continue;
    fanout.push(last - endOfData);
    firsts.push(first - endOfData);
    spreads.push(last - first);
  }
  fanout.sort((a, b) => a - b);
  spreads.sort((a, b) => a - b);
  console.log(`stream: one event (SMTP end of DATA) → all ${clients} clients have it, ${rounds} rounds after ${WARM_ROUNDS} not counted`);
  console.log(
    `  median ${ms(percentile(fanout, 50))}  p99 ${ms(percentile(fanout, 99))}  (first client after ${ms(Math.min(...firsts))})  (target median <= 50 ms)`,
  );
  // The fan-out alone: from the first client having the event to the last.
  console.log(`  first client → last client: median ${ms(percentile(spreads, 50))}  p99 ${ms(percentile(spreads, 99))}`);
  const { cpuMs } = await clientsProcess.next<{ cpuMs: number }>();
  console.log(`  (the clients' process used ${cpuMs.toFixed(0)} ms of CPU in all, opening the streams included)`);

  await clientsProcess.exited;
  smtp.close();
  receiver.close();
  await svc.stop();
  await database.close();
}

/** The SSE clients' process: `next()` resolves with each line it prints, parsed. */
function sseClients(args: { base: string; path: string; token: string; clients: number; rounds: number }) {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, '_sse-clients.ts'), JSON.stringify(args)], {
    cwd: path.resolve(here, '..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`SSE clients exited ${code}`)))),
  );
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    async next<T>(): Promise<T> {
      const line = await Promise.race([lines.next(), exited.then(() => ({ done: true, value: '' }))]);
      if (line.done) throw new Error('SSE clients ended early');
      return JSON.parse(line.value);
    },
    exited,
  };
}
