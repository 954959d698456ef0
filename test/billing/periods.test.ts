// The period-boundary job: ended days and months are closed once, each announced with a
// usage.period_closed event carrying its final figures; the open periods keep counting.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { closeUsagePeriods } from '../../actors/usage-periods.ts';
import { usagePeriodsWorker } from '../../actors/workers/usage-periods.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { agentWithInbox, deliverInbound } from '../reviews/setup.ts';

const svc = await startTestService({ roles: ['api', 'smtp'] });
const db = svc.services.db;

test('the boundary job closes ended periods once with a usage event each, and leaves the current ones open', async () => {
  assert.equal(usagePeriodsWorker.cron, '1 0 * * *', 'runs once a UTC day, just after midnight');
  const tenant = await createTenant(svc, { plan: 'developer' });
  const agent = await agentWithInbox(svc, tenant);
  for (let i = 0; i < 2; i++) await deliverInbound(svc, agent.address, { from: 'pat@example.net', subject: `In ${i}`, text: 'hello' });

  // The counters of a day and a month that have ended: today's rows, filed under earlier keys
  // (the job reads no clock of ours; PostgreSQL's now() decides what has ended).
  // (Counters are kept in slots, one a database session: each slot's rows are copied.)
  const { rows: today } = await db.query(`SELECT DISTINCT period FROM usage_periods WHERE org_id = $1 ORDER BY period`, [tenant.orgId]);
  assert.equal(today.length, 2, 'a month and a day');
  await db.query(
    `INSERT INTO usage_periods (org_id, period, slot, received_messages, received_recipients, storage_peak_bytes)
     SELECT org_id, p, slot, received_messages, received_recipients, storage_peak_bytes FROM usage_periods, unnest(ARRAY['2020-01', '2020-01-31']) p
      WHERE org_id = $1 AND period = to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM')`,
    [tenant.orgId],
  );

  const closed = await closeUsagePeriods(svc.services);
  assert.ok(closed >= 2);
  const { rows: events } = await db.query(
    `SELECT type, project_id, payload FROM events WHERE org_id = $1 AND type = 'usage.period_closed' ORDER BY payload->>'period'`,
    [tenant.orgId],
  );
  assert.deepEqual(events.map((e) => [e.project_id, e.payload.period, e.payload.kind, e.payload.received_messages, e.payload.total_messages]), [
    [tenant.projectId, '2020-01', 'month', 2, 2],
    [tenant.projectId, '2020-01-31', 'day', 2, 2],
  ]);
  const { rows: open } = await db.query(`SELECT DISTINCT period FROM usage_periods WHERE org_id = $1 AND closed_at IS NULL ORDER BY period`, [tenant.orgId]);
  assert.deepEqual(open.map((r) => r.period), today.map((r) => r.period));

  assert.equal(await closeUsagePeriods(svc.services), 0, 'a second run closes nothing');
  await deliverInbound(svc, agent.address, { from: 'pat@example.net', subject: 'Later', text: 'hello' });
  const usage = await svc.api.get(`/v1/admin/orgs/${tenant.orgId}/billing/usage`, tenant.consoleToken);
  assert.equal(usage.body.received_messages, 3, 'the current month still counts');
});
