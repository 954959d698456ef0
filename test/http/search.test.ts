import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { sendMail } from '../../testkit/mail.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { migrate } from '../../storage/migrate.ts';

const svc = await startTestService({ roles: ['api', 'smtp'] });
const tenant = await createTenant(svc, { plan: 'enterprise' });
const { agentKey } = await tenant.enroll('searcher');
const inbox = (await svc.api.post('/v1/inboxes', {}, agentKey)).body as { id: string; address: string };
const other = (await svc.api.post('/v1/inboxes', {}, agentKey)).body as { id: string; address: string };

await sendMail(svc, { from: '"Grace Hopper" <grace@navy.example>', to: inbox.address, subject: 'Compiler invoice', text: 'The invoice for the compiler work is attached.', attachments: [{ filename: 'invoice.pdf', content: '%PDF-1.4' }] });
await sendMail(svc, { from: 'billing@vendor.example', to: inbox.address, cc: 'Finance Team <finance@corp.example>', subject: 'Monthly statement', text: 'Your statement mentions one invoice that is overdue. Please pay that invoice soon.' });
await sendMail(svc, { from: 'alan@bletchley.example', to: inbox.address, subject: 'Lunch', text: 'Shall we meet for lunch near the park? No invoices, promised.' });
await sendMail(svc, { from: 'news@paper.example', to: inbox.address, subject: 'Weekly digest', html: '<p>Running shoes and <b>marathon</b> training tips.</p>' });
await sendMail(svc, { from: 'grace@navy.example', to: other.address, subject: 'Compiler invoice', text: 'Another inbox entirely.' });

async function search(query: string) {
  const r = await svc.api.get(`/v1/inboxes/${inbox.id}/messages/search?${query}`, agentKey);
  assert.equal(r.status, 200, r.text);
  return r.body;
}

const subjects = (body: any) => body.data.map((m: any) => m.subject);

test('full-text search ranks a subject match above body mentions, with stemming, within the inbox only', async () => {
  const r = await search('q=invoice');
  assert.deepEqual(subjects(r), ['Compiler invoice', 'Monthly statement', 'Lunch']);
  assert.ok(r.data[0].rank > r.data[1].rank);
  assert.ok(r.data.every((m: any) => m.inbox_id === inbox.id));
  assert.ok(!('text' in r.data[0]), 'results are summaries');
  assert.equal(r.has_more, false);
});

test('web-search syntax: phrases, or, and exclusion', async () => {
  assert.deepEqual(subjects(await search(`q=${encodeURIComponent('"compiler work"')}`)), ['Compiler invoice']);
  assert.deepEqual(subjects(await search(`q=${encodeURIComponent('"work compiler"')}`)), [], 'a phrase needs its words in order, not only present');
  assert.deepEqual(subjects(await search(`q=${encodeURIComponent('invoice -"pay that"')}`)).sort(), ['Compiler invoice', 'Lunch'], 'an excluded phrase');
  assert.deepEqual(subjects(await search(`q=${encodeURIComponent('lunch or marathon')}`)).sort(), ['Lunch', 'Weekly digest']);
  assert.deepEqual(subjects(await search(`q=${encodeURIComponent('invoice -overdue -lunch')}`)), ['Compiler invoice']);
  assert.deepEqual(subjects(await search('q=running')), ['Weekly digest'], 'the text of an html-only body is searched');
  assert.deepEqual(subjects(await search('q=zeppelin')), []);
});

test('a quoted phrase finds exactly the messages whose words stand in that order, whatever separates them', async () => {
  const box = (await svc.api.post('/v1/inboxes', {}, agentKey)).body as { id: string; address: string };
  const texts = [
    'The status report is late. Status of the report: unknown.',
    'Report status first, then the status, report.',
    'Shipping the release-candidate build: see https://ci.example/builds/42 for the status report.',
    'status\nreport on two lines, and a report about the status of reports',
    'The quarterly status report, the status report again, and once more the status report.',
  ];
  for (const [i, text] of texts.entries()) await sendMail(svc, { from: 'ops@corp.example', to: box.address, subject: `Note ${i} status`, text });
  const phrases = ['"status report"', '"report status"', '"status of the report"', '"status of report"', '"the status"',
    '"release-candidate build"', '"status report" late', '"status report" "report again"', '"note 3 status report"',
    '"ci.example/builds/42"', '"status, report"', '"reports"', '"report on two lines"', '"status report'];
  for (const q of phrases) {
    const r = await svc.api.get(`/v1/inboxes/${box.id}/messages/search?q=${encodeURIComponent(q)}&limit=100`, agentKey);
    assert.equal(r.status, 200, r.text);
    const { rows } = await svc.services.db.query<{ id: string }>(
      `SELECT message_id AS id FROM message_search WHERE inbox_id = $1 AND search @@ websearch_to_tsquery('english', $2) ORDER BY message_id`, [box.id, q]);
    assert.deepEqual(r.body.data.map((m: any) => m.id).sort(), rows.map((x) => x.id), `${q}: the matches of PostgreSQL's own phrase test`);
  }
  const found = async (q: string) => (await svc.api.get(`/v1/inboxes/${box.id}/messages/search?q=${encodeURIComponent(q)}`, agentKey)).body.data.length;
  assert.equal(await found('"status report"'), 5, 'in every body, across a comma, a line break and a URL too');
  assert.equal(await found('"report status"'), 1);
});

