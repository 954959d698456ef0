// Periodic clean-up of short-lived rows: idempotency records and inbound receipts after 24 hours,
// old rate windows and sign-up request counts, and reviewer work nothing replays any more.
import { pruneIdempotencyKeys } from '../../storage/idempotency.ts';
import { pruneReceipts } from '../../storage/inbound-receipts.ts';
import { pruneRateWindows } from '../../storage/rate-limit.ts';
import { pruneReviewerWork } from '../../storage/reviewer-work.ts';
import { pruneSignupRequests } from '../../storage/signups.ts';
import { JOBS } from '../jobs.ts';
import type { Worker } from './worker.ts';

export const maintenanceWorker: Worker = {
  ...JOBS.maintenance,
  cron: '*/10 * * * *',
  async perform(_payload, { db }) {
    await pruneIdempotencyKeys(db, 24);
    await pruneRateWindows(db);
    await pruneReceipts(db);
    await pruneSignupRequests(db);
    await pruneReviewerWork(db);
  },
};
