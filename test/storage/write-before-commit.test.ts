// writeBeforeCommit (storage/db.ts): a write whose result nobody reads, sent as an EXECUTE of its
// prepared statement with the transaction's next statement, the COMMIT's round trip when nothing
// comes between. It stores exactly what the same statement with parameters stores, a later
// statement of the transaction sees it, writes keep their order, it commits or rolls back with its
// transaction, and it runs at once outside one. readAhead and takeRead: a read the transaction
// wants later, sent the same way, whose result is taken from that round trip.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, test } from '../../testkit/test.ts';
import { createLogger } from '../../service/logger.ts';
import { createPool, endPool, readAhead, takeRead, withTransaction, writeBeforeCommit } from '../../storage/db.ts';
import { createTestDatabase, recordingQueries } from '../../testkit/db.ts';

const database = await createTestDatabase();
// One connection: the statement prepared by one transaction is the one the next EXECUTEs.
const db = createPool(database.url, createLogger('silent'), 1);
after(async () => {
  await endPool(db);
  await database.drop();
});

await db.query(`CREATE TABLE written (
  k text PRIMARY KEY, t text, n integer, b boolean, j jsonb, a text[], at timestamptz, bytes bytea, nothing text, byte_list bytea[],
  written_at timestamptz NOT NULL DEFAULT clock_timestamp())`);

const insert = (k: string, values: unknown[]) => ({
  name: 'test-written-insert',
  text: 'INSERT INTO written (k, t, n, b, j, a, at, bytes, nothing, byte_list) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::bytea[])',
  values: [k, ...values],
});

// Quotes, a backslash, an E'' trap, non-ASCII, JSON with both, an array needing quotes, a date, bytes.
const AWKWARD = [
  `it's a \\ back'slash E'\\x41' and "quotes"; DROP TABLE written; --`,
  -42,
  true,
  { text: `o'clock \\n "x"`, list: [1, null, 'é'] },
  ['a,b', `c"d`, `e'f`, null, 'g\\h'],
  new Date('2026-11-26T12:34:56.789Z'),
  Buffer.from([0, 1, 2, 0x27, 0x5c, 255]),
  null,
  [Buffer.from('a report\r\n'), null, Buffer.from([0x22, 0x27, 0x5c, 0x7b, 0x2c, 0])],
];

const row = async (k: string) => (await db.query('SELECT t, n, b, j, a, at, bytes, nothing, byte_list FROM written WHERE k = $1', [k])).rows[0];
const writtenAt = async (k: string) => ((await db.query('SELECT written_at FROM written WHERE k = $1', [k])).rows[0].written_at as Date).getTime();

/** A transaction that leaves the write, waits, then commits: answers a time between the two. */
async function writeThenWait(k: string): Promise<number> {
  let mark = 0;
  await withTransaction(db, async (tx) => {
    await writeBeforeCommit(tx, insert(k, AWKWARD));
    await sleep(50);
    mark = Date.now();
    await sleep(50);
  });
  return mark;
}

test('a write left for the commit runs with the COMMIT once the connection has prepared it, and stores what the statement with parameters stores', async () => {
  // The first use prepares the statement on the connection: it runs at once.
  const first = await writeThenWait('direct');
  assert.ok((await writtenAt('direct')) < first, 'not yet prepared: written when asked');
  const second = await writeThenWait('deferred');
  assert.ok((await writtenAt('deferred')) > second, 'prepared: written with the COMMIT');
  assert.deepEqual(await row('deferred'), await row('direct'));
  assert.equal((await row('deferred')).t, AWKWARD[0]);
  assert.deepEqual((await row('deferred')).bytes, AWKWARD[6]);
  assert.deepEqual((await row('deferred')).byte_list, AWKWARD[8]);
});

test('a later statement of the transaction sees the writes left before it, which keep their order', async () => {
  await db.query('CREATE TABLE ordered (n serial PRIMARY KEY, k text)');
  const into = (name: string, k: string) => ({ name, text: `INSERT INTO ordered (k) VALUES ($1) -- ${name}`, values: [k] });
  await withTransaction(db, (tx) => writeBeforeCommit(tx, into('test-ordered-a', 'prepares a')));
  const seen: string[][] = [];
  await withTransaction(db, async (tx) => {
    await writeBeforeCommit(tx, into('test-ordered-a', 'first'));
    // Not prepared on the connection yet: it runs now, after `first`.
    await writeBeforeCommit(tx, into('test-ordered-b', 'second'));
    await writeBeforeCommit(tx, into('test-ordered-a', 'third'));
    seen.push((await tx.query('SELECT k FROM ordered ORDER BY n')).rows.map((r) => r.k));
    await writeBeforeCommit(tx, into('test-ordered-b', 'fourth'));
    await writeBeforeCommit(tx, into('test-ordered-a', 'fifth'));
  });
  assert.deepEqual(seen, [['prepares a', 'first', 'second', 'third']]);
  assert.deepEqual((await db.query('SELECT k FROM ordered ORDER BY n')).rows.map((r) => r.k), ['prepares a', 'first', 'second', 'third', 'fourth', 'fifth']);
});

test('a write left for the commit that fails fails the transaction: nothing of it is stored, and the error reaches the caller', async () => {
  await assert.rejects(
    withTransaction(db, async (tx) => {
      await tx.query(`INSERT INTO written (k) VALUES ('before the failure')`);
      await writeBeforeCommit(tx, insert('deferred', AWKWARD));
    }),
    (err: { code?: string }) => err.code === '23505',
  );
  assert.equal(await row('before the failure'), undefined);
  // The connection is usable again (the failed transaction was rolled back).
  assert.equal((await db.query('SELECT count(*)::int AS n FROM written')).rows[0].n, 2);
});

