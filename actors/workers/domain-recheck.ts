// The daily re-verification of custom domains: an hourly tick re-checks every verified domain whose
// last check is a day old, and degrades one whose required records went away.
import { recheckDomains } from '../domains.ts';
import { JOBS } from '../jobs.ts';
import type { Worker } from './worker.ts';

export const domainRecheckWorker: Worker<object> = {
  ...JOBS.domainRecheck,
  cron: '23 * * * *',
  perform: async (_job, deps) => {
    const { checked, degraded } = await recheckDomains(deps, new Date());
    return checked === 0 ? 'idle' : degraded > 0 ? 'degraded' : 'checked';
  },
};
