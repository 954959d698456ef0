// `npm run bench -- inbound [--messages N] [--large N] [--per-message N] [--waits N] [--soak N] [--no-maildev] [--no-durable] [--auth on|off]`
//
// Receiving, measured end to end on this machine:
//  1. messages stored per second over SMTP, 8 senders at once: 10 KB and 200 KB messages over
//     connections reused, and 10 KB with a connection of its own for each message; the same loads
//     against MailDev 3 (installed into .bench/maildev on first use), each printed beside ours
//     with the ratio and the CPU each side spent a message; and against a durable reference
//     (_durable-mta.ts: each message written to a Maildir file, fsync'd before its 250), the least
//     a server that keeps what it accepted must do;
//  2. wait-for-email latency from the end of DATA to the HTTP answer (p50, p99);
//  3. with `--soak N`, last: N more 10 KB messages stored one after another (1,000,000 for a
//     store of a million), with the service's RSS and the rate in each tenth of them: the RSS of
//     the last tenth against the first says whether memory stays flat as the store grows.
// Search latency has its own bench (search.ts).
// Inbound verification (SPF, DKIM, DMARC, ARC) is on unless `--auth off`; its lookups go to a DNS
// server on loopback that publishes SPF and DMARC for the load's sender domain.
// The database is a fresh embedded PostgreSQL with its default (durable) settings, or a fresh
// database on DATABASE_URL. Figures are printed, never asserted.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import dns2 from 'dns2';
import pg from 'pg';
import { ORG_OWNER } from '../machines/policy/console-roles.ts';
import { createInbox } from '../actors/inboxes.ts';
import { createAgent, createOrgWithOwner, issueAgentKey } from '../actors/tenancy.ts';
import { loadConfig } from '../service/config.ts';
import { createLogger } from '../service/logger.ts';
import { startService } from '../roles/start.ts';
import type { Pool } from '../storage/db.ts';
import { freePort, openEmbedded, type EmbeddedDatabase } from '../storage/embedded.ts';
import { randomToken } from '../storage/ids.ts';
import { smtpReplies } from '../testkit/smtp-replies.ts';
import { cpuPerUnit, machineReference, withCpu, withProcessCpu, type CpuSplit } from './_cpu.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const SCRATCH = path.join(ROOT, '.bench');
const CONCURRENCY = 8;

type LoadResult = {
  sent: number;
  failed: number;
  seconds: number;
  rate: number;
  firstError: string | null;
  loadMs: number;
} & Partial<CpuSplit>;

