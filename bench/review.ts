// `npm run bench -- review [--sends N] [--agents N] [--approvals N] [--auto-sends N] [--auto-latency N] [--api-processes N] [--large-sends N] [--notices digest|instant]`
// 0. References, in the same run: the machine reference (_cpu.ts) and the commit reference
//    (_commit-reference.ts: pgbench's TPC-B-like transaction at `agents` connections on the same
//    database), measured just before and just after each rate. Each rate below is printed beside
//    both and divided by their mean; with it, CPU and queries (round trips) a send.
// 1. Accepted sends a second: `agents` agents (16 by default), each with its own inbox and one
//    request at a time, post sends with an intent (require_review) from a separate process;
//    every 202 counts.
// 2. Approve to relay: a human approves a queued review (console decision); the time from the
//    request leaving until a real SMTP relay on loopback has the whole message, one at a time.
// 3. Auto-sends a second: the same agents send in a category graduated to `auto_notify` (gates
//    open, cap out of the way): each 202 is a send released straight to delivery.
// 4. Submit to relay for an auto-send: from the send request leaving until the relay has the whole
//    message, one at a time.
// 5. Memory: `large-sends` (8) concurrent sends of the largest body (25 MiB of attachments, 35 MB of
//    JSON) to an API process of their own (`start --role api`): its peak RSS while they are handled.
// The project's owner, its one decider, takes review notices in a digest (`--notices digest`, as a
// project whose agents send hundreds of drafts a second would): each review's notice is written
// with it, for the digest. With `--notices instant` every review and every auto-send mails the
// owner at once, a mail a draft, which the relay then also receives.
// The relay is a process of its own (_relay.ts), as the load generator is: another machine's work.
// Everything else runs in this process (all roles) on one PostgreSQL (DATABASE_URL, or an
// embedded one in a temp folder, reached over its local socket as a co-located database would be).
// `--api-processes N` adds N - 1 API processes (`start --role api`) the agents are spread over.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { ORG_OWNER } from '../machines/policy/console-roles.ts';
import { issueEnrollmentToken } from '../actors/enrollment.ts';
import { createOrgWithOwner } from '../actors/tenancy.ts';
import { loadConfig } from '../service/config.ts';
import { startService } from '../roles/start.ts';
import fs from 'node:fs';
import { largestSendBody } from '../testkit/large-send.ts';
import { cpuPerUnit, machineReference, queriesPerUnit, withCpu } from './_cpu.ts';
import { againstReference, betweenReferences } from './_commit-reference.ts';
import { epochNow, startRelay } from './_relay.ts';
import { benchDatabase, benchEnv } from './_service.ts';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const ms = (n: number) => `${n.toFixed(1)} ms`;
const here = path.dirname(fileURLToPath(import.meta.url));

async function until(check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('a wait of the bench timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const rssMb = (pid: number): number => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/**
 * Peak RSS of an API process of its own while `count` sends of the largest body run at once: five
 * attachments of random bytes (nothing compresses) in base64, 25 MiB decoded, 35 MB of JSON.
 */
async function largeSendsPeak(o: { env: Record<string, string>; databaseUrl: string; agent: { key: string; inbox: string }; count: number }) {
  const port = 18_099;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, '..', 'bin', 'agent-inbox.ts'), 'start', '--role', 'api'], {
    env: { ...process.env, ...o.env, PORT: String(port), DATABASE_URL: o.databaseUrl },
    stdio: 'ignore',
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    await until(async () => (await fetch(`${base}/readyz`).catch(() => null))?.ok === true);
    const body = largestSendBody();
    const send = async (json: string) => {
      const res = await fetch(`${base}/v1/inboxes/${o.agent.inbox}/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${o.agent.key}` },
        body: json,
      });
      const text = await res.text();
      if (res.status !== 202) throw new Error(`large send: ${res.status} ${text.slice(0, 300)}`);
    };
    // Resting: the send path taken once by a small body.
    await send(JSON.stringify({ to: ['someone@example.com'], text: 'hi', intent: { summary: 'A warm-up send' } }));
    const restingMb = rssMb(child.pid!);
    let peakMb = restingMb;
    const sampler = setInterval(() => (peakMb = Math.max(peakMb, rssMb(child.pid!))), 10);
    await Promise.all(Array.from({ length: o.count }, () => send(body))).finally(() => clearInterval(sampler));
    return { restingMb, peakMb, bodyBytes: body.length };
  } finally {
    child.kill('SIGKILL');
  }
}

