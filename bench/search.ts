// `npm run bench -- search [--corpus N] [--per-kind N] [--explain]`
//
// Search latency over HTTP (p50, p99 per query kind) over a corpus of N stored messages (100,000 by
// default) in one inbox, beside the cost of a trivial indexed lookup measured in the same run: a
// primary-key SELECT of one message on the same table, and the HTTP read of one message. The
// ratios say how a search compares with the cheapest read this machine does at that moment. Beside
// them, the database pages each kind's search touched, which do not move with the machine's speed.
// Searches and references run from a client process of their own (_search-client.ts), as a
// client would: the service's event loop serves them, never also the client's work.
// The corpus is made in SQL (INSERT ... SELECT over generate_series, two connections, the search
// indexes built once at the end), so a million messages load in minutes; its vectors and pairs
// are computed by the same SQL functions as a stored message's. `--explain` prints one
// EXPLAIN ANALYZE per kind. The database is a fresh embedded PostgreSQL or a database on
// DATABASE_URL; with `--keep` on DATABASE_URL the corpus stays there, and a later run with
// `--keep` and the same `--corpus` measures it again without loading it. Figures are printed,
// never asserted.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ORG_OWNER } from '../machines/policy/console-roles.ts';
import { createInbox } from '../actors/inboxes.ts';
import { createAgent, createOrgWithOwner, issueAgentKey } from '../actors/tenancy.ts';
import { loadConfig } from '../service/config.ts';
import { createLogger } from '../service/logger.ts';
import { startService } from '../roles/start.ts';
import type { Executor, Pool } from '../storage/db.ts';
import { searchMessages, type SearchQuery } from '../storage/messages.ts';
import type { SearchClientArgs, SearchClientResult } from './_search-client.ts';
import { benchDatabase, benchEnv } from './_service.ts';
import { prng, vocabulary, zipf } from './_words.ts';

type Inbox = { org_id: string; project_id: string; id: string; address: string };

// The mailing list most of the inbox comes from: a whole-address filter that matches most messages.
const LIST_SENDER = 'updates@news.example';
const LIST_SHARE = 60; // percent
// Every sender's address ends in ".example": a from filter matching every message.
const EVERY_SENDER = 'example';

export async function run(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      corpus: { type: 'string', default: '100000' },
      'per-kind': { type: 'string', default: '100' },
      explain: { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
    },
  });
  const database = await benchDatabase();
  const config = loadConfig(benchEnv(database.dataDir, { LOG_LEVEL: 'error', RATE_LIMIT_PER_MINUTE: '100000000' }));
  const service = await startService(config, { roles: ['api'], databaseUrl: database.url, log: createLogger('error') });
  const db = service.services.db;
  try {
    const count = Number(values.corpus);
    const { rows: v } = await db.query<{ v: string }>("SELECT current_setting('server_version') AS v");
    console.log(`agent-inbox search bench: ${new Date().toISOString()}, node ${process.version}, PostgreSQL ${v[0]!.v}`);
    const kept = values.keep ? await keptCorpus(db, count) : null;
    const tenant = kept ?? (await setUp(db, config.inboxDomain, values.keep ? `search-bench-${count}` : undefined));
    if (kept) console.log(`corpus: ${count.toLocaleString('en')} messages in one inbox, kept from an earlier run`);
    else {
      const seeded = await seedCorpus(db, tenant.inbox, count);
      console.log(`corpus: ${count.toLocaleString('en')} messages in one inbox, loaded in ${seeded.seconds.toFixed(0)} s (indexes built in ${seeded.indexSeconds.toFixed(0)} s of it)`);
    }
    const kinds = await queryKinds(db, tenant.inbox, corpusWords().words);
    if (values.explain) await explain(db, tenant.inbox, kinds);
    const r = await measure(service.httpUrl!, database.url, db, tenant, kinds, Number(values['per-kind']));
    // After the timed loop, so its EXPLAINs take no time from it.
    const blocks = new Map<string, number>();
    for (const k of kinds) blocks.set(k.name, await blocksOf(db, tenant.inbox, k, BLOCK_SAMPLES));
    const f = (n: number) => n.toFixed(1).padStart(6);
    console.log(`reference, p50 / p99: primary-key SELECT ${f(pct(r.pk, 50))} / ${f(pct(r.pk, 99))} ms ` +
      `(${await lookupBlocks(db, tenant.inbox)} blocks), HTTP read of one message ${f(pct(r.get, 50))} / ${f(pct(r.get, 99))} ms`);
    console.log(`search, ${r.rounds} queries a kind     p50 ms  p99 ms  p99 / pk-SELECT p99  p99 / HTTP-read p99  results   blocks`);
    for (const k of kinds) {
      const t = r.byKind[k.name]!;
      console.log(`  ${k.name.padEnd(34)} ${f(pct(t, 50))}  ${f(pct(t, 99))}  ${(pct(t, 99) / pct(r.pk, 99)).toFixed(0).padStart(8)}x  ${(pct(t, 99) / pct(r.get, 99)).toFixed(1).padStart(14)}x  ${String(r.hits[k.name]).padStart(10)}  ${String(blocks.get(k.name)).padStart(7)}`);
    }
    console.log(`  blocks: the database pages a search touched (shared buffers hit or read, every statement it ran), median of ${BLOCK_SAMPLES} queries of the kind`);
    const all = Object.values(r.byKind).flat();
    console.log(`  all kinds: p50 ${f(pct(all, 50))} ms, p99 ${f(pct(all, 99))} ms   target p99 <= 25 ms at 100k, <= 50 ms at 1M`);
  } finally {
    await service.stop();
    await database.close();
  }
}

