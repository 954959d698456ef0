import assert from 'node:assert/strict';
import { after, test } from '../../testkit/test.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { createLogger } from '../../service/logger.ts';
import { createListener } from '../../service/listener.ts';
import { createTestDatabase } from '../../testkit/db.ts';

const database = await createTestDatabase();
after(() => database.drop());

async function listenConnections(): Promise<number> {
  const c = new pg.Client({ connectionString: database.url });
  await c.connect();
  try {
    const { rows } = await c.query(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'agent-inbox-listen'",
    );
    return rows[0].n;
  } finally {
    await c.end();
  }
}

test('closing the listener while its connection is still being made leaves no connection open', async () => {
  const listener = createListener(database.url, createLogger('silent'));
  listener.on('some_channel', () => {});
  await listener.close();
  // A connection that outlived close() would have finished connecting by now.
  await sleep(1_000);
  assert.equal(await listenConnections(), 0);
});

test('closing a connected listener ends its connection', async () => {
  const listener = createListener(database.url, createLogger('silent'));
  listener.on('some_channel', () => {});
  await listener.ready();
  assert.equal(await listenConnections(), 1);
  await listener.close();
  assert.equal(await listenConnections(), 0);
});
