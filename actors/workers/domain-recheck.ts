// The daily re-verification of custom domains: an hourly tick re-checks every verified domain whose
// last check is a day old, and degrades one whose required records went away.
import { DOMAIN_RECHECK_QUEUE, recheckDomains } from '../domains.ts';
import type { Worker } from './worker.ts';

export const domainRecheckWorker: Worker<object> = {
  name: DOMAIN_RECHECK_QUEUE,
  cron: '23 * * * *',
  queue: { retryLimit: 2, retryDelay: 60 },
  perform: async (_job, deps) => {
    const { checked, degraded } = await recheckDomains(deps, new Date());
    return checked === 0 ? 'idle' : degraded > 0 ? 'degraded' : 'checked';
  },
};
