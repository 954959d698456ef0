// The daily auto-send count against the database itself: many senders at once, most of them
// past the cap, each in a transaction that holds its slot for a while, as a send does.
import assert from 'node:assert/strict';
import { after, test } from '../../testkit/test.ts';
import { createLogger } from '../../service/logger.ts';
import { createPool, withTransaction } from '../../storage/db.ts';
import { AUTO_SEND_SLOTS, closeAutoSendDays, makeTodaysAutoSendSlots, makeTomorrowsAutoSendSlots, takeAutoSend } from '../../storage/categories.ts';
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
  await makeTodaysAutoSendSlots(pool, 'org_slots');
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
  assert.equal(outcomes.filter((o) => o === true).length, cap);
  assert.equal(outcomes.filter((o) => o === false).length, 160 - cap);
  const counted = await pool.query(`SELECT sum(sent)::int AS sent, sum(held)::int AS held, count(*)::int AS slots FROM auto_send_counters WHERE org_id = 'org_slots'`);
  assert.deepEqual(counted.rows[0], { sent: cap, held: 160 - cap, slots: AUTO_SEND_SLOTS });
});

test("with the day's slots made ahead, 16 first senders of the day at once each take a slot of their own", async () => {
  const org = 'org_ahead';
  // As the daily job made them the day before (makeTomorrowsAutoSendSlots).
  await pool.query(
    `INSERT INTO auto_send_counters (org_id, day, slot) SELECT $1, (now() AT TIME ZONE 'UTC')::date, s FROM generate_series(0, ${AUTO_SEND_SLOTS - 1}) s`,
    [org],
  );
  // Every sender keeps its transaction (and its slot) open until all have taken one, or 3 s passed.
  let taken = 0;
  const allTaken = new Promise<void>((resolve) => {
    const check = setInterval(() => taken === AUTO_SEND_SLOTS && (clearInterval(check), resolve()), 5);
    setTimeout(() => (clearInterval(check), resolve()), 3_000);
  });
  const outcomes = await Promise.all(
    Array.from({ length: AUTO_SEND_SLOTS }, () =>
      withTransaction(pool, async (tx) => {
        const ok = await takeAutoSend(tx, org, 1_000);
        taken++;
        await allTaken;
        return ok;
      }),
    ),
  );
  assert.equal(taken, AUTO_SEND_SLOTS);
  assert.deepEqual(outcomes, Array(AUTO_SEND_SLOTS).fill(true));
  const slots = await pool.query(`SELECT slot, sent FROM auto_send_counters WHERE org_id = $1 ORDER BY slot`, [org]);
  assert.deepEqual(slots.rows.map((r) => r.sent), Array(AUTO_SEND_SLOTS).fill(1), 'one sender a slot: none waited for another');
});

test('with no slots today a sender counts nothing and is told so; the day is made apart, once, however many make it at once', async () => {
  const org = 'org_unmade';
  const answers = await Promise.all(Array.from({ length: 4 }, () => withTransaction(pool, (tx) => takeAutoSend(tx, org, 100))));
  assert.deepEqual(answers, [null, null, null, null]);
  assert.equal((await pool.query(`SELECT count(*)::int AS n FROM auto_send_counters WHERE org_id = $1`, [org])).rows[0].n, 0, 'nothing made or counted inside the sends');
  await Promise.all(Array.from({ length: 8 }, () => makeTodaysAutoSendSlots(pool, org)));
  const slots = await pool.query(`SELECT count(*)::int AS slots, sum(sent)::int AS sent FROM auto_send_counters WHERE org_id = $1 AND day = (now() AT TIME ZONE 'UTC')::date`, [org]);
  assert.deepEqual(slots.rows[0], { slots: AUTO_SEND_SLOTS, sent: 0 });
});

test('16 first senders of a day at once, the slots made apart as the send does: each then takes a slot of their own', async () => {
  const org = 'org_first';
  // Every sender keeps its transaction (and its slot) open until all have taken one, or 5 s passed.
  let taken = 0;
  let allTookAtOnce = false;
  const allTaken = new Promise<void>((resolve) => {
    const check = setInterval(() => taken === AUTO_SEND_SLOTS && ((allTookAtOnce = true), clearInterval(check), resolve()), 5);
    setTimeout(() => (clearInterval(check), resolve()), 5_000);
  });
  // As submitSend does: a send that finds no slots makes them in a transaction of its own and tries again.
  const send = async (): Promise<boolean> => {
    for (;;) {
      const counted = await withTransaction(pool, async (tx) => {
        const ok = await takeAutoSend(tx, org, 1_000);
        if (ok === null) return null;
        taken++;
        await allTaken;
        return ok;
      });
      if (counted !== null) return counted;
      await makeTodaysAutoSendSlots(pool, org);
    }
  };
  const outcomes = await Promise.all(Array.from({ length: AUTO_SEND_SLOTS }, send));
  assert.deepEqual(outcomes, Array(AUTO_SEND_SLOTS).fill(true));
  const dist = (await pool.query(`SELECT slot, sent FROM auto_send_counters WHERE org_id = $1 ORDER BY slot`, [org])).rows.map((r) => r.sent);
  assert.ok(allTookAtOnce, `each took a slot while all the others held theirs: none queued behind another (slots counted ${dist.join(',')})`);
  assert.deepEqual(dist, Array(AUTO_SEND_SLOTS).fill(1), 'one sender a slot');
});

test("the daily job's helper makes tomorrow's slots for the customers that auto-sent today, once", async () => {
  await pool.query(
    `INSERT INTO auto_send_counters (org_id, day, slot, sent) VALUES ('org_today', (now() AT TIME ZONE 'UTC')::date, 3, 5), ('org_yesterday', (now() AT TIME ZONE 'UTC')::date - 1, 0, 2)`,
  );
  const made = await makeTomorrowsAutoSendSlots(pool);
  assert.ok(made >= 1);
  const tomorrow = (org: string) =>
    pool.query(`SELECT count(*)::int AS slots, sum(sent)::int AS sent FROM auto_send_counters WHERE org_id = $1 AND day = (now() AT TIME ZONE 'UTC')::date + 1`, [org]);
  assert.deepEqual((await tomorrow('org_today')).rows[0], { slots: AUTO_SEND_SLOTS, sent: 0 });
  assert.deepEqual((await tomorrow('org_yesterday')).rows[0], { slots: 0, sent: null }, 'a customer that did not auto-send today gets none');
  // Run again (each hour): nothing more.
  await makeTomorrowsAutoSendSlots(pool);
  assert.deepEqual((await tomorrow('org_today')).rows[0], { slots: AUTO_SEND_SLOTS, sent: 0 });
});

test('a day made ahead in which the customer auto-sent nothing is removed when it ends, and not reported', async () => {
  await pool.query(
    `INSERT INTO auto_send_counters (org_id, day, slot) SELECT 'org_quiet', (now() AT TIME ZONE 'UTC')::date - 1, s FROM generate_series(0, ${AUTO_SEND_SLOTS - 1}) s`,
  );
  const closed = await closeAutoSendDays(pool);
  assert.equal(closed.some((d) => d.org_id === 'org_quiet'), false);
  const left = await pool.query(`SELECT count(*)::int AS n FROM auto_send_counters WHERE org_id = 'org_quiet'`);
  assert.equal(left.rows[0].n, 0);
});
