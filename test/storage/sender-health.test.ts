// An inbox's sender health counts (storage/delivery-reports.ts) against the same counts made the
// plain way from every report row: the latest `window` delivered reports since the inbox was
// cleared, and of those the ones a hard bounce or a complaint came back for. Reports of another
// inbox, soft bounces, delays, and bounces of sends that left the window count for nothing.
import assert from 'node:assert/strict';
import pg from 'pg';
import { after, test } from '../../testkit/test.ts';
import { createLogger } from '../../service/logger.ts';
import { createPool, endPool } from '../../storage/db.ts';
import { insertDeliveryReports, senderHealthCounts, senderHealthVerdictCounts, type NewDeliveryReport } from '../../storage/delivery-reports.ts';
import { newId } from '../../storage/ids.ts';
import { insertInbox } from '../../storage/inboxes.ts';
import { findInboxWithSendChecks } from '../../storage/reviews.ts';
import { createOrgWithOwner } from '../../actors/tenancy.ts';
import { createTestDatabase } from '../../testkit/db.ts';
import { senderHealth } from '../../machines/policy/sender-health.ts';

const database = await createTestDatabase();
const db = createPool(database.url, createLogger('silent'));
after(async () => {
  await endPool(db);
  await database.drop();
});

const { org, project } = await createOrgWithOwner(db, { name: 'Health', owner_email: 'owner@example.com', plan_tier: 'enterprise' });

async function newInbox(name: string) {
  const inbox = await insertInbox(db, {
    org_id: org.id, project_id: project.id, id: newId('inb'), agent_id: newId('agt'), address: `${name}@agents.test`, domain: 'agents.test',
    display_name: null, webhook_url: null, created_by: 'console', enrollment_token_id: null,
  });
  return inbox!.id;
}

// Times in microseconds, as stored (a Date would tie reports made in the same millisecond).
type Row = { review_id: string; recipient: string; kind: string; type: string | null; us: number };
const US = (column: string) => `(extract(epoch FROM ${column}) * 1000000)::bigint`;

/** The counts made the plain way: every report of the inbox read, the window cut in JavaScript. */
async function expected(inboxId: string, window: number) {
  const { rows: [inbox] } = await db.query<{ cleared: number | null }>(`SELECT ${US('sender_health_cleared_at')} AS cleared FROM inboxes WHERE org_id = $1 AND id = $2`, [org.id, inboxId]);
  const { rows } = await db.query<Row>(`SELECT review_id, recipient, kind, type, ${US('created_at')} AS us FROM delivery_reports WHERE org_id = $1 AND inbox_id = $2`, [org.id, inboxId]);
  const recent = rows
    .filter((r) => r.kind === 'delivered' && (inbox!.cleared === null || r.us > inbox!.cleared))
    .sort((a, b) => b.us - a.us)
    .slice(0, window);
  const about = (s: Row, kind: string, type?: string) => rows.some((r) => r.review_id === s.review_id && r.recipient === s.recipient && r.kind === kind && (!type || r.type === type));
  return {
    sends: recent.length,
    bounces: recent.filter((s) => about(s, 'bounced', 'hard')).length,
    complaints: recent.filter((s) => about(s, 'complained')).length,
  };
}

const report = (inboxId: string, review_id: string, recipient: string, kind: NewDeliveryReport['kind'], type: 'hard' | 'soft' | null = null): NewDeliveryReport => ({
  org_id: org.id, project_id: project.id, inbox_id: inboxId, review_id, message_id: null, recipient, kind, type, status: null, diagnostic: null, raw: null,
});

/** `n` sends of one to three recipients each; the relay took every one. */
async function send(inboxId: string, n: number): Promise<Array<{ review_id: string; recipient: string }>> {
  const sent: Array<{ review_id: string; recipient: string }> = [];
  for (let i = 0; i < n; i++) {
    const review_id = newId('rr');
    const recipients = Array.from({ length: 1 + (i % 3) }, (_, k) => `r${i}-${k}@acme.example`);
    await insertDeliveryReports(db, recipients.map((r) => report(inboxId, review_id, r, 'delivered')));
    sent.push(...recipients.map((recipient) => ({ review_id, recipient })));
  }
  return sent;
}

