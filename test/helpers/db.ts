// A fresh database per test file on the suite's PostgreSQL, so files run in parallel.
import pg from 'pg';
import { randomToken } from '../../storage/ids.ts';

export function adminUrl(): string {
  const url = process.env.TEST_ADMIN_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!url) throw new Error('run the tests with `npm test` (it provides a PostgreSQL), or set DATABASE_URL');
  return url;
}

export async function createTestDatabase(): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const base = new URL(adminUrl());
  const name = `t_${randomToken(12)}`;
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base.toString());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: base.toString() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await c.end();
    },
  };
}