test('a two-word phrase whose pair key collides with a stored pair finds nothing', async () => {
  // Two different word pairs with the same 31-bit pair key, looked for among 160,000 made-up pairs.
  const { rows } = await svc.services.db.query<{ stored: string; sought: string }>(`
    SELECT min(a || ' ' || b) AS stored, max(a || ' ' || b) AS sought FROM (
      SELECT a, b, ((hashtext(a)::int8 * 1000003 + hashtext(b)) & 2147483647) AS k
        FROM (SELECT 'zq' || i AS a FROM generate_series(1, 400) i) x, (SELECT 'zv' || j AS b FROM generate_series(1, 400) j) y) p
     GROUP BY k HAVING count(*) > 1 LIMIT 1`);
  const { stored, sought } = rows[0]!;
  const keys = await svc.services.db.query<{ same: boolean }>(
    'SELECT phrase_word_pairs(ARRAY[$1]) = phrase_word_pairs(ARRAY[$2]) AS same', [stored, sought]);
  assert.equal(keys.rows[0]!.same, true, `${stored} and ${sought} share a pair key`);
  const box = (await svc.api.post('/v1/inboxes', {}, agentKey)).body as { id: string; address: string };
  await sendMail(svc, { from: 'ops@corp.example', to: box.address, subject: 'Codes', text: `The codes are ${stored} today.` });
  const found = async (q: string) =>
    (await svc.api.get(`/v1/inboxes/${box.id}/messages/search?q=${encodeURIComponent(q)}`, agentKey)).body.data.length;
  assert.equal(await found(`"${stored}"`), 1);
  assert.equal(await found(`"${sought}"`), 0, 'the index offers the message; the phrase check turns it down');
});

test('names, addresses, local parts and domains are searchable', async () => {
  assert.deepEqual(subjects(await search('q=hopper')), ['Compiler invoice']);
  assert.deepEqual(subjects(await search('q=grace%40navy.example')), ['Compiler invoice']);
  assert.deepEqual(subjects(await search('q=bletchley.example')), ['Lunch']);
  assert.deepEqual(subjects(await search('q=finance')), ['Monthly statement'], 'cc names too');
});

test('filters narrow the results, alone or with q', async () => {
  assert.deepEqual(subjects(await search('from=navy.example')), ['Compiler invoice']);
  assert.deepEqual(subjects(await search('from=GRACE')), ['Compiler invoice'], 'case-insensitive');
  assert.deepEqual(subjects(await search('to=finance%40corp')), ['Monthly statement']);
  assert.deepEqual(subjects(await search('to=Finance%40Corp.example')), ['Monthly statement'], 'a whole address, any case');
  assert.deepEqual(subjects(await search('q=invoice&from=Grace%40Navy.example')), ['Compiler invoice']);
  assert.deepEqual(subjects(await search('from=billing%40vendor.example')), ['Monthly statement']);
  assert.deepEqual(subjects(await search('from=nobody%40vendor.example')), []);
  assert.deepEqual(subjects(await search('subject=digest')), ['Weekly digest']);
  assert.deepEqual(subjects(await search('q=invoice&has_attachment=true')), ['Compiler invoice']);
  assert.deepEqual(subjects(await search('q=invoice&has_attachment=false')), ['Monthly statement', 'Lunch']);
  const all = await search('');
  assert.deepEqual(subjects(all), ['Weekly digest', 'Lunch', 'Monthly statement', 'Compiler invoice'], 'without q: newest first');
  assert.ok(all.data.every((m: any) => m.rank === 0));
  const future = new Date(Date.now() + 3600_000).toISOString();
  assert.deepEqual(subjects(await search(`after=${encodeURIComponent(future)}`)), []);
  assert.equal((await search(`before=${encodeURIComponent(future)}`)).data.length, 4);
  assert.deepEqual(subjects(await search('folder=TRASH')), []);
  const bad = await svc.api.get(`/v1/inboxes/${inbox.id}/messages/search?after=yesterday`, agentKey);
  assert.equal(bad.status, 400);
  assert.equal(bad.body.errors[0].field, 'after');
});

