// The period boundary: once a UTC day (and so a month) has ended, its counters are final. Each
// ended period is closed once and announced with a `usage.period_closed` event carrying its
// figures, so a billing system can read them from the event log instead of polling.
import type { Queue } from '../service/queue.ts';
import { withTransaction, type Pool } from '../storage/db.ts';
import { firstProjectOf } from '../storage/tenancy.ts';
import { closeEndedPeriods } from '../storage/usage.ts';
import { publishEvent } from './events.ts';

/** Closes every ended period (catching up after downtime); returns how many it closed. */
export async function closeUsagePeriods(deps: { db: Pool; queue: Queue }): Promise<number> {
  return withTransaction(deps.db, async (tx) => {
    const closed = await closeEndedPeriods(tx);
    for (const p of closed) {
      const project = await firstProjectOf(tx, p.org_id);
      if (!project) continue;
      await publishEvent(tx, deps.queue, {
        org_id: p.org_id,
        project_id: project,
        type: 'usage.period_closed',
        payload: {
          billing_owner_id: p.org_id,
          period: p.period,
          kind: p.period.length === 7 ? 'month' : 'day',
          sent_messages: p.sent_messages,
          sent_recipients: p.sent_recipients,
          received_messages: p.received_messages,
          received_recipients: p.received_recipients,
          total_messages: p.sent_recipients + p.received_recipients,
          storage_peak_used_bytes: p.storage_peak_bytes,
        },
      });
    }
    return closed.length;
  });
}
