// A review's persisted snapshot, restored into the review request machine.
import type { AnyMachineSnapshot } from 'xstate';
import { reviewRequestMachine, type ReviewSnapshot } from '../../machines/review-request.ts';
import type { ReviewRow } from '../../storage/reviews.ts';

export const asReview = (s: AnyMachineSnapshot) => s as unknown as ReviewSnapshot;

export function restoreReview(row: Pick<ReviewRow, 'snapshot'>): ReviewSnapshot {
  return reviewRequestMachine.resolveState(row.snapshot as never) as ReviewSnapshot;
}
