// A search in a large inbox reads its recent spans first and goes further back only while it has
// found too few matches (storage/messages.ts, searchMessages): it must answer exactly what reading
// every match would, whatever the word's spread, and find a span's matches through the words index.
import assert from 'node:assert/strict';
import type pg from 'pg';
import { test } from '../../testkit/test.ts';
import { sendMail } from '../../testkit/mail.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { migrate } from '../../storage/migrate.ts';
import type { Executor } from '../../storage/db.ts';
import { SEARCH_RANKED_WINDOW, SEARCH_RECENCY_SPANS, forgetRecencyBounds, searchMessages, type SearchQuery } from '../../storage/messages.ts';

const svc = await startTestService({ roles: ['api', 'smtp'] });
const db = svc.services.db;
const tenant = await createTenant(svc, { plan: 'enterprise' });
const { agentKey } = await tenant.enroll('recency');
const inbox = (await svc.api.post('/v1/inboxes', {}, agentKey)).body as { id: string; address: string };
const other = (await svc.api.post('/v1/inboxes', {}, agentKey)).body as { id: string; address: string };
const at = { org_id: tenant.orgId, inbox_id: inbox.id };

// Messages 1 (oldest) to PER_INBOX of the inbox, each stored beside one of the other inbox, so the
// inbox has every other seq. Its words: alpha in every message, bravo in one of 20, charlie in one
// of 100, delta only in the oldest 3,000, echo only among the 2,000th to 6,000th newest, foxtrot in
// one of 3 of the older half, golf in one of 1,000. One message of 40 comes from desk@ops.example
// to duty@ops.example, the others from log@ops.example; addresses are words of the vector, as a
// stored message's are.
const PER_INBOX = 12_000;
assert.ok(PER_INBOX > SEARCH_RECENCY_SPANS[1]!, 'the inbox spans more than two recency spans');
await db.query(
  `WITH src AS (SELECT g, CASE WHEN g % 2 = 0 THEN $3 ELSE $4 END AS inbox_id, (g + 1) / 2 AS n FROM generate_series(1, $5::int * 2) g),
   msg AS (
     INSERT INTO messages (org_id, project_id, inbox_id, id, thread_id, direction, folder, seen, from_name, from_email, to_addrs,
       raw_from, raw_to, subject, date, message_id, text, extracted_text, search_addresses, size, envelope_from)
     SELECT $1, $2, inbox_id, 'msg_recency' || g, 'thr_recency' || g, 'inbound', 'INBOX', false, '', sender,
       CASE WHEN n % 40 = 0 THEN '[{"name": "", "email": "duty@ops.example"}]'::jsonb ELSE '[]'::jsonb END,
       sender, '', 'Entry ' || n, now(), '<' || g || '@ops.example>',
       concat_ws(' ', 'alpha', CASE WHEN n % 20 = 0 THEN 'bravo' END, CASE WHEN n % 100 = 0 THEN 'charlie' END,
         CASE WHEN n <= 3000 THEN 'delta' END, CASE WHEN n > $5 - 6000 AND n <= $5 - 2000 THEN 'echo' END,
         CASE WHEN n <= $5 / 2 AND n % 3 = 0 THEN 'foxtrot' END, CASE WHEN n % 1000 = 0 THEN 'golf' END),
       '', sender || CASE WHEN n % 40 = 0 THEN ' duty@ops.example' ELSE '' END, 100, sender
       FROM src, LATERAL (SELECT CASE WHEN n % 40 = 0 THEN 'desk@ops.example' ELSE 'log@ops.example' END AS sender) s ORDER BY g
     RETURNING org_id, inbox_id, seq, id, text, search_addresses, from_email)
   INSERT INTO message_search (org_id, inbox_id, seq, message_id, search, pairs, from_text)
   SELECT org_id, inbox_id, seq, id, to_tsvector('english', text || ' ' || search_addresses) || search_recency_words(seq),
          ARRAY(SELECT k FROM search_word_pair_keys(to_tsvector('english', text)) k) || search_recency_marks(seq), from_email FROM msg`,
  [tenant.orgId, tenant.projectId, inbox.id, other.id, PER_INBOX],
);
await db.query('ANALYZE messages, message_search');

const query = (q: string): SearchQuery => ({
  q, from: null, to: null, subject: null, folder: null, after: null, before: null, has_attachment: null, authenticated: null,
  limit: SEARCH_RANKED_WINDOW, offset: 0,
});