export async function run(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      messages: { type: 'string', default: '6000' },
      large: { type: 'string', default: '800' },
      'per-message': { type: 'string', default: '1500' },
      waits: { type: 'string', default: '300' },
      soak: { type: 'string', default: '0' },
      'no-maildev': { type: 'boolean', default: false },
      'no-durable': { type: 'boolean', default: false },
      auth: { type: 'string', default: 'on' },
    },
  });
  const n = (k: keyof typeof values) => Number(values[k]);
  await fs.mkdir(SCRATCH, { recursive: true });
  const log = createLogger('error');
  const database = await freshDatabase();
  const auth = values.auth !== 'off';
  const dns = auth ? await loopbackDns() : null;
  const config = loadConfig({
    ...process.env,
    HOST: '127.0.0.1',
    PORT: '0',
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: '0',
    DATA_DIR: path.join(SCRATCH, 'inbound-data'),
    INBOX_DOMAIN: 'bench.test',
    LOG_LEVEL: 'error',
    // One key makes every request here; the per-key limit is not what is measured.
    RATE_LIMIT_PER_MINUTE: '1000000',
    INBOUND_AUTH: auth ? 'true' : 'false',
    DNS_SERVERS: dns?.server ?? '',
  });
  const service = await startService(config, { roles: ['api', 'smtp'], databaseUrl: database.url, log });
  const db = service.services.db;
  let maildev: ChildProcess | null = null;
  let durable: DurableReference | null = null;
  try {
    const tenant = await setUp(db, config.inboxDomain);
    const inboxes = await Promise.all(Array.from({ length: CONCURRENCY }, () => tenant.inbox()));
    const to = inboxes.map((i) => i.address);
    console.log(`agent-inbox inbound bench: ${new Date().toISOString()}, node ${process.version}, PostgreSQL ${await serverVersion(db)}`);
    console.log(await machineReference(db));
    console.log(`inbound verification: ${auth ? `on (DNS on loopback ${dns!.server}, bound ${config.inboundAuthTimeoutSeconds} s)` : 'off'}`);

    // 1. SMTP throughput
    const counts = { messages: n('messages'), large: n('large'), perMessage: n('per-message') };
    const ours = await throughput(service.smtpPort!, to, counts, (fn) => withCpu(database.pidFile, fn));
    const { rows } = await db.query('SELECT count(*)::int AS n FROM messages WHERE org_id = $1', [tenant.orgId]);
    let md: Loads | null = null;
    if (!values['no-maildev']) {
      const started = await startMaildev();
      maildev = started.child;
      // MailDev's own CPU is printed as its service's.
      md = await throughput(started.port, to, counts, (fn) => withProcessCpu(started.child.pid, fn));
      maildev.kill('SIGTERM');
      maildev = null;
    }
    let dr: Loads | null = null;
    if (!values['no-durable']) {
      durable = await startDurableReference();
      const { port, pid } = durable;
      dr = await throughput(port, to, counts, (fn) => withProcessCpu(pid, fn));
      await durable.stop();
      durable = null;
    }

    // 2. wait-for-email latency
    const waitInbox = await tenant.inbox();
    const wait = await waitLatency(service.httpUrl!, service.smtpPort!, tenant.key, waitInbox.address, n('waits'));

    const cpu = (r: LoadResult) => `CPU per message: ${cpuPerUnit(r, r.sent, 'sender')}`;
    const rate = (r: LoadResult) =>
      `${r.rate.toFixed(0).padStart(6)} msg/s  (${r.sent} in ${r.seconds.toFixed(1)} s${r.failed ? `, ${r.failed} failed: ${r.firstError}` : ''}; ${cpu(r)})`;
    const ratio = (a: LoadResult, b: LoadResult) => `${(a.rate / b.rate).toFixed(2)}x`;
    console.log('');
    console.log(`SMTP, ${CONCURRENCY} senders at once, stored per second (${rows[0].n} messages stored in all)`);
    for (const [kind, label, target] of [
      ['small', '10 KB, connections reused', '>= 0.6x'],
      ['large', '200 KB, connections reused', '>= 1.0x'],
      ['perMessage', '10 KB, a connection per message', null],
    ] as const) {
      console.log(`  ${label}`);
      console.log(`    agent-inbox ${rate(ours[kind])}`);
      if (md) {
        console.log(`    MailDev 3   ${rate(md[kind])}`);
        console.log(`    ratio agent-inbox / MailDev: ${ratio(ours[kind], md[kind])}${target ? `   target ${target}` : ''}`);
      }
      if (dr) {
        console.log(`    durable ref ${rate(dr[kind])}`);
        console.log(`    ratio agent-inbox / durable reference: ${ratio(ours[kind], dr[kind])}`);
      }
    }
    console.log(`  a connection per message / connections reused, 10 KB: agent-inbox ${ratio(ours.perMessage, ours.small)}   target >= 0.8x${md ? `; MailDev ${ratio(md.perMessage, md.small)}` : ''}`);
    console.log(`wait-for-email, end of DATA to HTTP answer (${wait.answer.length} waits)`);
    console.log(`  p50 ${pct(wait.answer, 50).toFixed(1)} ms, p99 ${pct(wait.answer, 99).toFixed(1)} ms   target p50 < 15 ms`);
    console.log(`  (end of DATA to 250: p50 ${pct(wait.stored, 50).toFixed(1)} ms, p99 ${pct(wait.stored, 99).toFixed(1)} ms)`);
    if (n('soak') > 0) {
      const tenths = await soak(service.smtpPort!, to, n('soak'));
      console.log(`soak: ${n('soak')} more 10 KB messages, ${CONCURRENCY} senders, connections reused; the service's RSS sampled every second`);
      console.log('  tenth   stored   msg/s   RSS peak');
      tenths.forEach((t, i) => console.log(`  ${String(i + 1).padStart(5)} ${String(t.stored).padStart(8)} ${t.rate.toFixed(0).padStart(7)} ${(t.rssPeak / 1e6).toFixed(0).padStart(7)} MB`));
      const [first, last] = [tenths[0]!, tenths.at(-1)!];
      console.log(`  RSS peak, last tenth / first tenth: ${(last.rssPeak / first.rssPeak).toFixed(2)}x   target: flat`);
      console.log(`  rate, last tenth / first tenth: ${(last.rate / first.rate).toFixed(2)}x`);
    }
  } finally {
    maildev?.kill('SIGTERM');
    await durable?.stop();
    await service.stop();
    await database.drop();
    await dns?.close();
  }
}

