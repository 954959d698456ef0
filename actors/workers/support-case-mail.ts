// Mails a support case's status change, as system mail, to the reporting agent's inbox and the
// org's owners and admins. Enqueued in the transaction of the change; claimed once per case
// version even when the job runs twice, then one job per recipient.
import { SUPPORT_MAIL_QUEUE } from '../support/kind.ts';
import { mailCaseStatus, type CaseMailJob } from '../support/status-mail.ts';
import type { Worker } from './worker.ts';

export const supportCaseMailWorker: Worker<CaseMailJob> = {
  name: SUPPORT_MAIL_QUEUE,
  queue: { retryLimit: 8, retryDelay: 10, retryBackoff: true },
  perform: (job, deps) => mailCaseStatus(deps, job, new Date()),
};
