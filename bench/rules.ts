// `npm run bench -- rules [--rules N] [--drafts N] [--reads N]`
// 1. The rules ladder: GET /v1/rules p50/p99 with N rules in one project (project, per-agent, org,
//    category, hard and soft), read by one agent over HTTP. Target: p99 < 20 ms at 1,000 rules.
// 2. The broadcast: with N live drafts in the project, the time of one rule change on the console
//    (POST A/rules, an active project-wide rule), which puts one review.rule_changed item on every
//    live draft in its own transaction. Target: < 2 s at 10,000 drafts, a bounded number of statements.
// Everything runs in this process on one PostgreSQL (DATABASE_URL, or an embedded one in a temp folder).
import { parseArgs } from 'node:util';
import { ORG_OWNER } from '../machines/policy/console-roles.ts';
import { issueEnrollmentToken } from '../actors/enrollment.ts';
import { createRule, rulesFor } from '../actors/rules.ts';
import { prepareSend, submitSend } from '../actors/send.ts';
import { createOrgWithOwner } from '../actors/tenancy.ts';
import { loadConfig } from '../service/config.ts';
import { startService } from '../roles/start.ts';
import { findInboxInScope } from '../storage/inboxes.ts';
import { benchDatabase, benchEnv } from './_service.ts';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const ms = (n: number) => `${n.toFixed(1)} ms`;

export async function run(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { rules: { type: 'string', default: '1000' }, drafts: { type: 'string', default: '10000' }, reads: { type: 'string', default: '2000' } },
  });
  const ruleCount = Number(values.rules);
  const draftCount = Number(values.drafts);
  const reads = Number(values.reads);

  const database = await benchDatabase();
  const config = loadConfig(benchEnv(database.dataDir, { RATE_LIMIT_PER_MINUTE: '100000000' }));
  const svc = await startService(config, { databaseUrl: database.url, roles: ['api'] });
  const s = svc.services;
  const base = svc.httpUrl!;
  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as any;
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };

  try {
    const { org, project } = await createOrgWithOwner(s.db, { name: 'Bench', owner_email: 'bench@example.com', plan_tier: 'enterprise' });
    const consoleToken = await s.identity.mint!('bench@example.com');
    const A = `/v1/admin/orgs/${org.id}/projects/${project.id}`;
    const token = await issueEnrollmentToken(s.db, { issuer: ORG_OWNER, org_id: org.id, project_id: project.id, reusable: true, created_by: 'bench', now: new Date() });
    const enroll = async (handle: string) => {
      const res = await fetch(`${base}/v1/enroll`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: token.raw, agent_handle: handle }) });
      return (await res.json()) as { agent_key: string; agent_id: string };
    };
    const me = await enroll('bench-composer');
    const others = await Promise.all([1, 2, 3].map((i) => enroll(`bench-other-${i}`)));

    // 1. The ladder. The rules are written through the rule actor (the console's code path).
    const deps = { db: s.db, queue: s.queue };
    const human = { kind: 'human' as const, email: 'bench@example.com' };
    const started = performance.now();
    for (let i = 0; i < ruleCount; i++) {
      const shape = i % 10;
      const home = shape === 9 ? { org_id: org.id, project_id: '' } : { org_id: org.id, project_id: project.id };
      await createRule(deps, home, {
        rule_text: `Rule ${i}: keep sentences under twenty words and name the customer's order number when there is one.`,
        kind: i % 7 === 0 ? 'hard' : 'soft',
        priority: (i * 37) % 1000,
        scope: shape === 8 ? 'category' : 'general',
        category_id: shape === 8 ? 'cat_orders' : null,
        scope_agent_id: shape === 7 ? me.agent_id : shape === 6 ? others[i % 3]!.agent_id : null,
      }, human);
    }
    console.log(`rules: wrote ${ruleCount} rules in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    // The same read without HTTP: the ladder's statements alone.
    {
      const times: number[] = [];
      for (let i = 0; i < Math.min(reads, 500); i++) {
        const t0 = performance.now();
        await rulesFor(s.db, { org_id: org.id, project_id: project.id, agent_id: me.agent_id, category_id: null });
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      console.log(`rules: the ladder read in-process (no HTTP): p50 ${ms(percentile(times, 50))}, p99 ${ms(percentile(times, 99))}`);
    }
    // Latency as the client sees the whole answer arrive (read, not parsed: parsing is the client's).
    const timed = async (path: string): Promise<number[]> => {
      for (let i = 0; i < 50; i++) await (await fetch(base + path, { headers: { authorization: `Bearer ${me.agent_key}` } })).arrayBuffer();
      const times: number[] = [];
      for (let i = 0; i < reads; i++) {
        const t0 = performance.now();
        const res = await fetch(base + path, { headers: { authorization: `Bearer ${me.agent_key}` } });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
        times.push(performance.now() - t0);
      }
      return times.sort((a, b) => a - b);
    };
    const baseline = await timed('/v1/auth/me');
    console.log(`rules: baseline GET /v1/auth/me on this machine: p50 ${ms(percentile(baseline, 50))}, p99 ${ms(percentile(baseline, 99))}`);
    for (const query of ['', '?category_id=cat_orders']) {
      const first = await call('GET', `/v1/rules${query}`, me.agent_key);
      const times = await timed(`/v1/rules${query}`);
      const p99 = percentile(times, 99);
      console.log(
        `rules: GET /v1/rules${query} (${first.data.length} rules in the ladder, ${JSON.stringify(first).length} bytes, rules_version ${first.rules_version}): ` +
          `p50 ${ms(percentile(times, 50))}, p99 ${ms(p99)} over ${reads} reads — target p99 < 20 ms: ${p99 < 20 ? 'met' : 'MISSED'}`,
      );
    }

    // 2. The broadcast. Drafts are submitted through the send actor (the send route's code path).
    const inbox = await call('POST', '/v1/inboxes', me.agent_key, { username: 'bench-rules' });
    await call('PATCH', `${A}/inboxes/${inbox.id}`, consoleToken, { recipient_limit_24h: 1_000_000 });
    const row = (await findInboxInScope(s.db, { org_id: org.id, project_id: project.id, agent_id: null, inbox_id: null }, inbox.id))!;
    const draftsStarted = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (;;) {
          const n = next++;
          if (n >= draftCount) return;
          const prepared = await prepareSend(s, {
            kind: 'send',
            inbox: row,
            agent_id: me.agent_id,
            body: { to: `customer${n % 97}@acme.example`, subject: `Order ${n}`, text: 'Your order ships on Tuesday.', intent: { summary: 'Tell the customer when the order ships' } },
          });
          await submitSend(s, prepared, new Date());
        }
      }),
    );
    console.log(`rules: ${draftCount} live drafts submitted in ${((performance.now() - draftsStarted) / 1000).toFixed(1)} s`);

    for (let round = 1; round <= 3; round++) {
      const t0 = performance.now();
      const rule = await call('POST', `${A}/rules`, consoleToken, { rule_text: `Broadcast round ${round}: never promise a delivery date.` });
      const elapsed = performance.now() - t0;
      const { rows } = await s.db.query(
        `SELECT count(*)::int AS n FROM review_events WHERE org_id = $1 AND type = 'review.rule_changed' AND extra->>'rule_id' = $2`,
        [org.id, rule.id],
      );
      console.log(
        `rules: one rule change broadcast to ${rows[0].n} live drafts in ${ms(elapsed)} (the whole console request) — target < 2 s: ${elapsed < 2000 ? 'met' : 'MISSED'}`,
      );
    }
  } finally {
    await svc.stop();
    await database.close();
  }
}