export async function run(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      sends: { type: 'string', default: '8000' },
      agents: { type: 'string', default: '16' },
      approvals: { type: 'string', default: '200' },
      'api-processes': { type: 'string', default: '1' },
      'auto-sends': { type: 'string', default: '4000' },
      'auto-latency': { type: 'string', default: '200' },
      'large-sends': { type: 'string', default: '8' },
      notices: { type: 'string', default: 'digest' },
    },
  });
  const autoSends = Number(values['auto-sends']);
  const autoLatency = Number(values['auto-latency']);
  const apiProcesses = Number(values['api-processes']);
  const sends = Number(values.sends);
  const agentCount = Number(values.agents);
  const approvals = Number(values.approvals);
  const largeSends = Number(values['large-sends']);
  const notices = values.notices;
  if (notices !== 'digest' && notices !== 'instant') throw new Error('--notices is digest or instant');

  const database = await benchDatabase();
  const relay = await startRelay();
  const env = benchEnv(database.dataDir, { RATE_LIMIT_PER_MINUTE: '100000000', ENROLL_RATE_LIMIT_PER_MINUTE: '100000000', SMTP_URL: relay.url });
  const databaseUrl = database.url;
  const svc = await startService(loadConfig(env), { databaseUrl });
  const base = svc.httpUrl!;
  const children: ChildProcess[] = [];
  const bases = [base];
  for (let i = 1; i < apiProcesses; i++) {
    const port = 18_100 + i;
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, '..', 'bin', 'agent-inbox.ts'), 'start', '--role', 'api'], {
      env: { ...process.env, ...env, PORT: String(port), DATABASE_URL: databaseUrl },
      stdio: 'ignore',
    });
    children.push(child);
    bases.push(`http://127.0.0.1:${port}`);
  }
  for (const b of bases.slice(1)) await until(async () => (await fetch(`${b}/readyz`).catch(() => null))?.ok === true);
  const call = async (method: string, p: string, body: unknown, token: string) => {
    const res = await fetch(base + p, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as any;
    if (res.status >= 300) throw new Error(`${p}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };

  try {
    const { org, project } = await createOrgWithOwner(svc.services.db, { name: 'Bench', owner_email: 'bench@example.com', plan_tier: 'enterprise' });
    const consoleToken = await svc.services.identity.mint!('bench@example.com');
    const A = `/v1/admin/orgs/${org.id}/projects/${project.id}`;
    await call('PUT', `${A}/notification-preferences`, { mode: notices }, consoleToken);
    const token = await issueEnrollmentToken(svc.services.db, { issuer: ORG_OWNER, org_id: org.id, project_id: project.id, reusable: true, created_by: 'bench', now: new Date() });
    const agents: Array<{ key: string; inbox: string }> = [];
    for (let i = 0; i < agentCount; i++) {
      const { agent_key: key } = await call('POST', '/v1/enroll', { token: token.raw, agent_handle: `bench-agent-${i}` }, '');
      const inbox = await call('POST', '/v1/inboxes', { username: `bench${i}` }, key);
      // The bench sends more than a day's default recipient limit from each inbox.
      await call('PATCH', `${A}/inboxes/${inbox.id}`, { recipient_limit_24h: 1_000_000 }, consoleToken);
      agents.push({ key, inbox: inbox.id });
    }

    const load = async (count: number, category_id?: string) => {
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(here, '_review-load.ts'), JSON.stringify({ bases, agents, count, category_id })], {
        maxBuffer: 1 << 20,
      });
      return JSON.parse(stdout.trim().split('\n').pop()!) as {
        accepted: number;
        refused: number;
        seconds: number;
        rate: number;
        firstError: string | null;
        loadMs: number;
        released: number;
      };
    };
    console.log(await machineReference(svc.services.db));
    console.log(`review notices: ${notices === 'digest' ? 'the owner takes them in a digest (--notices instant mails each at once)' : 'mailed to the owner at once, one a draft'}`);
    await load(Math.min(500, sends)); // warm-up: connections, plans, caches
    const { result, reference } = await betweenReferences(databaseUrl, agentCount, () => withCpu(database.pidFile, () => load(sends)));
    console.log(
      `review sends: ${result.accepted} accepted (202) in ${result.seconds.toFixed(2)} s by ${agentCount} agents` +
        ` over ${apiProcesses} API process${apiProcesses > 1 ? 'es' : ''}: ${againstReference(result.rate, 'sends/s', reference)}`,
    );
    const only = apiProcesses > 1 ? ' (service: this process only)' : '';
    console.log(`  CPU per send: ${cpuPerUnit(result, result.accepted + result.refused, 'load generator')}${only}`);
    console.log(`  ${queriesPerUnit(result, result.accepted + result.refused, 'send')}${only}`);
    if (result.refused) console.log(`  refused: ${result.refused} (first: ${result.firstError})`);

    const { rows } = await svc.services.db.query<{ id: string }>(
      `SELECT id FROM machine_instances WHERE kind = 'review' AND state = 'needs_review' ORDER BY created_at LIMIT $1`,
      [approvals],
    );
    const latencies: number[] = [];
    for (const { id } of rows) {
      const arrived = relay.arrival(`<${id}.1@bench.test>`);
      const started = epochNow();
      await call('POST', `${A}/reviews/${id}/decision`, { action: 'approve' }, consoleToken);
      latencies.push((await arrived) - started);
    }
    latencies.sort((a, b) => a - b);
    if (latencies.length) console.log(
      `approve to relay: ${latencies.length} approvals, p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))}, max ${ms(latencies.at(-1)!)}`,
    );

    // Whether any review is still sending, through the project's state index: counting them each
    // tenth of a second would read the whole backlog, on the database being measured.
    const drained = () =>
      until(async () => {
        const { rows: left } = await svc.services.db.query(
          `SELECT EXISTS (SELECT 1 FROM machine_instances WHERE org_id = $1 AND project_id = $2 AND kind = 'review' AND state = 'sending_auto') AS sending`,
          [org.id, project.id],
        );
        return !left[0].sending;
      }, 600_000);
    // A category graduated by a human, its gates open and the daily cap out of the way.
    await call('PATCH', `${A}/review-settings`, { auto_send_cap_per_day: 100_000_000 }, consoleToken);
    const category = await call('POST', `${A}/categories`, {
      name: 'Bench follow-ups',
      risk: { graduate_min_approvals: 0, graduate_min_age_hours: 0, first_contact_gate: false, min_confidence: 0 },
    }, consoleToken);
    await call('POST', `${A}/categories/${category.id}/graduate`, {}, consoleToken);
    await load(Math.min(500, autoSends), category.id);
    await drained();
    // The relay is part of an auto-send: the clock stops when the last one has been delivered.
    const { result: auto, reference: autoReference } = await betweenReferences(databaseUrl, agentCount, async () => {
      const relayBefore = await relay.cpuMs();
      const measured = await withCpu(database.pidFile, async () => {
        const loaded = await load(autoSends, category.id);
        const loadEnded = performance.now();
        await drained();
        return { ...loaded, seconds: loaded.seconds + (performance.now() - loadEnded) / 1000 };
      });
      return { ...measured, relayMs: (await relay.cpuMs()) - relayBefore };
    });
    console.log(
      `auto-sends, relay included: ${auto.released} released of ${auto.accepted} accepted and delivered in ${auto.seconds.toFixed(2)} s by ${agentCount} agents:` +
        ` ${againstReference(auto.released / auto.seconds, 'auto-sends/s', autoReference)}`,
    );
    const autoUnits = auto.accepted + auto.refused;
    console.log(`  CPU per auto-send (its delivery included): ${cpuPerUnit(auto, autoUnits, 'load generator')}, relay ${(auto.relayMs / autoUnits).toFixed(2)} ms${only}`);
    console.log(`  ${queriesPerUnit(auto, autoUnits, 'auto-send')}${only}`);
    if (auto.refused) console.log(`  refused: ${auto.refused} (first: ${auto.firstError})`);
    const autoLatencies: number[] = [];
    const agent = agents[0]!;
    for (let i = 0; i < autoLatency; i++) {
      const started = epochNow();
      const sent = await call('POST', `/v1/inboxes/${agent.inbox}/send`, {
        to: 'customer@acme.example', subject: `Auto ${i}`, text: 'Thanks for the call today.',
        intent: { summary: 'Follow up with the customer after the demo call, as they asked' }, category_id: category.id,
      }, agent.key);
      if (sent.outcome !== 'released') throw new Error(`auto-send ${i} was not released: ${sent.review.mode_reason}`);
      autoLatencies.push((await relay.arrival(`<${sent.review_id}.1@bench.test>`)) - started);
    }
    autoLatencies.sort((a, b) => a - b);
    if (autoLatencies.length) console.log(
      `auto-send submit to relay: ${autoLatencies.length} sends, p50 ${ms(percentile(autoLatencies, 50))}, p99 ${ms(percentile(autoLatencies, 99))}, max ${ms(autoLatencies.at(-1)!)}`,
    );

    if (largeSends > 0) {
      const peak = await largeSendsPeak({ env, databaseUrl, agent, count: largeSends });
      console.log(
        `large sends: ${largeSends} concurrent sends of ${(peak.bodyBytes / 1e6).toFixed(0)} MB to an API process of their own:` +
          ` RSS resting ${peak.restingMb.toFixed(0)} MB, peak ${peak.peakMb.toFixed(0)} MB (target <= 400 MB)`,
      );
    }
  } finally {
    for (const child of children) child.kill();
    await svc.stop();
    await relay.close();
    await database.close();
  }
}