/** SPF (loopback may send) and DMARC for sender.example, the load's sender domain, over UDP on loopback. */
async function loopbackDns(): Promise<{ server: string; close(): Promise<void> }> {
  const { Packet } = dns2;
  const txt: Record<string, string> = { 'sender.example': 'v=spf1 ip4:127.0.0.1 -all', '_dmarc.sender.example': 'v=DMARC1; p=none' };
  const server = dns2.createServer({
    udp: true,
    handle: (request: any, send: (r: any) => void) => {
      const response: any = Packet.createResponseFromRequest(request);
      const [q] = request.questions;
      const value = txt[String(q.name).toLowerCase()];
      if (value && q.type === Packet.TYPE.TXT) response.answers.push({ name: q.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 60, data: [value] });
      else if (!value) response.header.rcode = 3;
      send(response);
    },
  });
  const addresses: any = await server.listen({ udp: { port: 0, address: '127.0.0.1' } } as any);
  return { server: `127.0.0.1:${addresses.udp.port}`, close: () => server.close() };
}

// ---- set-up

async function freshDatabase(): Promise<{ url: string; pidFile: string | null; drop(): Promise<void> }> {
  const name = `bench_${randomToken(8)}`;
  let embedded: EmbeddedDatabase | null = null;
  let admin = process.env.DATABASE_URL;
  const dir = path.join(SCRATCH, 'inbound-pg');
  if (!admin) {
    await fs.rm(dir, { recursive: true, force: true });
    embedded = await openEmbedded({ dataDir: dir, database: 'postgres' });
    admin = embedded.url;
  }
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    pidFile: embedded ? path.join(dir, 'postgres', 'postmaster.pid') : null,
    async drop() {
      if (embedded) {
        await embedded.stop();
        await fs.rm(dir, { recursive: true, force: true });
        return;
      }
      const d = new pg.Client({ connectionString: admin });
      await d.connect();
      await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await d.end();
    },
  };
}

async function setUp(db: Pool, domain: string) {
  const { org, project } = await createOrgWithOwner(db, { name: 'Bench', owner_email: 'bench@example.com', plan_tier: 'enterprise' });
  const agent = await createAgent(db, { org_id: org.id, project_id: project.id, handle: 'bench' });
  const { raw } = await issueAgentKey(db, { org_id: org.id, project_id: project.id, agent_id: agent.id, ceiling: 'project', issuer: ORG_OWNER, now: new Date() });
  return {
    orgId: org.id,
    key: raw,
    inbox: () => createInbox(db, domain, { org_id: org.id, project_id: project.id, agent_id: agent.id, created_by: 'console' }, new Date()),
  };
}

async function serverVersion(db: Pool): Promise<string> {
  return (await db.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]!.v;
}

// ---- 1. SMTP load

type Loads = { small: LoadResult; large: LoadResult; perMessage: LoadResult };

