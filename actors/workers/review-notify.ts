// Review notifications: the notify job (mail to each decider, at once or into their digest), the
// chat-ops post, and the digest run once a minute.
import { performChatops, performNotify, sendDueDigests, type NotifyJob } from '../notifications.ts';
import { CHATOPS_QUEUE, NOTIFY_QUEUE } from '../reviews.ts';
import type { Worker } from './worker.ts';

export const reviewNotifyWorker: Worker<NotifyJob> = {
  name: NOTIFY_QUEUE,
  queue: { retryLimit: 5, retryDelay: 10, retryBackoff: true },
  perform: (job, deps) => performNotify(deps, job),
};

export const reviewChatopsWorker: Worker<NotifyJob> = {
  name: CHATOPS_QUEUE,
  queue: { retryLimit: 5, retryDelay: 10, retryBackoff: true },
  perform: (job, deps) => performChatops(deps, job),
};

export const reviewDigestWorker: Worker = {
  name: 'review-digest',
  cron: '* * * * *',
  queue: { retryLimit: 0 },
  async perform(_job, deps) {
    await sendDueDigests(deps);
  },
};
