// One delivery at a time per review: a worker takes the review's lock and reads the review in one
// round trip, the read after the lock, so a worker that takes the lock after another let it go
// sees that one's outcome and sends nothing again.
import assert from 'node:assert/strict';
import { after, test } from '../../testkit/test.ts';
import { deliverReview } from '../../actors/delivery.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { startRelay } from '../../testkit/relay.ts';
import { INTENT, agentWithInbox, setPolicy } from './setup.ts';

const relay = await startRelay('hold-data');
after(() => relay.close());
// No worker role: deliveries run only when the test calls them.
const svc = await startTestService({ roles: ['api'], env: { SMTP_URL: relay.url } });
const tenant = await createTenant(svc, { plan: 'enterprise' });
const deps = { db: svc.services.db, queue: svc.services.queue, config: svc.config, log: svc.services.log };

/** Sessions holding this review's delivery lock (a bigint advisory key: its high half in classid, its low half in objid). */
async function deliveryLocksHeld(reviewId: string): Promise<number> {
  const { rows } = await svc.services.db.query(
    `WITH k AS (SELECT hashtextextended('review-delivery ' || $1, 0) AS key)
     SELECT count(*)::int AS n FROM pg_locks, k
      WHERE locktype = 'advisory' AND granted AND objsubid = 1 AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND classid::bigint = (k.key >> 32) & 4294967295 AND objid::bigint = k.key & 4294967295`,
    [reviewId],
  );
  return rows[0].n;
}

test('a second worker on a review being delivered sends nothing; one after it finds the review sent; no lock is left behind', async () => {
  const agent = await agentWithInbox(svc, tenant);
  await setPolicy(agent, 'allow_direct');
  const sent = await agent.send({ to: 'dana@acme.example', subject: 'Once', text: 'Only once.', intent: INTENT });
  assert.equal(sent.status, 202, sent.text);
  assert.equal(sent.body.review.state, 'sending_auto');
  const job = { org_id: tenant.orgId, review_id: sent.body.review_id };

  const first = deliverReview(deps, job);
  await relay.held;
  assert.equal(await deliveryLocksHeld(job.review_id), 1, 'the first worker holds the lock');
  await assert.rejects(deliverReview(deps, job), /being delivered by another worker/);
  relay.release();
  await first;
  assert.equal((await agent.review(sent.body.review_id)).body.state, 'auto_sent');

  await deliverReview(deps, job);
  assert.deepEqual(relay.received.map((m) => m.mail.subject), ['Once'], 'handed to the relay once');
  assert.equal(await deliveryLocksHeld(job.review_id), 0);
});
