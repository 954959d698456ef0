// The daily auto-send cap's day boundary: counters are kept per UTC day, so a new day starts at
// zero by itself; this job removes the days that ended and reports what each customer auto-sent
// and how many would-be auto-sends the cap queued for review instead. It also makes tomorrow's
// counters for the customers auto-sending today, so their first sends after midnight find them
// there rather than making them first.
import { closeAutoSendDays, makeTomorrowsAutoSendSlots } from '../../storage/categories.ts';
import { JOBS } from '../jobs.ts';
import type { Worker } from './worker.ts';

export const autoSendCapsWorker: Worker = {
  ...JOBS.autoSendCaps,
  // Shortly after midnight UTC, and hourly after it, so a missed run is caught up the same day.
  cron: '5 * * * *',
  async perform(_payload, { db, log }) {
    const days = await closeAutoSendDays(db);
    for (const d of days) log.info({ org_id: d.org_id, day: d.day, auto_sent: d.sent, held_by_cap: d.held }, 'auto-send day closed');
    await makeTomorrowsAutoSendSlots(db);
    return days.length > 0 ? 'closed' : 'nothing';
  },
};
