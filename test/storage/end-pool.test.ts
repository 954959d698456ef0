import assert from 'node:assert/strict';
import { after, test } from '../../testkit/test.ts';
import pg from 'pg';
import { createLogger } from '../../service/logger.ts';
import { createPool, endPool } from '../../storage/db.ts';
import { createTestDatabase } from '../../testkit/db.ts';

const database = await createTestDatabase();
after(() => database.drop());

// A PostgreSQL stopped right after the service's pools end must find none of their connections
// still open, or each reports its connection lost on the way out.
test('endPool resolves only once PostgreSQL has let go of every connection the pool held', async () => {
  const pool = createPool(database.url, createLogger('silent'), 8, 'end-pool-test');
  const held = await Promise.all(Array.from({ length: 6 }, () => pool.connect()));
  for (const client of held) client.release();
  const watcher = new pg.Client({ connectionString: database.url });
  await watcher.connect();
  try {
    const before = await watcher.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'end-pool-test'");
    assert.equal(before.rows[0].n, 6);
    await endPool(pool);
    const afterEnd = await watcher.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'end-pool-test'");
    assert.equal(afterEnd.rows[0].n, 0);
  } finally {
    await watcher.end();
  }
});

test('endPool on a pool that never connected resolves at once', async () => {
  await endPool(createPool(database.url, createLogger('silent'), 2));
});
