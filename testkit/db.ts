// A fresh database per test file on the suite's PostgreSQL, so files run in parallel. The runner
// prepares one database with the schema a started service leaves (TEST_TEMPLATE_DATABASE); each
// file's database is a copy of it, which takes a fraction of a second where applying every
// migration and the job queue's schema takes seconds.
import pg from 'pg';
import { openJobQueue } from '../roles/workers.ts';
import { createLogger } from '../service/logger.ts';
import { createPool, endPool } from '../storage/db.ts';
import { randomToken } from '../storage/ids.ts';
import { migrate } from '../storage/migrate.ts';

export function adminUrl(): string {
  const url = process.env.TEST_ADMIN_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!url) throw new Error('run the tests with `npm test` (it provides a PostgreSQL), or set DATABASE_URL');
  return url;
}

export type TestDatabase = { url: string; name: string; drop(): Promise<void> };

/**
 * A client of the suite's server. A connection the server drops (a file's database dropped WITH
 * FORCE, the server stopping) fails the call being awaited; without a listener its error event
 * would end the whole process instead, with a bare `read ECONNRESET`.
 */
function adminClient(base: URL): pg.Client {
  const client = new pg.Client({ connectionString: base.toString() });
  client.on('error', () => {});
  return client;
}

/**
 * A new database: a copy of the runner's prepared one, or `empty` (no schema at all) for tests of
 * what a first start does, and when no runner prepared one.
 */
export async function createTestDatabase(opts: { empty?: boolean } = {}): Promise<TestDatabase> {
  const base = new URL(adminUrl());
  const name = `t_${randomToken(12)}`;
  const template = opts.empty ? undefined : process.env.TEST_TEMPLATE_DATABASE;
  const admin = adminClient(base);
  await admin.connect();
  try {
    // FILE_COPY (PostgreSQL 15 and later; before, the only way) copies the files at once instead
    // of writing every block of them to the WAL.
    const strategy = template && Number((await admin.query('SHOW server_version_num')).rows[0].server_version_num) >= 150000 ? ' STRATEGY FILE_COPY' : '';
    await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}${strategy}` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base.toString());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = adminClient(base);
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await c.end();
    },
  };
}

/** The database each file's is copied from: migrated, with the job queue's schema and queues. */
export async function createTemplateDatabase(): Promise<TestDatabase> {
  const db = await createTestDatabase({ empty: true });
  const log = createLogger('silent');
  const pool = createPool(db.url, log, 2);
  try {
    await migrate(pool);
    const queue = await openJobQueue(pool, db.url, log);
    await queue.stop();
  } finally {
    // Every connection closed: a database being copied must have none.
    await endPool(pool);
  }
  return db;
}

/**
 * Runs fn with each query this process sends to PostgreSQL meanwhile recorded in `sent`: the text
 * of a query sent as text (a round trip may hold several statements), else its statement's name.
 */
export async function recordingQueries<T>(sent: string[], fn: () => Promise<T>): Promise<T> {
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const q = args[0] as string | { name?: string; text: string };
    sent.push(typeof q === 'string' ? q : (q.name ?? q.text));
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    return await fn();
  } finally {
    pg.Client.prototype.query = query;
  }
}
