// Review notifications: the notify job (mail to each decider, at once or into their digest), the
// chat-ops post, and the digest run once a minute.
import { performChatops, performNotify, sendDueDigests } from '../notifications.ts';
import { JOBS, type NotifyJob } from '../jobs.ts';
import type { Worker } from './worker.ts';

export const reviewNotifyWorker: Worker<NotifyJob> = {
  ...JOBS.reviewNotify,
  // A burst of drafts (agents sending hundreds a minute) is announced in step with it, not one
  // notice a fetch: the jobs of a fetch are for different reviews and performed side by side.
  inFlight: 8,
  batchSize: 8,
  perform: (job, deps) => performNotify(deps, job),
};

export const reviewChatopsWorker: Worker<NotifyJob> = {
  ...JOBS.reviewChatops,
  perform: (job, deps) => performChatops(deps, job),
};

export const reviewDigestWorker: Worker = {
  ...JOBS.reviewDigest,
  cron: '* * * * *',
  async perform(_job, deps) {
    await sendDueDigests(deps);
  },
};