/** The newest window of matches, read from every match. */
async function newestMatches(q: string): Promise<string[]> {
  const { rows } = await db.query(
    `SELECT message_id FROM message_search WHERE org_id = $1 AND inbox_id = $2 AND search @@ websearch_to_tsquery('english', $3)
      ORDER BY seq DESC LIMIT $4`,
    [at.org_id, at.inbox_id, q, SEARCH_RANKED_WINDOW],
  );
  return rows.map((r) => r.message_id);
}

test('a search in a large inbox answers the newest matches whether they fill the newest span, a middle one, or need every span', async () => {
  // Words, and phrases (found by their word pairs): "alpha bravo" wherever bravo is, "alpha echo" only where nothing stands between.
  for (const word of ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', '"alpha bravo"', '"alpha echo"']) {
    const found = await searchMessages(db, at, query(word));
    const expected = await newestMatches(word);
    assert.ok(expected.length > 0, word);
    assert.deepEqual(found.map((m) => m.id).sort(), [...expected].sort(), `${word}: the newest ${SEARCH_RANKED_WINDOW} matches`);
    for (let i = 1; i < found.length; i++) assert.ok(found[i - 1]!.rank >= found[i]!.rank, `${word}: ranked`);
  }
  // With a filter on the messages row too (they all pass it).
  const filtered = await searchMessages(db, at, { ...query('bravo'), folder: 'INBOX' });
  assert.deepEqual(filtered.map((m) => m.id).sort(), (await newestMatches('bravo')).sort(), 'bravo in INBOX');
});

const addressQuery = (from: string | null, to: string | null, limit: number, offset: number): SearchQuery => ({
  q: null, from, to, subject: null, folder: null, after: null, before: null, has_attachment: null, authenticated: null, limit, offset,
});

/** A page of the inbox's messages from `from` and to `to`, newest first, read from every one of them. */
async function newestOf(from: string | null, to: string | null, limit: number, offset: number): Promise<string[]> {
  const { rows } = await db.query(
    `SELECT id FROM messages WHERE org_id = $1 AND inbox_id = $2 AND ($3::text IS NULL OR from_email = $3)
        AND ($4::text IS NULL OR to_addrs @> jsonb_build_array(jsonb_build_object('email', $4::text)))
      ORDER BY seq DESC LIMIT $5 OFFSET $6`,
    [at.org_id, at.inbox_id, from, to, limit, offset],
  );
  return rows.map((r) => r.id);
}

test('an address search without text in a large inbox answers the page reading every message of the address would', async () => {
  // desk@ sent 300 messages, 50 of them in the newest span and 250 in the newest three.
  const addresses: Array<[string | null, string | null]> = [['desk@ops.example', null], ['log@ops.example', null], [null, 'duty@ops.example'], ['desk@ops.example', 'duty@ops.example']];
  for (const [from, to] of addresses) {
    for (const [limit, offset] of [[20, 0], [50, 40], [50, 240], [100, 280]] as Array<[number, number]>) {
      const expected = await newestOf(from, to, limit, offset);
      assert.ok(offset >= 280 || expected.length === limit, `${from} ${to}: a full page from ${offset}`);
      const found = await searchMessages(db, at, addressQuery(from, to, limit, offset));
      assert.deepEqual(found.map((m) => m.id), expected, `${from} ${to}: ${limit} from ${offset}, newest first`);
    }
  }
});

/** Rows of message_search a plan read: those it returned and those its filters and rechecks dropped. */
function rowsRead(node: Record<string, unknown>): number {
  const own = node['Relation Name'] === 'message_search'
    ? (Number(node['Actual Rows']) + Number(node['Rows Removed by Filter'] ?? 0) + Number(node['Rows Removed by Index Recheck'] ?? 0)) * Number(node['Actual Loops'])
    : 0;
  return own + ((node['Plans'] as Array<Record<string, unknown>> | undefined) ?? []).reduce((n, child) => n + rowsRead(child), 0);
}

/**
 * Runs a search on one connection with sequential scans off, each of its statements handed to
 * `look` first (with the connection) when it is the search itself. On a table this small a scan
 * of it all is as cheap: what is asked is what the index lets a search skip.
 */
