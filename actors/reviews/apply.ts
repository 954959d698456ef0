// Applying an event to one review through the runner: a verb of a composer or reviewer (locked,
// built from the review's current content) or a worker's outcome.
import type pg from 'pg';
import { Problem, notFound } from '../../machines/problems.ts';
import type { ReviewEvent, ReviewSnapshot } from '../../machines/review-request.ts';
import type { Config } from '../../service/config.ts';
import type { Queue } from '../../service/queue.ts';
import { lockStatement, withTransaction, type Pool } from '../../storage/db.ts';
import { lockMachine, lockMachineAhead } from '../../storage/machines.ts';
import { findReview, type ReviewRow, type ReviewScope } from '../../storage/reviews.ts';
import { applyEventIn, type Applied } from '../run-machine.ts';
import type { ReviewEventExtra } from './effects.ts';
import { emitReviewEvent } from './emit.ts';
import { reviewKind } from './kind.ts';
import { restoreReview } from './snapshot.ts';

export type ReviewServices = { db: Pool; queue: Queue; config: Config };

const TERMINAL_OUTCOME: Record<string, 'sent' | 'cancelled'> = { sent: 'sent', auto_sent: 'sent', cancelled: 'cancelled' };

/**
 * Locks the review, builds the event from its current content, and applies it. A verb against a
 * finished review also leaves a `review.front_run_next` event with the outcome.
 */
export async function applyVerb(
  s: ReviewServices,
  scope: ReviewScope,
  id: string,
  verb: string,
  build: (row: ReviewRow, snapshot: ReviewSnapshot, tx: pg.PoolClient) => Promise<ReviewEvent & ReviewEventExtra> | (ReviewEvent & ReviewEventExtra),
  locks: bigint[] = [],
): Promise<ReviewRow> {
  try {
    return await withTransaction(s.db, async (tx) => {
      await lockMachine(tx, 'review', id);
      const row = await findReview(tx, scope, id);
      if (!row) throw notFound('review');
      const event = await build(row, restoreReview(row), tx);
      const applied = await applyEventIn(tx, s.queue, reviewKind, { id, org_id: row.org_id }, event);
      return withApplied(row, applied);
    }, lockStatement(locks));
  } catch (err) {
    if (err instanceof Problem && err.code === 'terminal') await recordFrontRun(s, scope, id, verb);
    throw err;
  }
}

const withApplied = (row: ReviewRow, applied: Applied): ReviewRow => ({
  ...row,
  state: applied.row.state,
  version: applied.row.version,
  snapshot: applied.row.snapshot as ReviewRow['snapshot'],
  updated_at: applied.row.updated_at,
});

/** A late verb on a finished review becomes a front-run signal carrying the outcome. */
async function recordFrontRun(s: ReviewServices, scope: ReviewScope, id: string, verb: string): Promise<void> {
  await withTransaction(s.db, async (tx) => {
    await lockMachine(tx, 'review', id);
    const row = await findReview(tx, scope, id);
    if (!row) return;
    const context = restoreReview(row).context;
    await emitReviewEvent(tx, s.queue, row, context, {
      type: 'review.front_run_next',
      from_state: row.state,
      extra: { outcome: TERMINAL_OUTCOME[row.state] ?? row.state, attempted_action: verb, sent_message_id: context.sent_message_id },
    });
  });
}

/** Applies a worker's event (delivery outcome, escalation, deadline) through the runner, in `tx`. */
export async function applyWorkerEvent(tx: pg.ClientBase, queue: Queue, orgId: string, id: string, event: ReviewEvent): Promise<Applied> {
  return applyEventIn(tx, queue, reviewKind, { id, org_id: orgId }, event);
}

/** Locks the review, for an applyWorkerEvent later in the transaction, with the transaction's next statement. */
export function lockReviewAhead(tx: pg.ClientBase, id: string): void {
  lockMachineAhead(tx, reviewKind.kind, id);
}
