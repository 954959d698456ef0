// Mails the customer of a support case when its status changed, as system mail. Enqueued in the
// transaction of the change; sent once per case version even when the job runs twice.
import { SUPPORT_MAIL_QUEUE, mailCaseStatus } from '../support.ts';
import type { Worker } from './worker.ts';

export const supportCaseMailWorker: Worker<{ org_id: string; case_id: string; version: number }> = {
  name: SUPPORT_MAIL_QUEUE,
  queue: { retryLimit: 8, retryDelay: 10, retryBackoff: true },
  perform: (job, deps) => mailCaseStatus(deps, job, new Date()),
};
