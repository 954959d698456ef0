// Delivers an approved or released review (the delivery actor does the work). Temporary relay
// failures throw, so the queue retries with backoff; a crashed worker's review is picked up again
// by the sweep below, and the delivery attempt row keeps a retry from ever sending twice.
import { JOBS, type ReviewJob } from '../jobs.ts';
import { pruneRecipientUsage } from '../../storage/reviews.ts';
import { deliverReview, sweepDeliveries } from '../delivery.ts';
import type { Worker } from './worker.ts';

export const reviewDeliveryWorker: Worker<ReviewJob> = {
  ...JOBS.reviewDelivery,
  // Sixteen deliveries at once, each holding one connection of the workers' pool (roles/start.ts)
  // and one relay session (as many as the relay sessions kept idle), whether sends come in a burst
  // or one by one; a burst's backlog is fetched four at a time.
  inFlight: 16,
  batchSize: 4,
  // A burst of auto-sends leaves thousands of deliveries queued: each fetch takes the oldest.
  fetchInOrder: true,
  perform: (job, deps) => deliverReview(deps, job),
};

/**
 * Every minute: deliveries that no worker is progressing are enqueued again, and recipient counts
 * that left the 24-hour window are dropped.
 */
export const reviewDeliverySweepWorker: Worker = {
  ...JOBS.reviewDeliverySweep,
  cron: '* * * * *',
  async perform(_job, deps) {
    await sweepDeliveries(deps);
    await pruneRecipientUsage(deps.db);
  },
};
