// A sign-up code's timer, armed with `startAfter` when the code is issued: it expires the sign-up
// (revoking its temporary key) unless the code was verified, or replaced by a re-signup, meanwhile.
import { expireSignupCode } from '../signup.ts';
import { JOBS, type PayloadOf } from '../jobs.ts';
import type { Worker } from './worker.ts';

export const signupExpiryWorker: Worker<PayloadOf<typeof JOBS.signupExpiry>> = {
  ...JOBS.signupExpiry,
  perform: (job, deps) => expireSignupCode(deps, job),
};
