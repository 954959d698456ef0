// Mails a support case's status change, as system mail, to the reporting agent's inbox and the
// org's owners and admins. Enqueued in the transaction of the change; claimed once per case
// version even when the job runs twice, then one job per recipient.
import { mailCaseStatus } from '../support/status-mail.ts';
import { JOBS, type SupportCaseMailJob } from '../jobs.ts';
import type { Worker } from './worker.ts';

export const supportCaseMailWorker: Worker<SupportCaseMailJob> = {
  ...JOBS.supportCaseMail,
  perform: (job, deps) => mailCaseStatus(deps, job, new Date()),
};