/** What came back later for some of them: hard and soft bounces, complaints, delays. */
async function comeBack(inboxId: string, sent: Array<{ review_id: string; recipient: string }>, every: number) {
  const kinds: Array<[NewDeliveryReport['kind'], 'hard' | 'soft' | null]> = [['bounced', 'hard'], ['complained', null], ['bounced', 'soft'], ['delayed', null]];
  const rows = sent.filter((_, i) => i % every === 0).map((s, i) => report(inboxId, s.review_id, s.recipient, ...kinds[i % kinds.length]!));
  // A hard bounce and a complaint for one send count it once each.
  rows.push(report(inboxId, sent[0]!.review_id, sent[0]!.recipient, 'complained'), report(inboxId, sent[0]!.review_id, sent[0]!.recipient, 'bounced', 'hard'));
  await insertDeliveryReports(db, rows);
}

const WINDOWS = [1, 7, 20, 60, 1000];

test('sender health counts the latest sends and the hard bounces and complaints among them, for every window, as the plain count does', async () => {
  const inbox = await newInbox('health');
  const other = await newInbox('other');
  const old = await send(inbox, 30);
  await comeBack(inbox, old, 3);
  const recent = await send(inbox, 10);
  await comeBack(inbox, recent, 2);
  // Another inbox's bounces of the same recipients never count for this one.
  const elsewhere = await send(other, 10);
  await comeBack(other, elsewhere, 1);
  for (const window of WINDOWS) {
    const counts = await senderHealthCounts(db, org.id, inbox, window);
    const plain = await expected(inbox, window);
    assert.deepEqual({ sends: counts.sends, bounces: counts.bounces, complaints: counts.complaints }, plain, `window ${window}`);
  }
  const all = await senderHealthCounts(db, org.id, inbox, 1000);
  assert.ok(all.bounces > 0 && all.complaints > 0 && all.sends === old.length + recent.length, JSON.stringify(all));
  const narrow = await senderHealthCounts(db, org.id, inbox, 7);
  assert.ok(narrow.bounces < all.bounces, 'bounces of sends older than the window are left out');
});

test('after a clearing only later sends count, with the bounces that come back for them; an inbox with no sends counts nothing', async () => {
  const inbox = await newInbox('cleared');
  await comeBack(inbox, await send(inbox, 12), 2);
  await db.query('UPDATE inboxes SET sender_health_cleared_at = clock_timestamp() WHERE org_id = $1 AND id = $2', [org.id, inbox]);
  assert.deepEqual(await senderHealthCounts(db, org.id, inbox, 1000), { sends: 0, bounces: 0, complaints: 0, cleared_at: (await senderHealthCounts(db, org.id, inbox, 1)).cleared_at });
  const later = await send(inbox, 9);
  await comeBack(inbox, later, 2);
  for (const window of WINDOWS) {
    const counts = await senderHealthCounts(db, org.id, inbox, window);
    assert.deepEqual({ sends: counts.sends, bounces: counts.bounces, complaints: counts.complaints }, await expected(inbox, window), `window ${window}`);
  }
  const empty = await newInbox('empty');
  const none = await senderHealthCounts(db, org.id, empty, 1000);
  assert.deepEqual([none.sends, none.bounces, none.complaints, none.cleared_at], [0, 0, 0, null]);
});

test("a send's verdict reads the counts only when a bounce or complaint came back since the clearing, and always judges as the full counts do", async () => {
  const limits = { minSends: 4, maxBounceRate: 0.05, maxComplaintRate: 0.001 };
  const inbox = await newInbox('verdict');
  const same = async (what: string) => {
    const full = await senderHealthCounts(db, org.id, inbox, 1000);
    const verdict = await senderHealthVerdictCounts(db, org.id, inbox, 1000);
    assert.deepEqual(senderHealth(verdict, limits), senderHealth(full, limits), what);
    return { full, verdict };
  };
  const sent = await send(inbox, 20);
  const quiet = await same('sends only');
  assert.deepEqual(quiet.verdict, { sends: 0, bounces: 0, complaints: 0 }, 'nothing came back: the sends are not counted');
  assert.equal(quiet.full.sends, sent.length);

  await insertDeliveryReports(db, [report(inbox, sent[3]!.review_id, sent[3]!.recipient, 'bounced', 'hard')]);
  const bounced = await same('a hard bounce');
  assert.deepEqual(bounced.verdict, { sends: sent.length, bounces: 1, complaints: 0 });
  assert.equal(senderHealth(bounced.verdict, limits).healthy, true, '1 in 40 is under 5%');

  await db.query('UPDATE inboxes SET sender_health_cleared_at = clock_timestamp() WHERE org_id = $1 AND id = $2', [org.id, inbox]);
  const later = await send(inbox, 2);
  assert.deepEqual((await same('cleared')).verdict, { sends: 0, bounces: 0, complaints: 0 }, 'the bounce before the clearing no longer counts');
  await insertDeliveryReports(db, [report(inbox, later[0]!.review_id, later[0]!.recipient, 'complained')]);
  const complained = await same('a complaint after the clearing');
  assert.deepEqual(complained.verdict, { sends: later.length, bounces: 0, complaints: 1 });
  assert.equal(senderHealth(complained.verdict, limits).healthy, false);
});