/** The three loads against one server, after a warm-up, each run through `measured` (the CPU split, for ours). */
async function throughput(
  port: number,
  to: string[],
  counts: { messages: number; large: number; perMessage: number },
  measured: (fn: () => Promise<LoadResult>) => Promise<LoadResult>,
): Promise<Loads> {
  await load(port, to, 10 * 1024, 300, 'warm');
  return {
    small: await measured(() => load(port, to, 10 * 1024, counts.messages, 's')),
    large: await measured(() => load(port, to, 200 * 1024, counts.large, 'l')),
    perMessage: await measured(() => load(port, to, 10 * 1024, counts.perMessage, 'c', false)),
  };
}

/** A load generator's run; `progress` (every `every` messages sent) gets the count sent so far. */
function load(
  port: number,
  to: string[],
  bytes: number,
  count: number,
  tag: string,
  reuse = true,
  progress?: { every: number; sent(n: number): void },
): Promise<LoadResult> {
  const args = JSON.stringify({ port, to, bytes, count, concurrency: CONCURRENCY, tag: `${tag}${randomToken(6)}`, reuse, progress: progress?.every });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(HERE, '_smtp-load.ts'), args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    let result: LoadResult | null = null;
    child.stdout.on('data', (d) => {
      out += d;
      for (let end = out.indexOf('\n'); end >= 0; end = out.indexOf('\n')) {
        const line = JSON.parse(out.slice(0, end));
        out = out.slice(end + 1);
        if ('progress' in line) progress?.sent(line.progress);
        else result = line;
      }
    });
    child.on('exit', (code) => (code === 0 && result ? resolve(result) : reject(new Error(`load generator exited ${code}`))));
  });
}

// ---- 3. soak

type Tenth = { stored: number; rate: number; rssPeak: number };

/** `count` 10 KB messages over reused connections; for each tenth of them, the rate and this process's (the service's) peak RSS. */
async function soak(port: number, to: string[], count: number): Promise<Tenth[]> {
  const tenths: Tenth[] = [];
  let peak = 0;
  const sample = () => (peak = Math.max(peak, process.memoryUsage.rss()));
  const timer = setInterval(sample, 1000);
  let since = performance.now();
  let before = 0;
  try {
    const mark = (n: number) => {
      sample();
      const now = performance.now();
      tenths.push({ stored: n, rate: (n - before) / ((now - since) / 1000), rssPeak: peak });
      [since, before, peak] = [now, n, 0];
    };
    const { sent } = await load(port, to, 10 * 1024, count, 'k', true, { every: Math.ceil(count / 10), sent: mark });
    if (sent > before) mark(sent);
  } finally {
    clearInterval(timer);
  }
  return tenths;
}

async function startMaildev(): Promise<{ child: ChildProcess; port: number }> {
  const prefix = path.join(SCRATCH, 'maildev');
  const bin = path.join(prefix, 'node_modules', 'maildev', 'dist', 'bin', 'maildev.js');
  if (!(await fs.stat(bin).catch(() => null))) {
    console.log('installing MailDev 3 into .bench/maildev (first use)...');
    await fs.mkdir(prefix, { recursive: true });
    // The newest mailparser needs a package the registry mirror lacks; 3.9.31 is the one this project uses.
    await fs.writeFile(
      path.join(prefix, 'package.json'),
      JSON.stringify({ private: true, dependencies: { maildev: '3.0.0' }, overrides: { mailparser: '3.9.31' } }, null, 2),
    );
    await new Promise<void>((resolve, reject) => {
      const npm = spawn('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--loglevel=error'], { stdio: 'inherit' });
      npm.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`npm install maildev exited ${code}`))));
    });
  }
  const port = await freePort();
  const web = await freePort();
  const child = spawn(process.execPath, [bin, '--smtp', String(port), '--ip', '127.0.0.1', '--web', String(web), '--web-ip', '127.0.0.1', '--silent'], {
    stdio: 'ignore',
  });
  // Generous: on a busy machine its start alone can take tens of seconds.
  const deadline = Date.now() + 90_000;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => (s.end(), resolve(true)));
      s.on('error', () => resolve(false));
    });
    if (open) return { child, port };
    if (Date.now() > deadline) throw new Error('MailDev did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
}

type DurableReference = { port: number; pid: number | undefined; stop(): Promise<void> };