async function explained<T>(look: (client: pg.PoolClient, text: string, params: unknown[] | undefined) => Promise<unknown>, search: (db: Executor) => Promise<T>): Promise<T> {
  const client = await db.connect();
  await client.query('SET enable_seqscan = off');
  const explaining: Executor = {
    query: async (config: { text: string; values?: unknown[] } | string, values?: unknown[]) => {
      const [text, params] = typeof config === 'string' ? [config, values] : [config.text, config.values];
      if (text.startsWith('WITH hits')) await look(client, text, params);
      return client.query(text, params);
    },
  } as unknown as Executor;
  try {
    return await search(explaining);
  } finally {
    await client.query('RESET enable_seqscan');
    client.release();
  }
}

test('an address search without text reads the newest messages for its page, not every message of the address', async () => {
  const reads: number[] = [];
  const page = await explained(
    async (client, text, params) => reads.push(rowsRead((await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, params)).rows[0]['QUERY PLAN'][0].Plan)),
    (explaining) => searchMessages(explaining, at, addressQuery('desk@ops.example', null, 20, 0)),
  );
  assert.deepEqual(page.map((m) => m.id), await newestOf('desk@ops.example', null, 20, 0));
  assert.equal(reads.length, 1);
  // desk@ has 50 messages among the newest 2,000 and 300 in all.
  assert.ok(reads[0]! >= 20 && reads[0]! <= 100, `${reads[0]} rows read for a page of 20 of its 300 messages`);
});

