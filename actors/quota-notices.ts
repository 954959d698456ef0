// Inbound mail refused over quota: the org's owners hear of it once a day (per kind), by one
// system mail each and one `usage.quota_exceeded` event, not once per refused message.
import type { Config } from '../service/config.ts';
import type { Logger } from '../service/logger.ts';
import type { Queue } from '../service/queue.ts';
import { withTransaction, type Pool } from '../storage/db.ts';
import type { InboxRow } from '../storage/inboxes.ts';
import { ownerEmails } from '../storage/tenancy.ts';
import { claimQuotaNotice } from '../storage/usage.ts';
import { publishEvent } from './events.ts';
import { sendSystemMail } from './system-mail.ts';

export type QuotaNoticeDeps = { db: Pool; queue: Queue; config: Config; log: Logger };

const WHAT = {
  monthly_message_quota: 'its monthly message quota is used up',
  storage: 'its mail storage is full',
} as const;

/** Tells the owners, unless they were told today; true when this call told them. */
export async function noticeInboundRefused(
  deps: QuotaNoticeDeps,
  refusal: { org_id: string; inbox: InboxRow; kind: keyof typeof WHAT },
  now: Date,
): Promise<boolean> {
  return withTransaction(deps.db, async (tx) => {
    if (!(await claimQuotaNotice(tx, refusal.org_id, refusal.kind))) return false;
    const { inbox } = refusal;
    const owners = await ownerEmails(tx, refusal.org_id);
    const text = [
      `Mail to ${inbox.address} and the other inboxes of your organization is being refused for now: ${WHAT[refusal.kind]}.`,
      'Senders were asked to try again later (SMTP 452); nothing was accepted and dropped.',
      'Raise the limit by changing the plan, or free storage by deleting inboxes you no longer need.',
    ].join('\n\n');
    for (const to of owners) {
      await sendSystemMail(deps, tx, { org_id: inbox.org_id, project_id: inbox.project_id, inbox_id: inbox.id }, {
        to,
        subject: `Inbound mail refused: ${WHAT[refusal.kind]}`,
        text,
        kind: 'quota_notice',
      }, now);
    }
    await publishEvent(tx, deps.queue, {
      org_id: refusal.org_id,
      project_id: inbox.project_id,
      type: 'usage.quota_exceeded',
      payload: { reason: refusal.kind === 'storage' ? 'storage_quota_exceeded' : 'monthly_message_quota_exceeded', direction: 'inbound', inbox_id: inbox.id, notified: owners.length },
    });
    deps.log.warn({ org_id: refusal.org_id, kind: refusal.kind, owners: owners.length }, 'inbound mail refused over quota; owners notified');
    return true;
  });
}