async function setUp(db: Pool, domain: string, username?: string) {
  const { org, project } = await createOrgWithOwner(db, { name: 'Bench', owner_email: 'bench@example.com', plan_tier: 'enterprise' });
  const agent = await createAgent(db, { org_id: org.id, project_id: project.id, handle: 'bench' });
  const { raw } = await issueAgentKey(db, { org_id: org.id, project_id: project.id, agent_id: agent.id, ceiling: 'project', issuer: ORG_OWNER, now: new Date() });
  const inbox = await createInbox(db, domain, { org_id: org.id, project_id: project.id, agent_id: agent.id, created_by: 'console', username }, new Date());
  return { key: raw, inbox: inbox as Inbox };
}

/** The inbox a `--keep` run of this size left, with a new key for its agent. */
async function keptCorpus(db: Pool, count: number) {
  const { rows } = await db.query<Inbox & { agent_id: string }>(
    `SELECT i.org_id, i.project_id, i.id, i.address, i.agent_id FROM inboxes i
      WHERE i.address LIKE $1 AND (SELECT count(*) FROM messages m WHERE m.org_id = i.org_id AND m.inbox_id = i.id) = $2 LIMIT 1`,
    [`search-bench-${count}@%`, count],
  );
  const inbox = rows[0];
  if (!inbox) return null;
  const { raw } = await issueAgentKey(db, { org_id: inbox.org_id, project_id: inbox.project_id, agent_id: inbox.agent_id, ceiling: 'project', issuer: ORG_OWNER, now: new Date() });
  return { key: raw, inbox };
}

/** The corpus's vocabulary, most frequent first, and the makings of its text. */
function corpusWords() {
  const rand = prng(42);
  const words = vocabulary(5000, rand);
  return { rand, words, rank: zipf(words.length, rand) };
}

// ---- the corpus

/**
 * `count` messages: bodies of 5 to 20 sentences and subjects drawn from pools of Zipf-distributed
 * sentences made here, 60% from one mailing list and the rest from 300 senders, one second apart.
 */
