// The event log and a review's queue keep the order their events were appended in one transaction,
// whether an append travels with the COMMIT (no webhook takes it) or runs at once: an append that
// runs at once runs the ones left before it first.
import assert from 'node:assert/strict';
import { after, test } from '../../testkit/test.ts';
import { createLogger } from '../../service/logger.ts';
import { createPool, endPool, withTransaction } from '../../storage/db.ts';
import { appendEvent, appendEventAtCommit } from '../../storage/events.ts';
import { newId } from '../../storage/ids.ts';
import { appendReviewEvent, appendReviewEventAtCommit, type NewReviewEvent } from '../../storage/review-events.ts';
import { createTestDatabase } from '../../testkit/db.ts';

const database = await createTestDatabase();
// One connection: the statements the first transaction prepares are the ones the next leaves for its COMMIT.
const db = createPool(database.url, createLogger('silent'), 1);
after(async () => {
  await endPool(db);
  await database.drop();
});

const at = { org_id: newId('org'), project_id: newId('prj'), inbox_id: newId('inb') };
const reviewEvent = (review_id: string, type: string): NewReviewEvent => ({
  ...at, review_id, agent_id: 'agt_x', type, state: 'sent', from_state: null, category_id: null, revision: 1, effective_mode: 'review',
});

/** One transaction appending, in this order: a review event at commit, a log event at once, a review event at once, a log event at commit. */
async function appendMixed(review_id: string): Promise<string[]> {
  const types = [`${review_id}:review.sent`, `${review_id}:message.delivered`, `${review_id}:message.bounced`, `${review_id}:notification.sent`];
  await withTransaction(db, async (tx) => {
    await appendReviewEventAtCommit(tx, reviewEvent(review_id, types[0]!), {});
    await appendEvent(tx, { ...at, type: types[1]!, payload: {} }, false);
    await appendReviewEvent(tx, reviewEvent(review_id, types[2]!), {});
    await appendEventAtCommit(tx, { ...at, type: types[3]!, payload: {} });
  });
  return types;
}

test('appends at commit and at once, mixed in one transaction, keep their order on the event log and the review queue', async () => {
  // The first transaction prepares the statements; the second leaves its appends for the COMMIT.
  for (const review of [newId('rr'), newId('rr')]) {
    const types = await appendMixed(review);
    const log = await db.query<{ type: string }>('SELECT type FROM events WHERE org_id = $1 AND type LIKE $2 ORDER BY id', [at.org_id, `${review}:%`]);
    assert.deepEqual(log.rows.map((r) => r.type), types);
    const queue = await db.query<{ type: string; seq: number }>('SELECT type, seq FROM review_events WHERE org_id = $1 AND review_id = $2 ORDER BY id', [at.org_id, review]);
    assert.deepEqual(queue.rows.map((r) => [r.type, r.seq]), [[types[0], 1], [types[2], 2]]);
  }
});