test('a write left for the commit of a transaction that rolls back is never made; outside a transaction it is made at once', async () => {
  await assert.rejects(
    withTransaction(db, async (tx) => {
      await writeBeforeCommit(tx, insert('rolled back', AWKWARD));
      throw new Error('changed its mind');
    }),
    /changed its mind/,
  );
  assert.equal(await row('rolled back'), undefined);
  const client = await db.connect();
  try {
    await writeBeforeCommit(client, insert('no transaction', AWKWARD));
  } finally {
    client.release();
  }
  assert.deepEqual(await row('no transaction'), await row('direct'));
});

test('BEGIN goes with the first statement the connection has prepared, and the writes left after it with the COMMIT: two round trips', async () => {
  const read = { name: 'test-written-count', text: 'SELECT count(*)::int AS n FROM written WHERE k <> $1', values: ['none'] };
  const transaction = () =>
    withTransaction(db, async (tx) => {
      const { rows } = await tx.query<{ n: number }>(read);
      await writeBeforeCommit(tx, insert(`round trips ${rows[0]!.n}`, AWKWARD));
    });
  await transaction(); // prepares the read
  const sent: string[] = [];
  await recordingQueries(sent, transaction);
  assert.equal(sent.length, 2, sent.join('\n'));
  assert.match(sent[0]!, /^BEGIN; EXECUTE "test-written-count"\('none'\)$/);
  assert.match(sent[1]!, /^EXECUTE "test-written-insert"\('round trips \d+', .*\); COMMIT$/s);
  assert.equal((await db.query(`SELECT count(*)::int AS n FROM written WHERE k LIKE 'round trips %'`)).rows[0].n, 2);
});

const countOf = (k: string) => ({ name: 'test-read-ahead-count', text: 'SELECT count(*)::int AS n FROM written WHERE k LIKE $1', values: [k] });

test('a read started ahead travels with the next statement, sees the writes left before it, and is taken from that round trip', async () => {
  await withTransaction(db, (tx) => takeRead(tx, countOf('ahead%'))); // prepares the read
  const read = { name: 'test-written-count', text: 'SELECT count(*)::int AS n FROM written WHERE k <> $1', values: ['none'] };
  await withTransaction(db, (tx) => tx.query(read)); // and the statement it goes with
  const sent: string[] = [];
  const counts = await recordingQueries(sent, () =>
    withTransaction(db, async (tx) => {
      await writeBeforeCommit(tx, insert('ahead one', AWKWARD));
      readAhead(tx, countOf('ahead%'));
      await writeBeforeCommit(tx, insert('ahead two', AWKWARD));
      const { rows: all } = await tx.query<{ n: number }>(read);
      const { rows: ahead } = await takeRead<{ n: number }>(tx, countOf('ahead%'));
      return { ahead: ahead[0]!.n, all: all[0]!.n };
    }),
  );
  assert.equal(sent.length, 2, sent.join('\n'));
  assert.match(sent[0]!, /^BEGIN; EXECUTE "test-written-insert"\('ahead one', .*\); EXECUTE "test-read-ahead-count"\('ahead%'\); EXECUTE "test-written-insert"\('ahead two', .*\); EXECUTE "test-written-count"\('none'\)$/s);
  assert.match(sent[1]!, /^COMMIT$/);
  // The read saw the write left before it, not the one after.
  assert.equal(counts.ahead, 1);
  assert.equal(counts.all, (await db.query(`SELECT count(*)::int AS n FROM written`)).rows[0].n);
});

test('a read started ahead and taken before any statement carried it is then the statement, with what was left before it; one nobody takes is never sent', async () => {
  const sent: string[] = [];
  const taken = await recordingQueries(sent, () =>
    withTransaction(db, async (tx) => {
      readAhead(tx, countOf('ahead%'));
      readAhead(tx, countOf('ahead one'));
      const { rows } = await takeRead<{ n: number }>(tx, countOf('ahead%'));
      return rows[0]!.n;
    }),
  );
  assert.equal(taken, 2);
  assert.equal(sent.length, 2, sent.join('\n'));
  assert.match(sent[0]!, /^BEGIN; EXECUTE "test-read-ahead-count"\('ahead one'\); EXECUTE "test-read-ahead-count"\('ahead%'\)$/, 'once, carrying the other read');
  assert.equal(sent[1], 'COMMIT');
  const sentAtCommit: string[] = [];
  await recordingQueries(sentAtCommit, () => withTransaction(db, async (tx) => {
    await writeBeforeCommit(tx, insert('ahead three', AWKWARD));
    readAhead(tx, countOf('never taken'));
  }));
  assert.equal(sentAtCommit.length, 1);
  assert.match(sentAtCommit[0]!, /^BEGIN; EXECUTE "test-written-insert"\('ahead three', .*\); COMMIT$/s, 'the read left at the commit is dropped');
});

test('outside a transaction a read started ahead is not sent, and taking it runs it', async () => {
  const client = await db.connect();
  try {
    const sent: string[] = [];
    const rows = await recordingQueries(sent, async () => {
      readAhead(client, countOf('ahead%'));
      assert.deepEqual(sent, []);
      return (await takeRead<{ n: number }>(client, countOf('ahead%'))).rows;
    });
    assert.deepEqual(rows, [{ n: 3 }]);
    assert.deepEqual(sent, ['test-read-ahead-count']);
  } finally {
    client.release();
  }
});
