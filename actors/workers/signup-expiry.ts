// A sign-up code's timer, armed with `startAfter` when the code is issued: it expires the sign-up
// (revoking its temporary key) unless the code was verified, or replaced by a re-signup, meanwhile.
import { SIGNUP_EXPIRY_QUEUE, expireSignupCode } from '../signup.ts';
import type { Worker } from './worker.ts';

export const signupExpiryWorker: Worker<{ org_id: string; signup_id: string; epoch: number }> = {
  name: SIGNUP_EXPIRY_QUEUE,
  queue: { retryLimit: 5, retryDelay: 5, retryBackoff: true },
  perform: (job, deps) => expireSignupCode(deps, job),
};
