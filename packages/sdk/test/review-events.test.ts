// reviewEvents() against the real service: it hands the loop each event of the durable review
// queue once, acks what the loop moved past, and gives back only what was not acked.
import assert from 'node:assert/strict';
import { test } from '../../../testkit/test.ts';
import { AgentInbox, type ReviewEvent } from '@agent-inbox/sdk';
import { createTenant, startTestService } from '../../../testkit/service.ts';
import { waitFor } from '../../../testkit/wait.ts';

const svc = await startTestService();
const tenant = await createTenant(svc);
const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;
const { agentKey } = await tenant.enroll('review-events');

// Counts the long polls, to show the loop waits on the server instead of spinning.
let waits = 0;
const client = new AgentInbox({
  baseUrl: svc.url,
  apiKey: agentKey,
  fetch: (input, init) => {
    if (String(input).includes('/v1/reviews/events/wait')) waits++;
    return fetch(input, init);
  },
});

test('reviewEvents delivers a review\'s events to the loop in order, once each, and acks those it moved past', async () => {
  const inbox: any = await client.createInbox({ display_name: 'Loop' });
  const queued: any = await client.sendEmail(inbox.id, {
    to: 'dana@example.com', subject: 'Hello', text: 'Hi Dana', intent: { summary: 'Welcome Dana, who signed up today' },
  });
  const rr: string = queued.review_id;
  for (const action of ['open', 'approve']) {
    const r = await svc.api.post(`${A}/reviews/${rr}/decision`, { action }, tenant.consoleToken);
    assert.equal(r.status, 200, r.text);
  }

  const seen: ReviewEvent[] = [];
  for await (const event of client.reviewEvents({ timeoutSeconds: 5, signal: AbortSignal.timeout(60_000) })) {
    seen.push(event);
    if (event.review_id === rr && event.type === 'review.sent') break;
  }
  const seqs = seen.map((e) => e.seq);
  assert.deepEqual(seqs, [...seqs].sort((a, b) => a - b), 'oldest first');
  assert.equal(new Set(seqs).size, seqs.length, 'no event read twice');
  assert.equal(seen[0]!.type, 'review.created');
  assert.ok(seen.every((e) => e.review_id === rr));
  assert.ok(waits <= 5, `long-polled ${waits} times for one review`);

  // Everything before review.sent was acked; the event the loop broke on was not.
  const pending: any = await client.listReviewEvents({ review_id: rr });
  assert.deepEqual(pending.data.map((e: ReviewEvent) => e.type), ['review.sent']);

  // The next loop gets that one again, and acks it when it moves on (to a long poll that finds
  // nothing, ended here by aborting).
  const ac = new AbortController();
  const loop = client.reviewEvents({ timeoutSeconds: 2, signal: ac.signal });
  const again: ReviewEvent[] = [];
  const first = await loop.next();
  if (!first.done) again.push(first.value);
  const rest = loop.next();
  await waitFor(async () => ((await client.listReviewEvents({ review_id: rr })) as any).data.length === 0, 'review.sent acked');
  ac.abort();
  assert.deepEqual(await rest, { done: true, value: undefined });
  assert.deepEqual(again.map((e) => [e.review_id, e.type]), [[rr, 'review.sent']]);
});
