// The daily cap is exact across processes: two service processes on one database, 16 concurrent
// senders against the free plan's 100 recipients a day, every send one recipient. Exactly 100 are
// accepted, the rest are 403 quota_exceeded, and the counters hold 100 reserved, 100 reviews.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { spawnService } from '../../testkit/drills.ts';
import type { Client } from '../../testkit/http.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { INTENT } from '../reviews/setup.ts';

const svc = await startTestService({ roles: ['api'] });
const db = svc.services.db;

test('16 concurrent senders on two processes against a daily cap of 100: exactly 100 accepted, the rest 403, counters exact', async () => {
  const other = await spawnService({ DATABASE_URL: svc.databaseUrl, DATA_DIR: svc.config.dataDir }, { roles: ['api'] });
  try {
    const tenant = await createTenant(svc, { plan: 'free' });
    // The free plan has three inboxes: three agents, one inbox each.
    const senders: Array<{ key: string; inbox: string }> = [];
    for (let i = 0; i < 3; i++) {
      const { agentKey } = await tenant.enroll(`racer-${i}`);
      const inbox = await svc.api.post('/v1/inboxes', {}, agentKey);
      assert.equal(inbox.status, 201, inbox.text);
      senders.push({ key: agentKey, inbox: inbox.body.id });
    }
    const apis: Client[] = [svc.api, other.api];
    const statuses: number[] = [];
    const reasons = new Set<string>();
    await Promise.all(
      Array.from({ length: 16 }, async (_, n) => {
        const api = apis[n % 2]!;
        const { key, inbox } = senders[n % 3]!;
        for (let i = 0; i < 8; i++) {
          const r = await api.post(`/v1/inboxes/${inbox}/send`, { to: `p${n}-${i}@acme.example`, text: 'Hello', intent: INTENT }, key);
          statuses.push(r.status);
          if (r.status === 403) reasons.add(`${r.body.code}/${r.body.reason}/${r.body.limit}`);
          else assert.equal(r.status, 202, r.text);
        }
      }),
    );
    assert.equal(statuses.length, 128);
    assert.equal(statuses.filter((s) => s === 202).length, 100);
    assert.equal(statuses.filter((s) => s === 403).length, 28);
    assert.deepEqual([...reasons], ['quota_exceeded/daily_message_cap_exceeded/100']);

    const n = async (sql: string) => (await db.query(sql, [tenant.orgId])).rows[0].n as number;
    assert.equal(await n('SELECT count(*)::int AS n FROM reviews WHERE org_id = $1'), 100);
    assert.equal(await n('SELECT sum(reserved_recipients)::int AS n FROM reviews WHERE org_id = $1'), 100);
    assert.equal(await n('SELECT reserved::int AS n FROM usage_accounts WHERE org_id = $1'), 100);
    const me = await other.api.get('/v1/auth/me', senders[0]!.key);
    assert.deepEqual([me.body.sending.daily_remaining, me.body.sending.monthly_remaining], [0, 2900]);
  } finally {
    await other.stop();
  }
});
