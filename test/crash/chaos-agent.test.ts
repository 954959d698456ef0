// The chaos drill's agent has room for a drill of any length. Its inbox had the default 500
// recipients a rolling 24 hours: `npm run chaos -- --minutes 10` used them up after two rounds,
// every send was refused from then on, and the drill died waiting for its load without a ledger.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { DRILL_RECIPIENT_LIMIT, setUpAgent } from '../../testkit/drills.ts';
import { startTestService } from '../../testkit/service.ts';

test("the drill's inbox sends to far more recipients than the default 24-hour limit of 500", async () => {
  const svc = await startTestService();
  const agent = await setUpAgent(svc, svc.databaseUrl, svc.config.dataDir);
  const inbox = await svc.api.get(`/v1/inboxes/${agent.inboxId}`, agent.key);
  assert.equal(inbox.status, 200, inbox.text);
  assert.equal(inbox.body.recipient_limit_24h, DRILL_RECIPIENT_LIMIT);
  assert.ok(DRILL_RECIPIENT_LIMIT >= 100 * 500, 'room for a drill a hundred times as long as the one that stopped');
  // Past the old limit in one go: 11 sends of 50 recipients each (the most one send may name).
  const to = Array.from({ length: 50 }, (_, i) => `dana${i}@acme.example`);
  for (let i = 0; i < 11; i++) {
    const r = await svc.api.post(`/v1/inboxes/${agent.inboxId}/send`, { to, subject: `Drill ${i}`, text: 'Drill.' }, agent.key);
    assert.equal(r.status, 202, `send ${i}: ${r.text}`);
  }
});
