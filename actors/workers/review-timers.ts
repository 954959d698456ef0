// The review's durable timers: escalation (a silent reviewer agent hands the review to the human)
// and the hard deadline (the review is cancelled with `deadline_exceeded`). Each arrives as a job
// armed with `startAfter` and goes back through the runner as an ordinary event; a timer that no
// longer applies (the review moved on, or a later arm superseded it) is refused and dropped.
import { Problem } from '../../machines/problems.ts';
import { withTransaction } from '../../storage/db.ts';
import { findDelivery } from '../../storage/review-deliveries.ts';
import { JOBS, type PayloadOf } from '../jobs.ts';
import { applyWorkerEvent } from '../reviews/apply.ts';
import type { Worker, WorkerDeps } from './worker.ts';
import type { ReviewEvent } from '../../machines/review-request.ts';

async function fire(deps: WorkerDeps, job: { org_id: string; review_id: string }, event: ReviewEvent): Promise<void> {
  try {
    await withTransaction(deps.db, (tx) => applyWorkerEvent(tx, deps.queue, job.org_id, job.review_id, event));
  } catch (err) {
    if (err instanceof Problem && ['conflict', 'terminal', 'wrong_state', 'not_found'].includes(err.code)) return;
    throw err;
  }
}

export const reviewEscalationWorker: Worker<PayloadOf<typeof JOBS.reviewEscalation>> = {
  ...JOBS.reviewEscalation,
  // Escalations of a burst of submissions fall due together; the lag after escalate_after_s is
  // the contract's figure, so eight at once (four gave a p99 lag of 1.1 s for 50 falling due
  // together, npm run bench -- reviewer).
  inFlight: 8,
  perform: (job, deps) => fire(deps, job, { type: 'escalate', epoch: job.epoch }),
};

export const reviewDeadlineWorker: Worker<PayloadOf<typeof JOBS.reviewDeadline>> = {
  ...JOBS.reviewDeadline,
  perform: (job, deps) => fire(deps, job, { type: 'deadline' }),
};

/**
 * A parked send: only the relay's own log can tell whether it took the message, so an operator
 * looks its Message-ID up there and resolves it with `agent-inbox reconcile`.
 */
export const reviewReconcileWorker: Worker<PayloadOf<typeof JOBS.reviewReconcile>> = {
  ...JOBS.reviewReconcile,
  async perform(job, deps) {
    const attempt = await findDelivery(deps.db, job.org_id, job.review_id, job.revision);
    deps.log.warn(
      { review_id: job.review_id, message_id: attempt?.message_id },
      'send needs reconciliation: look the Message-ID up in the relay log, then run agent-inbox reconcile <review_id> --delivered or --failed',
    );
  },
};
