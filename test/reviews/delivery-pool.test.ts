// Review deliveries run on the workers' own connections (roles/start.ts): each holds one through
// its relay conversation, so a relay that stalls with deliveries in flight must leave the API's
// pool untouched, and every delivery must finish once the relay answers. Sixteen run at once
// (actors/workers/review-delivery.ts) even when sends come one by one.
import assert from 'node:assert/strict';
import { after, test } from '../../testkit/test.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { startRelay } from '../../testkit/relay.ts';
import { INTENT, agentWithInbox, setPolicy } from './setup.ts';

const SENDS = 16;
const relay = await startRelay('hold-data');
after(() => relay.close());
const svc = await startTestService({ roles: ['api', 'worker'], env: { SMTP_URL: relay.url } });
const tenant = await createTenant(svc, { plan: 'enterprise' });

async function until(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

test('sixteen sends made one by one are all at a stalled relay at once, hold none of the API\'s connections, and all finish once it answers', async () => {
  const agent = await agentWithInbox(svc, tenant);
  await setPolicy(agent, 'allow_direct');
  const ids: string[] = [];
  for (let i = 0; i < SENDS; i++) {
    const sent = await agent.send({ to: `dana${i}@acme.example`, subject: `Held ${i}`, text: 'Waiting on the relay.', intent: INTENT });
    assert.equal(sent.status, 202, sent.text);
    ids.push(sent.body.review_id);
  }
  // Each send is fetched alone as it comes, and none waits for another's delivery to end.
  await until(() => relay.received.length === SENDS, 'all sixteen deliveries to reach the relay');
  const held = relay.received.length;

  const api = svc.services.db;
  assert.equal(api.totalCount - api.idleCount, 0, 'no connection of the API\'s pool is checked out');
  const { rows } = await api.query(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'agent-inbox-worker'`,
  );
  assert.ok(rows[0].n >= held, `the ${held} deliveries waiting hold the workers' connections (${rows[0].n})`);
  const reads = await Promise.all(ids.map((id) => agent.review(id)));
  assert.deepEqual(reads.map((r) => r.status), ids.map(() => 200), 'the API answers while they wait');

  relay.release();
  await until(async () => (await Promise.all(ids.map((id) => agent.review(id)))).every((r) => r.body.state === 'auto_sent'), 'every review to be sent');
  assert.equal(relay.received.length, SENDS, 'each handed to the relay once');
});