export async function seedCorpus(db: Pool, inbox: Inbox, count: number) {
  const { rand, words, rank } = corpusWords();
  const sentence = (length: number) => Array.from({ length }, () => words[rank()]).join(' ');
  const pool = Array.from({ length: 100_000 }, () => sentence(10));
  const subjects = Array.from({ length: 50_000 }, () => sentence(3 + Math.floor(rand() * 5)));
  const senders = Array.from({ length: 300 }, (_, i) => `${words[(i * 7) % words.length]}.${words[(i * 13 + 5) % words.length]}@${words[(i * 3 + 1) % 40]}.example`);
  const started = performance.now();
  // Each sentence's vector and word pairs are computed once; a body's are its sentences' joined
  // (tsvector || shifts positions as a longer text would have them). The pairs across a sentence's
  // end, which to_tsvector of the whole body would also have, are left out.
  await db.query(`CREATE UNLOGGED TABLE bench_pool (i int PRIMARY KEY, t text NOT NULL, v tsvector NOT NULL, pairs int4[] NOT NULL)`);
  await db.query(`CREATE UNLOGGED TABLE bench_subjects (i int PRIMARY KEY, t text NOT NULL)`);
  await db.query('CREATE AGGREGATE bench_tsvector_agg(tsvector) (sfunc = tsvector_concat, stype = tsvector, initcond = \'\')');
  const chunk = 20_000;
  await Promise.all(Array.from({ length: pool.length / chunk }, (_, c) => db.query(
    `INSERT INTO bench_pool SELECT i - 1 + $2::int, t, x.v, ARRAY(SELECT k FROM search_word_pair_keys(x.v) k)
       FROM unnest($1::text[]) WITH ORDINALITY AS u(t, i), LATERAL (SELECT to_tsvector('english', t) AS v) x`,
    [pool.slice(c * chunk, (c + 1) * chunk), c * chunk],
  )));
  await db.query('INSERT INTO bench_subjects SELECT i - 1, t FROM unnest($1::text[]) WITH ORDINALITY AS x(t, i)', [subjects]);
  // Indexes other than keys are built once at the end, as a restore does: far faster than growing them.
  const { rows: indexes } = await db.query<{ name: string; def: string }>(
    `SELECT i.indexname AS name, i.indexdef AS def FROM pg_indexes i
      WHERE i.tablename IN ('messages', 'message_search')
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
  );
  for (const i of indexes) await db.query(`DROP INDEX ${i.name}`);
  const suffix = inbox.id.replace(/^inb_/, '');
  const BATCH = 20_000;
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const lo = next;
      const hi = Math.min(count, lo + BATCH) - 1;
      next = hi + 1;
      await db.query(
        `WITH src AS MATERIALIZED (
           SELECT g, abs(hashint8(g)) AS h FROM generate_series($5::bigint, $6::bigint) g),
         made AS MATERIALIZED (
           SELECT g, h, body.text, body.v, pr.pairs,
             (SELECT s.t FROM bench_subjects s WHERE s.i = (h / 16) % 50000) AS subject,
             CASE WHEN h % 100 < ${LIST_SHARE} THEN '${LIST_SENDER}' ELSE ($7::text[])[1 + (h / 1024) % 300] END AS from_email
             FROM src,
             LATERAL (SELECT array_agg(abs(hashint8(g * 64 + k)) % 100000 ORDER BY k) AS ids FROM generate_series(0, 4 + (h % 16)::int) k) pick,
             LATERAL (SELECT string_agg(p.t, E'.\n' ORDER BY u.o) || '.' AS text, bench_tsvector_agg(p.v ORDER BY u.o) AS v
                        FROM unnest(pick.ids) WITH ORDINALITY AS u(i, o) JOIN bench_pool p ON p.i = u.i) body,
             LATERAL (SELECT array_agg(k) AS pairs FROM unnest(pick.ids) AS u(i) JOIN bench_pool p ON p.i = u.i, unnest(p.pairs) k) pr),
         msg AS (
           INSERT INTO messages (org_id, project_id, inbox_id, id, thread_id, direction, folder, seen, from_name, from_email,
             to_addrs, raw_from, raw_to, subject, date, message_id, text, extracted_text, search_addresses, size, envelope_from, received_at)
           SELECT $1, $2, $3, 'msg_' || lpad(to_hex(g), 16, '0') || $4, 'thr_' || lpad(to_hex(g), 16, '0'), 'inbound', 'INBOX', false, '',
             from_email, jsonb_build_array(jsonb_build_object('name', '', 'email', $8::text)), from_email, $8, subject,
             now() - ($9 - g) * interval '10 seconds', '<' || g || '@bench.example>', text, text,
             from_email || ' ' || replace(from_email, '@', ' ') || ' ' || $8, length(text) + 300, from_email,
             date_trunc('milliseconds', now() - ($9 - g) * interval '10 seconds')
             FROM made ORDER BY g
           RETURNING seq, id, subject, search_addresses),
         head AS (
           SELECT msg.seq, msg.id, setweight(to_tsvector('english', msg.subject), 'A') || setweight(to_tsvector('english', msg.search_addresses), 'B') AS v
             FROM msg)
         INSERT INTO message_search (org_id, inbox_id, seq, message_id, search, pairs, from_text)
         SELECT $1, $3, head.seq, head.id, head.v || made.v || search_recency_words(head.seq),
           ARRAY(SELECT k FROM search_word_pair_keys(head.v) k) || made.pairs || search_recency_marks(head.seq),
           lower(made.from_email || ' ')
           FROM head JOIN made ON head.id = 'msg_' || lpad(to_hex(made.g), 16, '0') || $4`,
        [inbox.org_id, inbox.project_id, inbox.id, suffix, lo, hi, senders, inbox.address, count],
      );
    }
  };
  await Promise.all([worker(), worker()]);
  const rowsAt = performance.now();
  const client = await db.connect();
  try {
    await client.query("SET maintenance_work_mem = '512MB'");
    for (const i of indexes) await client.query(i.def);
  } finally {
    client.release();
  }
  const indexSeconds = (performance.now() - rowsAt) / 1000;
  await db.query('DROP TABLE bench_pool, bench_subjects');
  await db.query('DROP AGGREGATE bench_tsvector_agg(tsvector)');
  await db.query('VACUUM ANALYZE messages, message_search');
  // The load's pages are written out now, not by a checkpoint falling among the searches timed.
  await db.query('CHECKPOINT');
  return { count, seconds: (performance.now() - started) / 1000, indexSeconds };
}

// ---- the queries

type Kind = { name: string; query(): Record<string, string>; pages?: number };

async function queryKinds(db: Pool, inbox: Inbox, words: string[]): Promise<Kind[]> {
  const rand = prng(7);
  const pick = (from: number, to: number) => words[from + Math.floor(rand() * (to - from))]!;
  const { rows: stored } = await db.query<{ subject: string; from_email: string }>(
    `SELECT subject, from_email FROM messages TABLESAMPLE SYSTEM (1) WHERE org_id = $1 AND inbox_id = $2 LIMIT 400`,
    [inbox.org_id, inbox.id],
  );
  const one = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
  const phrases = stored.map(({ subject }) => subject.split(' ').slice(0, 2).join(' '));
  const senders = stored.map((r) => r.from_email).filter((f) => f !== LIST_SENDER);
  return [
    { name: 'word, most common (0-20)', query: () => ({ q: pick(0, 20) }) },
    { name: 'word, common (20-300)', query: () => ({ q: pick(20, 300) }) },
    { name: 'word, rare (2000-5000)', query: () => ({ q: pick(2000, 5000) }) },
    { name: 'two words', query: () => ({ q: `${pick(20, 1000)} ${pick(20, 1000)}` }) },
    // Two words in a row from a stored subject, as one searches for a phrase remembered.
    { name: 'phrase', query: () => ({ q: `"${one(phrases)}"` }) },
    { name: 'word + from (one sender)', query: () => ({ q: pick(20, 1000), from: one(senders) }) },
    { name: 'from (one sender), no text', query: () => ({ from: one(senders) }) },
    { name: `word + from (list, ${LIST_SHARE}%)`, query: () => ({ q: pick(20, 1000), from: LIST_SENDER }) },
    { name: `rare word + from (list, ${LIST_SHARE}%)`, query: () => ({ q: pick(2000, 5000), from: LIST_SENDER }) },
    { name: `from (list, ${LIST_SHARE}%), no text`, query: () => ({ from: LIST_SENDER }) },
    { name: 'word + from (every message)', query: () => ({ q: pick(20, 1000), from: EVERY_SENDER }) },
    { name: 'rare word + from (every message)', query: () => ({ q: pick(2000, 5000), from: EVERY_SENDER }) },
    { name: 'from (every message), no text', query: () => ({ from: EVERY_SENDER }) },
    { name: 'common word, 3rd page', query: () => ({ q: pick(20, 300) }), pages: 3 },
    { name: 'from (every message), 3rd page', query: () => ({ from: EVERY_SENDER }), pages: 3 },
  ];
}

/**
 * Runs every kind's queries, `rounds` each after 2 warm-up rounds, from a client process of its own
 * (_search-client.ts), with the two references timed in the same loop.
 */
async function measure(httpUrl: string, databaseUrl: string, db: Pool, tenant: { key: string; inbox: Inbox }, kinds: Kind[], rounds: number) {
  const { rows: ids } = await db.query<{ id: string }>(
    'SELECT id FROM messages TABLESAMPLE SYSTEM (1) WHERE org_id = $1 AND inbox_id = $2 LIMIT 500',
    [tenant.inbox.org_id, tenant.inbox.id],
  );
  const warm = 2;
  const queries = Array.from({ length: rounds + warm }, (_, round) =>
    kinds.map((kind) => ({ kind: kind.name, params: kind.query(), pages: kind.pages ?? 1, counted: round >= warm })),
  ).flat();
  const args: SearchClientArgs = { httpUrl, key: tenant.key, inbox: tenant.inbox, databaseUrl, ids: ids.map((r) => r.id), queries };
  const here = path.dirname(fileURLToPath(import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, '_search-client.ts')], { cwd: path.resolve(here, '..'), stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.end(JSON.stringify(args));
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`the search client exited ${code}`);
  return { ...(JSON.parse(out) as SearchClientResult), rounds };
}

// Pages touched do not depend on the machine's speed: a plan that walks every match shows there
// whatever else the machine is doing.
const BLOCK_SAMPLES = 5;

const searchQuery = (kind: Kind, p: Record<string, string>): SearchQuery => ({
  q: p.q ?? null, from: p.from ?? null, to: null, subject: null, folder: null, after: null, before: null,
  has_attachment: null, authenticated: null, limit: 51, offset: kind.pages ? 50 * (kind.pages - 1) : 0,
});

/** Shared buffers (hit or read) one run of a statement touched, from EXPLAIN (ANALYZE, BUFFERS). */
async function statementBlocks(db: Pool, text: string, values?: unknown[]): Promise<number> {
  const { rows } = await db.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`, values);
  const plan = rows[0]['QUERY PLAN'][0].Plan as Record<string, number>;
  return plan['Shared Hit Blocks']! + plan['Shared Read Blocks']!;
}

