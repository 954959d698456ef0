// The self-signup lifecycle (the contract's "Self-signup key" table), as a pure XState v5 machine.
//
// An agent with no key signs up with an email address; a 6-digit code is mailed there, and the
// temporary key it got may only verify that code. The machine decides which outcome a try has;
// the actor compares the code with its hash, reads the clock, mints keys and sends the mail, and
// feeds the outcome back as an event. Nothing here reads a clock or performs I/O.
//
// The code's expiry is a job armed with `startAfter` (`scheduleExpiry`), never an `after:` delay
// (lost when a snapshot is restored). Each arm carries an epoch; a re-signup re-arms with the next
// epoch, so the timer of a code already replaced is refused when it fires.
import { assign, enqueueActions, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';

/** Bump when a state is renamed or removed: a stored snapshot of an unknown state throws on restore. */
export const SIGNUP_MACHINE_VERSION = 1;

/** decisions.md: the code has 6 digits, lives 15 minutes and allows 5 tries. */
export const SIGNUP_CODE_DIGITS = 6;
export const SIGNUP_CODE_TTL_SECONDS = 15 * 60;
export const SIGNUP_MAX_TRIES = 5;

export type SignupState = 'requested' | 'pending_verification' | 'verified' | 'expired' | 'locked';

export interface SignupContext {
  /** Wrong codes since the current code was issued. */
  tries: number;
  max_tries: number;
  /** Bumped by every code issued; an expiry timer armed for an older one does nothing. */
  epoch: number;
  /** Codes issued so far (the first, then one per re-signup). */
  codes_issued: number;
  /** Whether the current code reached the mail route; false after `otp_send_failed`. */
  code_sent: boolean;
  last_error: string | null;
}

export type SignupEvent =
  /** A sign-up (first, or again with the same email): a new code and temporary key were issued. */
  | { type: 'request'; ttl_s: number; max_tries?: number }
  /** The mail carrying the current code was handed to its route. */
  | { type: 'code_sent' }
  /** The mail could not be sent: the sign-up stays pending, a re-signup sends a new code. */
  | { type: 'send_failed'; error: string }
  | { type: 'wrong_code' }
  | { type: 'verify' }
  /** The code's timer, armed at `epoch`. */
  | { type: 'expire'; epoch: number };

/** Effects the runner performs in the transaction that saved the transition. */
export type SignupActionParams = {
  scheduleExpiry: { after_s: number; epoch: number };
  revokeTemporaryKey: undefined;
};

// Effect intents: the bodies are empty on purpose. `transition()` never runs them; the runner
// reads their names and params after the snapshot is saved.
function intent<K extends keyof SignupActionParams>() {
  return (_args: unknown, _params: SignupActionParams[K]): void => {};
}

export const signupMachine = setup({
  types: {} as { context: SignupContext; events: SignupEvent },
  actions: {
    scheduleExpiry: intent<'scheduleExpiry'>(),
    revokeTemporaryKey: intent<'revokeTemporaryKey'>(),
    issueCode: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'request') return;
      const epoch = context.epoch + 1;
      enqueue.assign({
        epoch,
        tries: 0,
        max_tries: event.max_tries ?? context.max_tries,
        codes_issued: context.codes_issued + 1,
        code_sent: false,
        last_error: null,
      });
      enqueue({ type: 'scheduleExpiry', params: { after_s: event.ttl_s, epoch } });
    }),
    markSent: assign({ code_sent: true, last_error: null }),
    markSendFailed: assign(({ event }) => ({ code_sent: false, last_error: event.type === 'send_failed' ? event.error : null })),
    countTry: assign(({ context }) => ({ tries: context.tries + 1 })),
  },
  guards: {
    lastTry: ({ context }) => context.tries + 1 >= context.max_tries,
    currentEpoch: ({ context, event }) => event.type === 'expire' && event.epoch === context.epoch,
  },
}).createMachine({
  id: 'signup',
  initial: 'requested',
  context: { tries: 0, max_tries: SIGNUP_MAX_TRIES, epoch: 0, codes_issued: 0, code_sent: false, last_error: null },
  states: {
    requested: {
      on: { request: { target: 'pending_verification', actions: 'issueCode' } },
    },
    pending_verification: {
      on: {
        // A re-signup replaces the code and the temporary key; the old ones stop working.
        request: { target: 'pending_verification', reenter: true, actions: ['issueCode', 'revokeTemporaryKey'] },
        code_sent: { actions: 'markSent' },
        send_failed: { actions: 'markSendFailed' },
        wrong_code: [
          { guard: 'lastTry', target: 'locked', actions: ['countTry', 'revokeTemporaryKey'] },
          { actions: 'countTry' },
        ],
        verify: { target: 'verified', actions: 'revokeTemporaryKey' },
        expire: { guard: 'currentEpoch', target: 'expired', actions: 'revokeTemporaryKey' },
      },
    },
    // Expired and locked sign-ups start over with a re-signup: a new code, new tries.
    expired: {
      on: { request: { target: 'pending_verification', actions: 'issueCode' } },
    },
    locked: {
      on: { request: { target: 'pending_verification', actions: 'issueCode' } },
    },
    verified: { type: 'final' },
  },
});

export type SignupSnapshot = SnapshotFrom<typeof signupMachine>;

/** The verbs legal in a snapshot, for operators (`agent-inbox snapshot`) and model tests. */
export const SIGNUP_VERBS = ['request', 'code_sent', 'send_failed', 'wrong_code', 'verify', 'expire'] as const;
