// The mail of a support case's status change: claimed once per case version, then one job per
// recipient.
import type pg from 'pg';
import type { SupportCaseStatus } from '../../machines/support-case.ts';
import type { Config } from '../../service/config.ts';
import type { Queue } from '../../service/queue.ts';
import { withTransaction, type Pool } from '../../storage/db.ts';
import { inboxIdByAddress } from '../../storage/inboxes.ts';
import { orgAdminEmails } from '../../storage/members.ts';
import { claimCaseMail } from '../../storage/support.ts';
import { sendSystemMail } from '../system-mail.ts';
import { JOBS, type SupportCaseMailJob } from '../jobs.ts';

type Deps = { db: Pool; queue: Queue; config: Config };

const STATUS_TEXT: Record<SupportCaseStatus, string> = {
  received: 'We received your support case and will look at it.',
  working: 'We are working on your support case.',
  waiting_on_customer: 'We need something from you to go on: please read the latest update and reply.',
  resolved: 'Your support case is resolved.',
};

/**
 * The mail job of a status change: claimed once per case version, it fans out one job per
 * recipient, so a relay refusing one address retries that mail alone. The recipients are the
 * reporting agent's inbox (when it has one) and the org's human owners and admins (org-wide, or
 * of the case's project): a status change is news for the people who run the org, and an agent
 * without an inbox would otherwise hear of it from no one.
 */
export async function mailCaseStatus(deps: Deps, job: SupportCaseMailJob, now: Date): Promise<string> {
  if (job.to !== undefined) {
    return withTransaction(deps.db, async (tx) => {
      // A relay that refuses throws: the queue retries this recipient's mail.
      await sendSystemMail(deps, tx as pg.PoolClient, { org_id: job.org_id, project_id: job.project_id, inbox_id: job.inbox_id }, { to: job.to, subject: job.subject, text: job.text, kind: 'support_status' }, now);
      return 'sent';
    });
  }
  return withTransaction(deps.db, async (tx) => {
    const c = await claimCaseMail(tx, job.org_id, job.case_id, job.version);
    if (!c) return 'skipped';
    // The status of this version, not the case's now: a change made before this job ran has a job of its own.
    const status = job.status ?? (c.status as SupportCaseStatus);
    const subject = `[Support case ${c.number}] ${status.replace(/_/g, ' ')}: ${c.title.slice(0, 80)}`;
    const text = `${STATUS_TEXT[status] ?? `Your support case is now ${status}.`}\n\nCase ${c.id} (number ${c.number}), status ${status}.\n${c.resolution_summary && status === 'resolved' ? `\nResolution: ${c.resolution_summary}\n` : ''}`;
    const inboxId = c.contact_email ? await inboxIdByAddress(tx, c.org_id, c.contact_email) : null;
    const recipients = new Set<string>();
    if (c.contact_email) recipients.add(c.contact_email.toLowerCase());
    for (const email of await orgAdminEmails(tx, c.org_id, c.project_id)) recipients.add(email.toLowerCase());
    for (const to of recipients) {
      const one: SupportCaseMailJob = { org_id: c.org_id, case_id: c.id, version: job.version, to, project_id: c.project_id, inbox_id: inboxId, subject, text };
      await deps.queue.send(tx, JOBS.supportCaseMail.name, one, { singletonKey: `${c.id}:${job.version}:${to}` });
    }
    return recipients.size > 0 ? 'fanned_out' : 'skipped';
  });
}