/** The median, over `samples` queries of a kind, of the pages every statement of one search touched. */
async function blocksOf(db: Pool, inbox: Inbox, kind: Kind, samples: number): Promise<number> {
  const counts: number[] = [];
  for (let i = 0; i < samples; i++) {
    let blocks = 0;
    const counting: Executor = {
      query: async (config: string | { text: string; values?: unknown[] }, params?: unknown[]) => {
        const [text, values] = typeof config === 'string' ? [config, params] : [config.text, config.values];
        blocks += await statementBlocks(db, text, values);
        return db.query(text, values);
      },
    } as unknown as Executor;
    await searchMessages(counting, { org_id: inbox.org_id, inbox_id: inbox.id }, searchQuery(kind, kind.query()));
    counts.push(blocks);
  }
  return pct(counts, 50);
}

/** The pages the reference's primary-key SELECT of one message touches. */
async function lookupBlocks(db: Pool, inbox: Inbox): Promise<number> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM messages WHERE org_id = $1 AND inbox_id = $2 LIMIT 1', [inbox.org_id, inbox.id]);
  return statementBlocks(db, 'SELECT id, subject FROM messages WHERE org_id = $1 AND inbox_id = $2 AND id = $3', [inbox.org_id, inbox.id, rows[0]!.id]);
}

/** EXPLAIN ANALYZE of each statement one search of each kind runs. */
async function explain(db: Pool, inbox: Inbox, kinds: Kind[]) {
  const explaining: Executor = {
    query: async (config: string | { text: string; values?: unknown[] }, params?: unknown[]) => {
      const [text, values] = typeof config === 'string' ? [config, params] : [config.text, config.values];
      const { rows } = await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values);
      console.log(rows.map((r) => r['QUERY PLAN']).join('\n'));
      return db.query(text, values);
    },
  } as unknown as Executor;
  for (const kind of kinds) {
    const p = kind.query();
    console.log(`\n==== ${kind.name}: ${JSON.stringify(p)}`);
    await searchMessages(explaining, { org_id: inbox.org_id, inbox_id: inbox.id }, searchQuery(kind, p));
  }
}

function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}
