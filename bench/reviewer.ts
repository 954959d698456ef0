// `npm run bench -- reviewer [--items N] [--decisions N] [--escalations N] [--sockets N]`
// Reviewer agents, everything real on loopback (all roles in this process, one PostgreSQL; the relay
// approved drafts go to is a process of its own, _relay.ts):
// 0. References, in the same run: the machine reference (_cpu.ts) and the commit reference
//    (_commit-reference.ts: pgbench's TPC-B-like transaction at 16 connections, the decisions'
//    concurrency, on the same database); decisions a second are printed with their ratio to it.
// 1. Submit to reviewer delivery, per transport: an agent submits a draft (POST send, intent
//    given) to an inbox linked to a reviewer agent; the time from the request leaving until the
//    reviewer has the work item: a signed POST at an HTTP receiver (webhook), a `reviewer.work`
//    event on an open stream (sse), a `work` frame on an open socket (websocket). One at a time.
// 2. Decisions per second: the queued items are approved by the reviewer, over REST (16 requests
//    in flight) and over the WebSocket (16 decision frames in flight).
// 3. Escalation lag: reviews routed to a silent reviewer with escalate_after_s = 1; the time from
//    submission + 1 s until the review is the human's (read from the review's row every 10 ms).
// 4. `--sockets` reviewer agents (1,000 by default), each linked to its own inbox and connected
//    over the WebSocket; one draft per inbox is submitted, 32 at a time; submit-to-push latency
//    over all of them, the time until the last item arrived, and the service's RSS.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { ORG_OWNER } from '../machines/policy/console-roles.ts';
import { issueEnrollmentToken } from '../actors/enrollment.ts';
import { createOrgWithOwner } from '../actors/tenancy.ts';
import { loadConfig } from '../service/config.ts';
import { startService } from '../roles/start.ts';
import { cpuPerUnit, machineReference, queriesPerUnit, withCpu } from './_cpu.ts';
import { againstReference, commitReference, describeReference } from './_commit-reference.ts';
import { startRelay } from './_relay.ts';
import { benchDatabase, benchEnv } from './_service.ts';

/** Requests (and decision frames) in flight while decisions are timed. */
const IN_FLIGHT = 16;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const ms = (n: number) => `${n.toFixed(1)} ms`;
const summary = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return `p50 ${ms(percentile(s, 50))}, p99 ${ms(percentile(s, 99))}, max ${ms(s.at(-1)!)}`;
};
const INTENT = { summary: 'Confirm the demo time with Dana' };

/** Arrivals of work items by review id, whatever the transport. */
class Arrivals {
  private waiting = new Map<string, (at: number) => void>();
  private early = new Map<string, number>();
  arrived(reviewId: string) {
    const at = performance.now();
    const w = this.waiting.get(reviewId);
    if (w) {
      this.waiting.delete(reviewId);
      w(at);
    } else if (!this.early.has(reviewId)) this.early.set(reviewId, at);
  }
  of(reviewId: string): Promise<number> {
    const at = this.early.get(reviewId);
    if (at !== undefined) return Promise.resolve(at);
    return new Promise((resolve) => this.waiting.set(reviewId, resolve));
  }
}