test('a middle span is found through the words index by its recency words', async () => {
  const plans: string[] = [];
  await explained(
    async (client, text, params) => plans.push((await client.query(`EXPLAIN ${text}`, params)).rows.map((r) => r['QUERY PLAN']).join('\n')),
    (explaining) => searchMessages(explaining, at, query('bravo')),
  );
  assert.equal(plans.length, 1);
  assert.match(plans[0]!, /Index Cond: .*search @@ '''~\d+\.\d+'/, 'a span read through its recency words');
});

test('a cover, as words and as marks, matches every message of its span and none far beyond it', async () => {
  const { rows: [range] } = await db.query('SELECT min(seq)::int AS lo, max(seq)::int AS hi FROM message_search WHERE org_id = $1 AND inbox_id = $2', [at.org_id, at.inbox_id]);
  for (const [above, upto] of [[range.lo + 10, range.lo + 40], [range.lo + 1000, range.lo + 6000], [range.lo, range.hi], [range.hi - 300, range.hi]] as Array<[number, number]>) {
    const { rows: [c] } = await db.query(
      `SELECT count(*) FILTER (WHERE seq > $1 AND seq <= $2)::int AS inside,
              count(*) FILTER (WHERE seq > $1 AND seq <= $2 AND search @@ search_recency_cover($1, $2))::int AS words_inside,
              count(*) FILTER (WHERE seq > $1 AND seq <= $2 AND pairs && search_recency_pair_cover($1, $2))::int AS marks_inside,
              count(*) FILTER (WHERE NOT (seq > $1 AND seq <= $2) AND search @@ search_recency_cover($1, $2))::int AS words_outside,
              count(*) FILTER (WHERE NOT (seq > $1 AND seq <= $2) AND pairs && search_recency_pair_cover($1, $2))::int AS marks_outside
         FROM message_search`,
      [above, upto],
    );
    const span = `(${above}, ${upto}]`;
    assert.ok(c.inside > 0, span);
    assert.equal(c.words_inside, c.inside, `${span}: every message by its words`);
    assert.equal(c.marks_inside, c.inside, `${span}: every message by its marks`);
    // Buckets at the finest scale needing at most 16: the two at its ends reach past it by less than two.
    const beyond = 2.2 * (upto - above) + 512;
    assert.ok(c.words_outside < beyond && c.marks_outside < beyond, `${span}: ${c.words_outside} and ${c.marks_outside} beyond`);
  }
});

test('a stored message carries its recency words', async () => {
  await sendMail(svc, { from: 'log@ops.example', to: inbox.address, subject: 'Fresh', text: 'A fresh entry.' });
  const { rows } = await db.query(
    `SELECT s.seq::text AS seq, array_to_string(tsvector_to_array(s.search), ' ') AS words,
            (SELECT count(*)::int FROM unnest(s.pairs) k WHERE k < 0) AS marks
       FROM message_search s JOIN messages m ON m.org_id = s.org_id AND m.inbox_id = s.inbox_id AND m.id = s.message_id
      WHERE s.org_id = $1 AND s.inbox_id = $2 AND m.subject = 'Fresh'`,
    [at.org_id, at.inbox_id],
  );
  const seq = BigInt(rows[0].seq);
  for (const scale of [8, 12, 16, 20, 24, 28, 32]) assert.ok(rows[0].words.split(' ').includes(`~${scale}.${seq >> BigInt(scale)}`), `scale ${scale}`);
  assert.equal(rows[0].marks, 7, 'a mark in its pairs at each scale');
  const found = await searchMessages(db, at, query('fresh'));
  assert.deepEqual(found.map((m) => m.subject), ['Fresh']);
});

test('a search soon after another reads the bounds it kept, and finds the messages stored since, newest first', async () => {
  forgetRecencyBounds();
  const counting = (texts: string[]) =>
    ({ query: (config: { text: string } | string, values?: unknown[]) => (texts.push(typeof config === 'string' ? config : config.text), db.query(config, values)) }) as unknown as Executor;
  const first: string[] = [];
  await searchMessages(counting(first), at, query('alpha'));
  assert.equal(first.length, 2, 'the bounds, then the search');
  for (const n of [1, 2, 3]) await sendMail(svc, { from: 'log@ops.example', to: inbox.address, subject: `Hotel ${n}`, text: `Alpha hotel entry ${n}.` });
  const second: string[] = [];
  const hotel = await searchMessages(counting(second), at, query('hotel'));
  assert.equal(second.length, 1, 'the search alone');
  assert.deepEqual(hotel.map((m) => m.subject).sort(), ['Hotel 1', 'Hotel 2', 'Hotel 3']);
  const alpha = await searchMessages(db, at, query('alpha'));
  const expected = await newestMatches('alpha');
  assert.deepEqual(alpha.map((m) => m.id).sort(), [...expected].sort(), 'alpha: the newest matches');
  for (const m of hotel) assert.ok(expected.includes(m.id), `${m.subject} among them`);
});

test('a message\'s recency words and marks are one per scale, and are computed inside the statement storing it', async () => {
  for (const seq of ['0', '255', '256', '70000', '123456789', String(2n ** 33n + 5n), String(2n ** 40n + 3n)]) {
    const { rows: [r] } = await db.query(
      `SELECT search_recency_words($1::bigint) = array_to_tsvector(ARRAY(SELECT '~' || s || '.' || ($1::bigint >> s) FROM unnest(search_recency_scales()) s)) AS words,
              search_recency_marks($1::bigint) = ARRAY(SELECT search_recency_mark(x.k - 1, $1::bigint >> x.s)
                                                         FROM unnest(search_recency_scales()) WITH ORDINALITY AS x(s, k) ORDER BY x.k) AS marks`,
      [seq],
    );
    assert.deepEqual(r, { words: true, marks: true }, `seq ${seq}`);
  }
  // Inlined, they are planned with the statement, not once more each time it runs.
  const { rows } = await db.query(`EXPLAIN VERBOSE SELECT search_recency_words(g), search_recency_marks(g) FROM generate_series(1::bigint, 3) g`);
  const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
  assert.match(plan, /array_to_tsvector/);
  assert.doesNotMatch(plan, /search_recency_(words|marks)/);
});

test('messages stored before the recency words are searched as before once migrated, without being rewritten', async () => {
  // As the database stood before 0035: vectors without recency words, neither function, no mark.
  await db.query(`UPDATE message_search SET search = ts_delete(search, ARRAY(SELECT w FROM unnest(tsvector_to_array(search)) w WHERE w LIKE '~%')),
                                             pairs = ARRAY(SELECT k FROM unnest(pairs) k WHERE k >= 0)`);
  await db.query(`DROP FUNCTION search_recency_cover(bigint, bigint), search_recency_pair_cover(bigint, bigint), search_recency_buckets(bigint, bigint),
                                search_recency_marks(bigint), search_recency_mark(bigint, bigint), search_recency_words(bigint), search_recency_scales()`);
  await db.query('DROP TABLE search_recency_since');
  await db.query("DELETE FROM schema_migrations WHERE name = '0035_search_recency.sql'");
  assert.deepEqual(await migrate(db), ['0035_search_recency.sql']);
  const { rows } = await db.query(
    `SELECT (SELECT seq FROM search_recency_since) = (SELECT max(seq) FROM message_search) AS marked,
            (SELECT count(*)::int FROM message_search WHERE array_to_string(tsvector_to_array(search), ' ') LIKE '%~8.%') AS with_words`,
  );
  assert.deepEqual(rows[0], { marked: true, with_words: 0 });
  for (const word of ['bravo', 'echo', '"alpha bravo"']) {
    const found = await searchMessages(db, at, query(word));
    assert.deepEqual(found.map((m) => m.id).sort(), (await newestMatches(word)).sort(), word);
  }
});