/** The shared buffers statements of `run` read in delivery_reports and its indexes, from their plans (auto_explain). */
async function deliveryReportBuffers(url: string, run: (client: pg.Client) => Promise<unknown>): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const plans: any[] = [];
    client.on('notice', (n) => {
      const text = String(n.message);
      if (text.includes('"Plan"')) plans.push(JSON.parse(text.slice(text.indexOf('{'))));
    });
    await client.query(`LOAD 'auto_explain'`);
    await client.query(`SET auto_explain.log_min_duration = 0; SET auto_explain.log_analyze = on; SET auto_explain.log_buffers = on;
                        SET auto_explain.log_format = json; SET auto_explain.log_level = notice`);
    await run(client);
    let blocks = 0;
    const walk = (node: any) => {
      if (node['Relation Name'] === 'delivery_reports' || node['Index Name']?.startsWith('delivery_reports')) blocks += node['Shared Hit Blocks'] + node['Shared Read Blocks'];
      for (const child of node.Plans ?? []) walk(child);
    };
    for (const p of plans) walk(p.Plan);
    assert.ok(plans.length > 0, 'auto_explain reported the plans');
    return blocks;
  } finally {
    await client.end();
  }
}

test("a send's check reads the inbox's bounces and complaints alone, before the delivery reports were ever analyzed", async () => {
  // A database of its own, as in a deployment's first hour: a thousand deliveries recorded and no
  // statistics yet. The planner then took another index and read every report of the org at each
  // check (8,168 buffers for these eight).
  const fresh = await createTestDatabase();
  const fdb = createPool(fresh.url, createLogger('silent'));
  try {
    const { org: o, project: p } = await createOrgWithOwner(fdb, { name: 'Young', owner_email: 'young@example.com', plan_tier: 'enterprise' });
    const inboxes: string[] = [];
    for (const name of ['quiet', 'busy-1', 'busy-2', 'busy-3']) {
      inboxes.push((await insertInbox(fdb, {
        org_id: o.id, project_id: p.id, id: newId('inb'), agent_id: newId('agt'), address: `${name}@young.test`, domain: 'young.test',
        display_name: null, webhook_url: null, created_by: 'console', enrollment_token_id: null,
      }))!.id);
    }
    await insertDeliveryReports(fdb, Array.from({ length: 1_000 }, (_, i) => ({
      org_id: o.id, project_id: p.id, inbox_id: inboxes[i % 4]!, review_id: newId('rr'), message_id: null, recipient: `c${i % 97}@acme.example`,
      kind: 'delivered' as const, type: null, status: null, diagnostic: null, raw: null,
    })));
    const scope = { org_id: o.id, project_id: p.id, agent_id: null, inbox_id: null };
    // Eight times on one connection: its first plans are made for the values, later ones may be generic.
    const blocks = await deliveryReportBuffers(fresh.url, async (c) => {
      for (let i = 0; i < 8; i++) {
        const found = await findInboxWithSendChecks(c, scope, inboxes[0]!, ['c5@acme.example'], 'agt_none', null);
        assert.deepEqual(found!.checks.sender_health, { sends: 0, bounces: 0, complaints: 0 });
      }
    });
    assert.ok(blocks <= 8 * 4, `eight checks read ${blocks} buffers of delivery reports (the org has 1,000)`);
  } finally {
    await endPool(fdb);
    await fresh.drop();
  }
});
