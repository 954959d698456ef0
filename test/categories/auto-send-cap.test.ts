// The daily auto-send cap under concurrency: eight agents send at once through two API
// processes on one database against a cap of 50. Exactly 50 go out on their own, the rest are
// queued for review with reason auto_send_cap, and every send has its review.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { autoSendCapsWorker } from '../../actors/workers/auto-send-caps.ts';
import { AUTO_SEND_SLOTS, autoSendsToday } from '../../storage/categories.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { INTENT, agentWithInbox, type Agent } from '../reviews/setup.ts';

const svc = await startTestService({ roles: ['api'] });
const second = await startTestService({ roles: ['api'], databaseUrl: svc.databaseUrl });
const tenant = await createTenant(svc, { plan: 'developer' });
const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;
const db = svc.services.db;

test('80 concurrent sends in a graduated category on two processes against a cap of 50: exactly 50 auto-sent, 30 queued, none lost', async () => {
  const settings = await svc.api.patch(`${A}/review-settings`, { auto_send_cap_per_day: 50, first_contact_gate: false }, tenant.consoleToken);
  assert.equal(settings.status, 200, settings.text);
  const cat = await svc.api.post(`${A}/categories`, { name: 'Status updates', risk: { graduate_min_approvals: 0, graduate_min_age_hours: 0 } }, tenant.consoleToken);
  assert.equal((await svc.api.post(`${A}/categories/${cat.body.id}/graduate`, {}, tenant.consoleToken)).body.rung, 'auto_notify');
  const agents: Agent[] = [];
  for (let i = 0; i < 8; i++) agents.push(await agentWithInbox(svc, tenant, { handle: `sender-${i}` }));

  const replies = await Promise.all(
    Array.from({ length: 80 }, (_, i) => {
      const agent = agents[i % 8]!;
      const api = i % 2 ? second.api : svc.api;
      return api.post(`/v1/inboxes/${agent.inboxId}/send`, { to: 'ops@acme.example', subject: `Status ${i}`, text: 'All green.', intent: INTENT, category_id: cat.body.id }, agent.key);
    }),
  );
  assert.deepEqual(replies.filter((r) => r.status !== 202).map((r) => r.text), []);
  const released = replies.filter((r) => r.body.outcome === 'released');
  const queued = replies.filter((r) => r.body.outcome === 'queued_for_review');
  assert.equal(released.length, 50);
  assert.equal(queued.length, 30);
  assert.ok(released.every((r) => r.body.review.mode_reason === 'category_auto_notify'));
  assert.ok(queued.every((r) => r.body.review.mode_reason === 'auto_send_cap' && r.body.review.effective_mode === 'review'));

  const { rows } = await db.query(
    `SELECT m.state, count(*)::int AS n FROM machine_instances m WHERE m.org_id = $1 AND m.kind = 'review' GROUP BY m.state ORDER BY m.state`,
    [tenant.orgId],
  );
  assert.deepEqual(rows, [{ state: 'needs_review', n: 30 }, { state: 'sending_auto', n: 50 }]);
  assert.deepEqual(await autoSendsToday(db, tenant.orgId), { sent: 50, held: 30 });

  // Over the cap nothing is refused: one more is queued too.
  const more = await svc.api.post(`/v1/inboxes/${agents[0]!.inboxId}/send`, { to: 'ops@acme.example', subject: 'One more', text: 'x', intent: INTENT, category_id: cat.body.id }, agents[0]!.key);
  assert.equal(more.status, 202);
  assert.equal(more.body.review.mode_reason, 'auto_send_cap');
});

test('the daily job closes the days that ended and reports them; today\'s counter stays and tomorrow\'s is made', async () => {
  await db.query(
    `INSERT INTO auto_send_counters (org_id, day, slot, sent, held) VALUES ($1, (now() AT TIME ZONE 'UTC')::date - 1, 0, 4, 2), ($1, (now() AT TIME ZONE 'UTC')::date - 1, 5, 3, 0)`,
    [tenant.orgId],
  );
  const reported: unknown[] = [];
  const log = { ...svc.services.log, info: (o: unknown) => reported.push(o) } as typeof svc.services.log;
  const outcome = await autoSendCapsWorker.perform({}, { db, queue: svc.services.queue, config: svc.services.config, log });
  assert.equal(outcome, 'closed');
  assert.deepEqual(reported.map((r: any) => [r.org_id, r.auto_sent, r.held_by_cap]), [[tenant.orgId, 7, 2]]);
  const left = () =>
    db.query(
      `SELECT day - (now() AT TIME ZONE 'UTC')::date AS from_today, count(*)::int AS slots, sum(sent)::int AS sent
         FROM auto_send_counters WHERE org_id = $1 GROUP BY day ORDER BY day`,
      [tenant.orgId],
    );
  assert.deepEqual((await left()).rows, [
    { from_today: 0, slots: AUTO_SEND_SLOTS, sent: 50 },
    { from_today: 1, slots: AUTO_SEND_SLOTS, sent: 0 },
  ]);
  assert.deepEqual(await autoSendsToday(db, tenant.orgId), { sent: 50, held: 31 });
  assert.equal(await autoSendCapsWorker.perform({}, { db, queue: svc.services.queue, config: svc.services.config, log }), 'nothing');
  assert.equal((await left()).rows.length, 2, 'made once');
});