test('each filter narrows a search with q as it does one without', async () => {
  const future = encodeURIComponent(new Date(Date.now() + 3600_000).toISOString());
  const past = encodeURIComponent('2000-01-01T00:00:00Z');
  const everything = ['Compiler invoice', 'Lunch', 'Monthly statement', 'Weekly digest'];
  const invoices = ['Compiler invoice', 'Lunch', 'Monthly statement'];
  // filter: [subjects without q, subjects with q=invoice], sorted
  const cases: Record<string, [string[], string[]]> = {
    'from=vendor': [['Monthly statement'], ['Monthly statement']],
    'to=finance': [['Monthly statement'], ['Monthly statement']],
    'subject=INVOICE': [['Compiler invoice'], ['Compiler invoice']],
    'folder=INBOX': [everything, invoices],
    'folder=TRASH': [[], []],
    [`after=${past}`]: [everything, invoices],
    [`after=${future}`]: [[], []],
    [`before=${future}`]: [everything, invoices],
    [`before=${past}`]: [[], []],
    'has_attachment=true': [['Compiler invoice'], ['Compiler invoice']],
    'has_attachment=false': [['Lunch', 'Monthly statement', 'Weekly digest'], ['Lunch', 'Monthly statement']],
    'authenticated=false': [everything, invoices],
    'authenticated=true': [[], []],
  };
  for (const [filter, [plain, withQ]] of Object.entries(cases)) {
    assert.deepEqual(subjects(await search(filter)).sort(), plain, filter);
    assert.deepEqual(subjects(await search(`q=invoice&${filter}`)).sort(), withQ, `q=invoice&${filter}`);
  }
});

test('results page with limit and next_cursor', async () => {
  const first = await search('q=invoice&limit=2');
  assert.deepEqual(subjects(first), ['Compiler invoice', 'Monthly statement']);
  assert.equal(first.has_more, true);
  const second = await search(`q=invoice&limit=2&cursor=${first.next_cursor}`);
  assert.deepEqual(subjects(second), ['Lunch']);
  assert.equal(second.has_more, false);
  assert.equal(second.next_cursor, null);
});

test('a query of only operators or punctuation is no error', async () => {
  for (const q of ['"', '-', 'or', '!!!', '&|']) {
    const r = await svc.api.get(`/v1/inboxes/${inbox.id}/messages/search?q=${encodeURIComponent(q)}`, agentKey);
    assert.equal(r.status, 200, q);
  }
});

test('matches stored long before the newest messages are found, and paged across that span', async () => {
  const box = (await svc.api.post('/v1/inboxes', {}, agentKey)).body as { id: string; address: string };
  const send = (subject: string, text: string) => sendMail(svc, { from: 'log@ops.example', to: box.address, subject, text });
  await send('Old aurora one', 'The aurora was bright.');
  await send('Old aurora two', 'Another aurora tonight.');
  await send('Old quiet', 'Nothing to see.');
  // Every message stored from here on stands far after those above in the order searches walk.
  await svc.services.db.query("SELECT setval(pg_get_serial_sequence('messages', 'seq'), nextval(pg_get_serial_sequence('messages', 'seq')) + 600000)");
  await send('New aurora', 'An aurora again.');
  await send('New quiet', 'Still nothing.');
  const get = async (query: string) => {
    const r = await svc.api.get(`/v1/inboxes/${box.id}/messages/search?${query}`, agentKey);
    assert.equal(r.status, 200, r.text);
    return r.body;
  };
  assert.deepEqual(subjects(await get('q=aurora')).sort(), ['New aurora', 'Old aurora one', 'Old aurora two']);
  assert.deepEqual(subjects(await get(`q=${encodeURIComponent('"aurora tonight"')}`)), ['Old aurora two']);
  assert.equal((await get('q=aurora&from=ops.example&limit=2')).data.length, 2);
  const first = await get('from=ops.example&limit=2');
  assert.deepEqual(subjects(first), ['New quiet', 'New aurora']);
  const second = await get(`from=ops.example&limit=2&cursor=${first.next_cursor}`);
  assert.deepEqual(subjects(second), ['Old quiet', 'Old aurora two']);
  assert.deepEqual(subjects(await get('from=log%40ops.example')), ['New quiet', 'New aurora', 'Old quiet', 'Old aurora two', 'Old aurora one']);
});

test("messages stored before the sender was kept beside the search words are found by a from filter once migrated", async () => {
  const db = svc.services.db;
  // As the database stood before 0032: no sender beside the words.
  await db.query('ALTER TABLE message_search DROP COLUMN from_text');
  await db.query("DELETE FROM schema_migrations WHERE name = '0032_search_sender.sql'");
  assert.deepEqual(await migrate(db), ['0032_search_sender.sql']);
  assert.deepEqual(subjects(await search('from=GRACE')), ['Compiler invoice']);
  assert.deepEqual(subjects(await search('q=invoice&from=vendor')), ['Monthly statement']);
  const { rows } = await db.query<{ from_text: string }>('SELECT from_text FROM message_search WHERE inbox_id = $1 ORDER BY seq', [inbox.id]);
  assert.deepEqual(rows.map((r) => r.from_text), ['grace@navy.example grace hopper', 'billing@vendor.example ', 'alan@bletchley.example ', 'news@paper.example ']);
});
