// The daily auto-send count against the database itself: many senders at once, most of them
// past the cap, each in a transaction that holds its slot for a while, as a send does.
import assert from 'node:assert/strict';
import { after, test } from '../../testkit/test.ts';
import { createLogger } from '../../service/logger.ts';
import { createPool, withTransaction } from '../../storage/db.ts';
import { AUTO_SEND_SLOTS, takeAutoSend } from '../../storage/categories.ts';
import { migrate } from '../../storage/migrate.ts';
import { createTestDatabase } from '../../testkit/db.ts';

const database = await createTestDatabase();
const pool = createPool(database.url, createLogger('silent'), 64);
after(async () => {
  await pool.end();
  await database.drop();
});
await migrate(pool);

test('160 senders at once against a cap of 40: exactly 40 counted, the rest held, and no two senders deadlock', async () => {
  const cap = 40;
  const outcomes = await Promise.all(
    Array.from({ length: 160 }, () =>
      withTransaction(pool, async (tx) => {
        const taken = await takeAutoSend(tx, 'org_slots', cap);
        // The rest of a send's transaction, with its slot still held.
        await tx.query('SELECT pg_sleep(0.01)');
        return taken;
      }),
    ),
  );
  assert.equal(outcomes.filter(Boolean).length, cap);
  const counted = await pool.query(`SELECT sum(sent)::int AS sent, sum(held)::int AS held, count(*)::int AS slots FROM auto_send_counters WHERE org_id = 'org_slots'`);
  assert.deepEqual(counted.rows[0], { sent: cap, held: 160 - cap, slots: AUTO_SEND_SLOTS });
});
