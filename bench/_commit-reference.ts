// The commit reference every throughput figure of a bench is divided by: what the bench's own
// PostgreSQL commits a second when `clients` connections run pgbench's TPC-B-like transaction
// (three updates, a select and an insert, one commit, one statement a round trip as pgbench's
// simple protocol sends them), measured in the same run on the same database, by node `pg`.
// pgbench's four tables at scale 1 live in a scratch schema that is dropped afterwards.
import pg from 'pg';

const SCHEMA = 'bench_commit_reference';
const ACCOUNTS = 100_000; // pgbench: 100,000 accounts, 10 tellers and 1 branch a unit of scale

export type CommitReference = { tps: number; clients: number; seconds: number; transactions: number };

const random = (n: number) => 1 + Math.floor(Math.random() * n);

export async function commitReference(databaseUrl: string, opts: { clients: number; seconds?: number }): Promise<CommitReference> {
  const seconds = opts.seconds ?? 10;
  const pool = new pg.Pool({ connectionString: databaseUrl, max: opts.clients });
  try {
    await pool.query(`
      DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE;
      CREATE SCHEMA ${SCHEMA};
      CREATE TABLE ${SCHEMA}.branches (bid int PRIMARY KEY, bbalance int NOT NULL, filler char(88)) WITH (fillfactor = 100);
      CREATE TABLE ${SCHEMA}.tellers (tid int PRIMARY KEY, bid int NOT NULL, tbalance int NOT NULL, filler char(84)) WITH (fillfactor = 100);
      CREATE TABLE ${SCHEMA}.accounts (aid int PRIMARY KEY, bid int NOT NULL, abalance int NOT NULL, filler char(84)) WITH (fillfactor = 100);
      CREATE TABLE ${SCHEMA}.history (tid int, bid int, aid int, delta int, mtime timestamp, filler char(22));
      INSERT INTO ${SCHEMA}.branches SELECT 1, 0, '';
      INSERT INTO ${SCHEMA}.tellers SELECT t, 1, 0, '' FROM generate_series(1, 10) t;
      INSERT INTO ${SCHEMA}.accounts SELECT a, 1, 0, '' FROM generate_series(1, ${ACCOUNTS}) a;
    `);
    // Alone: a query of several statements runs as one transaction, and VACUUM runs in none.
    await pool.query(`VACUUM ANALYZE ${SCHEMA}.branches, ${SCHEMA}.tellers, ${SCHEMA}.accounts, ${SCHEMA}.history`);
    // One warm second first (connections, plans), then the measured run.
    await drive(pool, opts.clients, 1);
    const started = performance.now();
    const transactions = await drive(pool, opts.clients, seconds);
    const elapsed = (performance.now() - started) / 1000;
    return { tps: transactions / elapsed, clients: opts.clients, seconds: elapsed, transactions };
  } finally {
    await pool.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`).catch(() => {});
    await pool.end();
  }
}

/** Runs the transaction on `clients` connections for `seconds`; returns how many committed. */
async function drive(pool: pg.Pool, clients: number, seconds: number): Promise<number> {
  const until = performance.now() + seconds * 1000;
  let committed = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      const client = await pool.connect();
      try {
        while (performance.now() < until) {
          const aid = random(ACCOUNTS);
          const tid = random(10);
          const bid = 1;
          const delta = random(10_001) - 5_001;
          await client.query('BEGIN');
          await client.query(`UPDATE ${SCHEMA}.accounts SET abalance = abalance + $1 WHERE aid = $2`, [delta, aid]);
          await client.query(`SELECT abalance FROM ${SCHEMA}.accounts WHERE aid = $1`, [aid]);
          await client.query(`UPDATE ${SCHEMA}.tellers SET tbalance = tbalance + $1 WHERE tid = $2`, [delta, tid]);
          await client.query(`UPDATE ${SCHEMA}.branches SET bbalance = bbalance + $1 WHERE bid = $2`, [delta, bid]);
          await client.query(`INSERT INTO ${SCHEMA}.history (tid, bid, aid, delta, mtime) VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP)`, [tid, bid, aid, delta]);
          await client.query('COMMIT');
          committed++;
        }
      } finally {
        client.release();
      }
    }),
  );
  return committed;
}

/** "1,234/s against a commit reference of 3,480 tps (16 clients): 35.5%" */
export function againstReference(rate: number, unit: string, ref: CommitReference): string {
  return `${rate.toFixed(0)} ${unit} against the commit reference ${ref.tps.toFixed(0)} tps (${ref.clients} clients): ${((rate / ref.tps) * 100).toFixed(1)}%`;
}

export function describeReference(ref: CommitReference): string {
  return `commit reference: pgbench's TPC-B-like transaction on ${ref.clients} connections, ${ref.transactions} in ${ref.seconds.toFixed(1)} s: ${ref.tps.toFixed(0)} tps`;
}

/**
 * Runs `measure` between two commit references, one just before and one just after it, printing
 * both, and answers its result with their mean as the reference to divide by: on a shared machine
 * the rate moves while the figure is measured, so one side alone can be far off.
 */
export async function betweenReferences<T>(databaseUrl: string, clients: number, measure: () => Promise<T>): Promise<{ result: T; reference: CommitReference }> {
  const before = await commitReference(databaseUrl, { clients });
  console.log(describeReference(before));
  const result = await measure();
  const after = await commitReference(databaseUrl, { clients });
  const reference = { tps: (before.tps + after.tps) / 2, clients, seconds: before.seconds + after.seconds, transactions: before.transactions + after.transactions };
  console.log(`commit reference after it: ${after.tps.toFixed(0)} tps (before it ${before.tps.toFixed(0)} tps); the figure is divided by their mean, ${reference.tps.toFixed(0)} tps`);
  return { result, reference };
}