/** The durable reference (_durable-mta.ts) on a fresh Maildir, removed when it stops; it prints its port once listening. */
async function startDurableReference(): Promise<DurableReference> {
  const maildir = path.join(SCRATCH, 'durable-maildir');
  await fs.rm(maildir, { recursive: true, force: true });
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(HERE, '_durable-mta.ts'), maildir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await Promise.race([
    new Promise<number>((resolve) => child.stdout!.once('data', (d) => resolve(Number(String(d).trim())))),
    exited.then(() => Promise.reject(new Error(`the durable reference exited (${child.exitCode}) before listening`))),
  ]);
  return {
    port,
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await fs.rm(maildir, { recursive: true, force: true });
    },
  };
}

// ---- 2. wait latency

/** A bare SMTP session, so the moment the end of DATA is written is known exactly. */
async function smtpSession(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  const reply = smtpReplies(socket).next;
  const command = async (line: string, expect: RegExp) => {
    const r = reply();
    socket.write(`${line}\r\n`);
    const got = await r;
    if (!expect.test(got)) throw new Error(`${line} -> ${got}`);
  };
  await reply();
  await command('EHLO bench.client', /^250/);
  return {
    /** Sends one message; resolves the moment the end of DATA is written, and the 250. */
    async send(from: string, to: string, raw: Buffer): Promise<{ dataEnd: number; stored: Promise<number> }> {
      await command(`MAIL FROM:<${from}>`, /^250/);
      await command(`RCPT TO:<${to}>`, /^250/);
      await command('DATA', /^354/);
      const body = raw.toString('utf8').replace(/\r\n\./g, '\r\n..');
      const stored = reply().then((line) => {
        if (!/^250/.test(line)) throw new Error(`DATA -> ${line}`);
        return performance.now();
      });
      socket.write(body.endsWith('\r\n') ? body : `${body}\r\n`);
      socket.write('.\r\n');
      return { dataEnd: performance.now(), stored };
    },
    close: () => socket.end('QUIT\r\n'),
  };
}

async function waitLatency(httpUrl: string, smtpPort: number, key: string, address: string, samples: number) {
  const session = await smtpSession(smtpPort);
  const tag = randomToken(6);
  const answer: number[] = [];
  const stored: number[] = [];
  for (let i = 0; i < samples; i++) {
    const since = new Date(Date.now() - 1000).toISOString();
    const pending = fetch(`${httpUrl}/v1/inboxes/${encodeURIComponent(address)}/wait`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      // An explicit since and a subject unique to this sample: the answer is this sample's message
      // whether the wait starts before it arrives (the usual case) or after.
      body: JSON.stringify({ since, subject_contains: `[${tag}-${i}]`, timeout_seconds: 10, extract: 'code' }),
    }).then(async (r) => {
      const body = await r.json();
      if (!body.message) throw new Error(`wait answered without a message: ${JSON.stringify(body)}`);
      return performance.now();
    });
    // Let the wait reach its listening state, so the answer comes from the arrival's NOTIFY.
    await new Promise((r) => setTimeout(r, 15));
    const raw = verificationMail(address, `[${tag}-${i}]`, String(100000 + i));
    const { dataEnd, stored: at250 } = await session.send('auth@sender.example', address, raw);
    const [answeredAt, storedAt] = await Promise.all([pending, at250]);
    answer.push(answeredAt - dataEnd);
    stored.push(storedAt - dataEnd);
  }
  session.close();
  return { answer, stored };
}

function verificationMail(to: string, label: string, code: string): Buffer {
  return Buffer.from(
    [
      'From: "Example Auth" <auth@sender.example>',
      `To: ${to}`,
      `Subject: Your sign-in code ${label}`,
      `Date: ${new Date().toUTCString()}`,
      `Message-ID: <${randomToken(20)}@sender.example>`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Hi,',
      '',
      `Your verification code is ${code}. It expires in 10 minutes.`,
      '',
      'If you did not try to sign in, you can ignore this message.',
      '',
    ].join('\r\n'),
  );
}

function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}
