// writeBeforeCommit (storage/db.ts): a write whose result nobody reads, sent with the COMMIT as an
// EXECUTE of its prepared statement. It stores exactly what the same statement with parameters
// stores, commits or rolls back with its transaction, and runs at once outside one; writes keep
// their order, and flushWrites runs them for a statement that must see them.
import assert from 'node:assert/strict';
import { after, test } from '../../testkit/test.ts';
import { createLogger } from '../../service/logger.ts';
import { createPool, endPool, flushWrites, withTransaction, writeBeforeCommit } from '../../storage/db.ts';
import { createTestDatabase } from '../../testkit/db.ts';

const database = await createTestDatabase();
// One connection: the statement prepared by one transaction is the one the next EXECUTEs.
const db = createPool(database.url, createLogger('silent'), 1);
after(async () => {
  await endPool(db);
  await database.drop();
});

await db.query(`CREATE TABLE written (
  k text PRIMARY KEY, t text, n integer, b boolean, j jsonb, a text[], at timestamptz, bytes bytea, nothing text)`);

const insert = (k: string, values: unknown[]) => ({
  name: 'test-written-insert',
  text: 'INSERT INTO written (k, t, n, b, j, a, at, bytes, nothing) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
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
];

const row = async (k: string) => (await db.query('SELECT t, n, b, j, a, at, bytes, nothing FROM written WHERE k = $1', [k])).rows[0];

test('a write left for the commit stores what the statement with parameters stores, and only once the transaction commits', async () => {
  // The first use prepares the statement on the connection: it runs at once.
  await withTransaction(db, async (tx) => {
    await writeBeforeCommit(tx, insert('direct', AWKWARD));
    assert.ok((await tx.query(`SELECT 1 FROM written WHERE k = 'direct'`)).rowCount === 1, 'not yet prepared: written at once');
  });
  await withTransaction(db, async (tx) => {
    await writeBeforeCommit(tx, insert('deferred', AWKWARD));
    assert.equal((await tx.query(`SELECT 1 FROM written WHERE k = 'deferred'`)).rowCount, 0, 'prepared: left for the COMMIT');
  });
  assert.deepEqual(await row('deferred'), await row('direct'));
  assert.equal((await row('deferred')).t, AWKWARD[0]);
  assert.deepEqual((await row('deferred')).bytes, AWKWARD[6]);
});

test('a write left for the commit that fails fails the commit: nothing of the transaction is stored, and the error reaches the caller', async () => {
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

test('writes keep their order: one that must run at once runs after those left before it, and flushWrites runs them for a statement that reads them', async () => {
  await db.query('CREATE TABLE ordered (n serial PRIMARY KEY, k text)');
  const into = (name: string, k: string) => ({ name, text: `INSERT INTO ordered (k) VALUES ($1) -- ${name}`, values: [k] });
  await withTransaction(db, (tx) => writeBeforeCommit(tx, into('test-ordered-a', 'prepares a')));
  await withTransaction(db, async (tx) => {
    await writeBeforeCommit(tx, into('test-ordered-a', 'first'));
    // Not prepared on the connection yet: it runs now, after `first`.
    await writeBeforeCommit(tx, into('test-ordered-b', 'second'));
    await writeBeforeCommit(tx, into('test-ordered-a', 'third'));
    assert.deepEqual((await tx.query('SELECT k FROM ordered ORDER BY n')).rows.map((r) => r.k), ['prepares a', 'first', 'second']);
    await flushWrites(tx);
    assert.deepEqual((await tx.query('SELECT k FROM ordered ORDER BY n')).rows.map((r) => r.k), ['prepares a', 'first', 'second', 'third']);
    await writeBeforeCommit(tx, into('test-ordered-b', 'fourth'));
  });
  assert.deepEqual((await db.query('SELECT k FROM ordered ORDER BY n')).rows.map((r) => r.k), ['prepares a', 'first', 'second', 'third', 'fourth']);
});
