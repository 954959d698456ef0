// At each UTC day boundary (and so each month's): close the ended periods' usage counters.
// Every run closes whatever has ended and is still open, so a missed midnight is caught up.
import { closeUsagePeriods } from '../usage-periods.ts';
import { JOBS } from '../jobs.ts';
import type { Worker } from './worker.ts';

export const usagePeriodsWorker: Worker = {
  ...JOBS.usagePeriods,
  // pg-boss cron is UTC: a minute past midnight, when no transaction of the old day is still open.
  cron: '1 0 * * *',
  async perform(_payload, deps) {
    await closeUsagePeriods(deps);
  },
};
