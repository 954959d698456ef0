import assert from 'node:assert/strict';
import { after, test } from '../../testkit/test.ts';
import { createLogger } from '../../service/logger.ts';
import { createPool } from '../../storage/db.ts';
import { assertServerVersion, migrate, migrationFiles, migrationsApplied } from '../../storage/migrate.ts';
import { createTestDatabase } from '../../testkit/db.ts';

test('two processes migrating one database together apply each migration exactly once', async () => {
  const db = await createTestDatabase({ empty: true });
  const log = createLogger('silent');
  const p1 = createPool(db.url, log);
  const p2 = createPool(db.url, log);
  after(async () => {
    await p1.end();
    await p2.end();
    await db.drop();
  });
  const [a, b] = await Promise.all([migrate(p1), migrate(p2)]);
  const files = await migrationFiles();
  assert.deepEqual([...a, ...b].sort(), files, 'between them every file was applied once');
  const { rows } = await p1.query('SELECT name FROM schema_migrations ORDER BY name');
  assert.deepEqual(rows.map((r) => r.name), files);
  assert.equal(await migrationsApplied(p1), true);
  assert.deepEqual(await migrate(p1), [], 'a restart applies nothing');
});

test('a PostgreSQL older than 13 is refused with a message naming its version', () => {
  assert.throws(() => assertServerVersion(120017, '12.17'), /PostgreSQL 12\.17 is too old: agent-inbox needs version 13 or later/);
  assert.doesNotThrow(() => assertServerVersion(130000, '13.0'));
});
