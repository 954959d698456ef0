// Plain SQL migrations, applied in file-name order and recorded, each exactly once even when
// several processes start together (a session advisory lock serialises them).
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withSessionLock, type Pool } from './db.ts';
import { forgetRecencyBounds } from './messages.ts';

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
const LOCK_KEY = 7_146_001; // any constant shared by every process of this service

let files: Promise<string[]> | null = null;

export function migrationFiles(): Promise<string[]> {
  files ??= fs.readdir(DIR).then((all) => all.filter((f) => /^\d{4}_.+\.sql$/.test(f)).sort());
  return files;
}

/** Refuses a server older than PostgreSQL 13, where xid8 and pg_current_snapshot() (the event log's read order) arrived. */
export function assertServerVersion(versionNum: number, version: string): void {
  if (versionNum < 130000) throw new Error(`PostgreSQL ${version} is too old: agent-inbox needs version 13 or later`);
}

export async function migrate(pool: Pool): Promise<string[]> {
  return withSessionLock(pool, LOCK_KEY, async (client) => {
    const { rows } = await client.query<{ v: number; name: string }>(
      "SELECT current_setting('server_version_num')::int AS v, current_setting('server_version') AS name",
    );
    assertServerVersion(rows[0]!.v, rows[0]!.name);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set((await client.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name));
    const applied: string[] = [];
    for (const file of await migrationFiles()) {
      if (done.has(file)) continue;
      const sql = await fs.readFile(path.join(DIR, file), 'utf8');
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${file} failed: ${(err as Error).message}`);
      }
      applied.push(file);
    }
    // A search's kept recency bounds were read under the schema before (storage/messages.ts).
    if (applied.length > 0) forgetRecencyBounds();
    return applied;
  });
}

/** True when every migration file is recorded as applied. */
export async function migrationsApplied(pool: Pool): Promise<boolean> {
  const files = await migrationFiles();
  const { rows } = await pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM schema_migrations WHERE name = ANY($1)',
    [files],
  );
  return rows[0]!.n === files.length;
}
