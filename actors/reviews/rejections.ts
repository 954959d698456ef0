// The review's 409 taxonomy: why an event was refused, with the facts a caller recovers from.
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { Problem, type FieldError } from '../../machines/problems.ts';
import type { ReviewEvent, ReviewSnapshot } from '../../machines/review-request.ts';
import { allowedActions, classifyRejection, type ReviewActor } from '../../machines/review-verbs.ts';
import type { MachineRow } from '../../storage/machines.ts';
import { asReview } from './snapshot.ts';

/** Who says an event, read off the event itself: the allowed_action hints are that actor's verbs. */
export function actorOf(event: EventObject): ReviewActor {
  const e = event as ReviewEvent;
  switch (e.type) {
    case 'revise':
    case 'restamp':
      return 'composer';
    case 'hand_back':
      return 'reviewer_agent';
    case 'chat':
      return e.from === 'composer' ? 'composer' : e.by;
    case 'cancel':
      return e.by === 'human' ? 'human' : 'composer';
    default:
      return 'by' in e && (e.by === 'human' || e.by === 'reviewer_agent') ? e.by : 'human';
  }
}

const WORKER_EVENTS = new Set(['delivered', 'delivery_failed', 'delivery_unknown', 'escalate', 'deadline', 'submit']);

/** The recovery facts a review 409 carries: state, revision, version and each verb legal now. */
export function recoveryFacts(snapshot: ReviewSnapshot, version: number, actor: ReviewActor): Array<FieldError & { value: string | number }> {
  const state = String(snapshot.value);
  const revision = snapshot.context.revision;
  // The value is in `code` and `detail` alike (clients read either) and typed in `value`.
  const fact = (field: string, value: string | number) => ({ field, code: String(value), detail: String(value), value });
  return [
    fact('state', state),
    fact('revision', revision),
    fact('version', version),
    ...allowedActions(snapshot, actor).map((verb) => fact('allowed_action', verb)),
  ];
}

export function rejectReviewEvent(s: AnyMachineSnapshot, event: EventObject, row: MachineRow): Error | null {
  const snapshot = asReview(s);
  const why = classifyRejection(snapshot, event as ReviewEvent);
  if (!why) return null;
  const state = String(snapshot.value);
  if (WORKER_EVENTS.has(event.type)) return new Problem('conflict', { detail: `${event.type} does not apply to a review in ${state}.` });
  if (why === 'terminal') {
    return new Problem('terminal', {
      detail: `The review is already ${state}; nothing was changed. A review.front_run_next event carries the outcome.`,
      extra: { sent_message_id: snapshot.context.sent_message_id },
    });
  }
  const errors = recoveryFacts(snapshot, row.version, actorOf(event));
  if (snapshot.context.reconciliation_needed) {
    return new Problem('send_needs_reconciliation', {
      detail: 'A send of this review is unconfirmed and parked for reconciliation by its Message-ID; it is never sent again. Poll the review.',
      errors,
    });
  }
  if (why === 'stale') {
    return new Problem('stale', {
      detail: `parent_revision is not the current revision ${snapshot.context.revision}; nothing was changed. Re-read the review and its feedback and resubmit on top of it.`,
      errors,
    });
  }
  return new Problem('wrong_state', { detail: `${event.type} is not legal while the review is ${state}.`, errors });
}
