// The review request machine as a persisted MachineKind: the runner (run-machine.ts) applies every
// change of a review through it, with its effects and its 409 taxonomy.
import { REVIEW_MACHINE_VERSION, reviewRequestMachine } from '../../machines/review-request.ts';
import { allowedActions } from '../../machines/review-verbs.ts';
import type { MachineKind } from '../run-machine.ts';
import { performReviewAction } from './effects.ts';
import { rejectReviewEvent } from './rejections.ts';
import { asReview } from './snapshot.ts';


export const reviewKind: MachineKind = {
  kind: 'review',
  machine: reviewRequestMachine,
  version: REVIEW_MACHINE_VERSION,
  perform: performReviewAction,
  reject: rejectReviewEvent,
  allowed: (snapshot) => allowedActions(asReview(snapshot)),
};