export async function run(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      items: { type: 'string', default: '200' },
      decisions: { type: 'string', default: '400' },
      escalations: { type: 'string', default: '50' },
      sockets: { type: 'string', default: '1000' },
    },
  });
  const items = Number(values.items);
  const decisionCount = Number(values.decisions);
  const escalations = Number(values.escalations);
  const socketCount = Number(values.sockets);

  const database = await benchDatabase();
  const relay = await startRelay();
  const env = benchEnv(database.dataDir, {
    RATE_LIMIT_PER_MINUTE: '100000000',
    ENROLL_RATE_LIMIT_PER_MINUTE: '100000000',
    SMTP_URL: relay.url,
    WEBHOOK_ALLOW_PRIVATE: 'true',
  });
  const svc = await startService(loadConfig(env), { databaseUrl: database.url });
  const base = svc.httpUrl!;
  const wsBase = base.replace(/^http/, 'ws');
  const call = async (method: string, p: string, body: unknown, token: string) => {
    const res = await fetch(base + p, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as any;
    if (res.status >= 300) throw new Error(`${p}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const closers: Array<() => void> = [];
  const receiver = http.createServer();

  try {
    console.log(await machineReference(svc.services.db));
    const reference = await commitReference(database.url, { clients: IN_FLIGHT });
    console.log(describeReference(reference));
    const { org, project } = await createOrgWithOwner(svc.services.db, { name: 'Bench', owner_email: 'bench@example.com', plan_tier: 'enterprise' });
    const consoleToken = await svc.services.identity.mint!('bench@example.com');
    const A = `/v1/admin/orgs/${org.id}/projects/${project.id}`;
    const token = await issueEnrollmentToken(svc.services.db, { issuer: ORG_OWNER, org_id: org.id, project_id: project.id, reusable: true, created_by: 'bench', now: new Date() });
    let n = 0;
    const enroll = async () => (await call('POST', '/v1/enroll', { token: token.raw, agent_handle: `bench-${n++}` }, '')) as { agent_key: string; agent_id: string };
    const composer = await enroll();
    const newInbox = async () => {
      const inbox = await call('POST', '/v1/inboxes', { username: `bench${n++}` }, composer.agent_key);
      // The bench sends more than a day's default recipient limit from each inbox.
      await call('PATCH', `${A}/inboxes/${inbox.id}`, { recipient_limit_24h: 1_000_000 }, consoleToken);
      return inbox as { id: string; address: string };
    };
    const newReviewer = async () => {
      const agent = await enroll();
      const { key } = await call('POST', `${A}/agents/${agent.agent_id}/keys`, { permissions: ['review:act'] }, consoleToken);
      return { id: agent.agent_id, key: key as string };
    };
    const submit = async (inboxId: string, subject: string) =>
      (await call('POST', `/v1/inboxes/${inboxId}/send`, { to: 'dana@acme.example', subject, text: 'Tuesday 10:00 works.', intent: INTENT }, composer.agent_key)).review_id as string;
    const openSocket = (key: string, onWork: (frame: any) => void, onAnswer?: (frame: any) => void) =>
      new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(`${wsBase}/v1/reviewer/ws`, { headers: { authorization: `Bearer ${key}` } });
        ws.on('message', (data) => {
          const frame = JSON.parse(data.toString());
          if (frame.type === 'work') onWork(frame);
          else onAnswer?.(frame);
        });
        ws.once('open', () => resolve(ws));
        ws.once('error', reject);
        closers.push(() => ws.terminate());
      });

    // ---- 1. Submit to reviewer delivery, per transport.
    const arrivals = new Arrivals();
    receiver.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        res.end('ok');
        arrivals.arrived(JSON.parse(Buffer.concat(chunks).toString('utf8')).review_id);
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;

    const transports = ['webhook', 'sse', 'websocket'] as const;
    const setups: Record<string, { inbox: { id: string }; reviewer: { id: string; key: string }; ws?: WebSocket }> = {};
    const answers = new Map<string, (frame: any) => void>();
    for (const transport of transports) {
      const inbox = await newInbox();
      const reviewer = await newReviewer();
      await call('POST', `${A}/review-links`, {
        inbox_address: inbox.address,
        reviewer_agent_id: reviewer.id,
        transport,
        ...(transport === 'webhook' ? { webhook_url: receiverUrl, hmac_secret: 'bench-secret-0123456789' } : {}),
      }, consoleToken);
      setups[transport] = { inbox, reviewer };
      if (transport === 'sse') {
        const controller = new AbortController();
        closers.push(() => controller.abort());
        const res = await fetch(`${base}/v1/reviewer/stream`, { headers: { authorization: `Bearer ${reviewer.key}` }, signal: controller.signal });
        void (async () => {
          let buffer = '';
          try {
            for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
              buffer += Buffer.from(chunk).toString('utf8');
              let cut: number;
              while ((cut = buffer.indexOf('\n\n')) >= 0) {
                const block = buffer.slice(0, cut);
                buffer = buffer.slice(cut + 2);
                const data = /^data: (.*)$/m.exec(block)?.[1];
                if (data) arrivals.arrived(JSON.parse(data).review_id);
              }
            }
          } catch {
            // aborted at the end
          }
        })();
      }
      if (transport === 'websocket') {
        setups[transport]!.ws = await openSocket(reviewer.key, (f) => arrivals.arrived(f.work.review_id), (f) => answers.get(f.ref)?.(f));
      }
    }

    const queued: Record<string, string[]> = { webhook: [], sse: [], websocket: [] };
    for (const transport of transports) {
      const latencies: number[] = [];
      for (let i = 0; i < items + 10; i++) {
        const started = performance.now();
        const id = await submit(setups[transport]!.inbox.id, `${transport} ${i}`);
        const at = await arrivals.of(id);
        if (i >= 10) latencies.push(at - started); // the first ten warm up connections and caches
        queued[transport]!.push(id);
      }
      console.log(`submit to ${transport} delivery: ${latencies.length} items, ${summary(latencies)}`);
    }

    // ---- 2. Decisions per second.
    const restIds = [...queued.webhook!, ...queued.sse!].slice(0, decisionCount);
    const keyOf = (id: string) => (queued.webhook!.includes(id) ? setups.webhook!.reviewer.key : setups.sse!.reviewer.key);
    let next = 0;
    const rest = await withCpu(database.pidFile, async () => {
      const started = performance.now();
      await Promise.all(
        Array.from({ length: IN_FLIGHT }, async () => {
          while (next < restIds.length) {
            const id = restIds[next++]!;
            await call('POST', `/v1/reviews/${id}/decision`, { action: 'approve', parent_revision: 1 }, keyOf(id));
          }
        }),
      );
      return { seconds: (performance.now() - started) / 1000 };
    });
    console.log(
      `decisions over REST: ${restIds.length} approvals in ${rest.seconds.toFixed(2)} s (${IN_FLIGHT} in flight): ${againstReference(restIds.length / rest.seconds, 'decisions/s', reference)}`,
    );
    console.log(`  CPU per decision (deliveries meanwhile included; "service" is this process, its clients included): ${cpuPerUnit(rest, restIds.length)}; ${queriesPerUnit(rest, restIds.length, 'decision')}`);

    const wsIds = queued.websocket!.slice(0, decisionCount);
    const ws = setups.websocket!.ws!;
    let ref = 0;
    let failed = 0;
    const decideOverWs = (id: string) =>
      new Promise<void>((resolve) => {
        const r = `d${ref++}`;
        answers.set(r, (frame) => {
          answers.delete(r);
          if (frame.type !== 'result') failed++;
          resolve();
        });
        ws.send(JSON.stringify({ type: 'decision', ref: r, review_id: id, action: 'approve', parent_revision: 1 }));
      });
    next = 0;
    const overWs = await withCpu(database.pidFile, async () => {
      const started = performance.now();
      await Promise.all(
        Array.from({ length: IN_FLIGHT }, async () => {
          while (next < wsIds.length) await decideOverWs(wsIds[next++]!);
        }),
      );
      return { seconds: (performance.now() - started) / 1000 };
    });
    console.log(
      `decisions over the WebSocket: ${wsIds.length} approvals in ${overWs.seconds.toFixed(2)} s (${IN_FLIGHT} in flight)${failed ? `, ${failed} refused` : ''}:` +
        ` ${againstReference(wsIds.length / overWs.seconds, 'decisions/s', reference)}`,
    );
    console.log(`  CPU per decision (deliveries meanwhile included; "service" is this process, its clients included): ${cpuPerUnit(overWs, wsIds.length)}; ${queriesPerUnit(overWs, wsIds.length, 'decision')}`);

    // ---- 3. Escalation lag.
    {
      const inbox = await newInbox();
      const silent = await newReviewer();
      await call('POST', `${A}/review-links`, { inbox_address: inbox.address, reviewer_agent_id: silent.id, transport: 'sse', escalate_after_s: 1 }, consoleToken);
      const due = new Map<string, number>();
      for (let i = 0; i < escalations; i++) {
        const before = performance.now();
        const id = await submit(inbox.id, `escalation ${i}`);
        due.set(id, before + 1000);
        await new Promise((r) => setTimeout(r, 20));
      }
      const lags: number[] = [];
      const deadline = performance.now() + 60_000;
      while (due.size && performance.now() < deadline) {
        const { rows } = await svc.services.db.query<{ id: string }>(
          `SELECT id FROM machine_instances WHERE kind = 'review' AND id = ANY($1) AND snapshot -> 'context' ->> 'route' = 'human'`,
          [[...due.keys()]],
        );
        const now = performance.now();
        for (const { id } of rows) {
          lags.push(now - due.get(id)!);
          due.delete(id);
        }
        await new Promise((r) => setTimeout(r, 10));
      }
      console.log(`escalation lag after escalate_after_s: ${lags.length} reviews, ${summary(lags)}${due.size ? `, ${due.size} not escalated within 60 s` : ''}`);
    }

    // ---- 4. Many connected WebSocket reviewers.
    {
      const reviewers: Array<{ inbox: { id: string }; reviewer: { id: string; key: string } }> = [];
      const setupStarted = performance.now();
      let made = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (made < socketCount) {
            made++;
            const inbox = await newInbox();
            const reviewer = await newReviewer();
            await call('POST', `${A}/review-links`, { inbox_address: inbox.address, reviewer_agent_id: reviewer.id, transport: 'websocket' }, consoleToken);
            reviewers.push({ inbox, reviewer });
          }
        }),
      );
      const many = new Arrivals();
      await Promise.all(reviewers.map((r) => openSocket(r.reviewer.key, (f) => many.arrived(f.work.review_id))));
      console.log(`${reviewers.length} WebSocket reviewers linked and connected (${((performance.now() - setupStarted) / 1000).toFixed(1)} s to set up)`);
      const latencies: number[] = [];
      const burstStarted = performance.now();
      let sent = 0;
      await Promise.all(
        Array.from({ length: 32 }, async () => {
          while (sent < reviewers.length) {
            const r = reviewers[sent++]!;
            const started = performance.now();
            const id = await submit(r.inbox.id, 'many');
            latencies.push((await many.of(id)) - started);
          }
        }),
      );
      const burst = performance.now() - burstStarted;
      const rss = process.memoryUsage().rss / (1024 * 1024);
      console.log(
        `${reviewers.length} WebSocket reviewers, one draft each (32 submits in flight): every item received ${(burst / 1000).toFixed(2)} s after the first submit;` +
          ` submit to push ${summary(latencies)}; service RSS ${rss.toFixed(0)} MB (this process, clients included)`,
      );
    }
  } finally {
    for (const close of closers) close();
    receiver.closeAllConnections();
    await new Promise<void>((r) => receiver.close(() => r()));
    await svc.stop();
    await relay.close();
    await database.close();
  }
}
