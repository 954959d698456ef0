// What readiness reports of the database: whether it answers, and whether every migration is applied.
import type { Pool } from './db.ts';
import { migrationsApplied } from './migrate.ts';

export async function databaseReadiness(db: Pool): Promise<{ database: boolean; migrations: boolean }> {
  let database = false;
  let migrations = false;
  try {
    await db.query('SELECT 1');
    database = true;
    migrations = await migrationsApplied(db);
  } catch {
    // reported as false
  }
  return { database, migrations };
}
