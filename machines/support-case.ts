// The support case lifecycle, as a pure XState v5 machine.
//
// A case opens `received` from feedback. Staff move it with updates (`working`,
// `waiting_on_customer`, `resolved`, or a note that keeps the status); the customer answers with
// replies. A customer reply to a case waiting on the customer moves it back to `working`; one to a
// resolved case reopens it within REOPEN_WINDOW_MS of the resolution. While a customer reply is
// unanswered by staff, another one is refused (the customer waits for staff instead of piling up
// replies). Only a resolved case may be deleted. Times arrive in the events (`at_ms`): nothing
// here reads a clock or mints an id; the runner performs the named effects.
import { assertEvent, assign, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';

/** Bump when a state is renamed or removed: a stored snapshot of an unknown state throws on restore. */
export const SUPPORT_CASE_MACHINE_VERSION = 1;

/** A customer reply reopens a resolved case for 14 days after its resolution. */
export const REOPEN_WINDOW_MS = 14 * 24 * 60 * 60 * 1000;

export const SUPPORT_CASE_STATUSES = ['received', 'working', 'waiting_on_customer', 'resolved'] as const;
export type SupportCaseStatus = (typeof SUPPORT_CASE_STATUSES)[number];
export type SupportCaseState = 'new' | SupportCaseStatus | 'deleted';
export type SupportImpact = 'blocked' | 'workaround_available' | 'recovered' | 'unknown';

export interface SupportCaseContext {
  impact: SupportImpact;
  /** A customer reply is waiting for staff: the next customer reply is refused until staff answer. */
  awaiting_staff: boolean;
  /** When the case was last resolved (ms since the epoch); the reopen window counts from it. */
  resolved_at_ms: number | null;
}

export type SupportCaseEvent =
  | { type: 'open'; impact: SupportImpact; at_ms: number }
  /** A staff update; `status` moves the case, none keeps it where it is (a note). */
  | { type: 'staff_update'; status?: SupportCaseStatus; at_ms: number }
  | { type: 'customer_reply'; at_ms: number }
  | { type: 'delete' };

export const SUPPORT_CASE_VERBS = ['staff_update', 'customer_reply', 'delete'] as const;
export type SupportCaseVerb = (typeof SUPPORT_CASE_VERBS)[number];

/** Params of every action the runner executes, by action name. */
export interface SupportCaseActionParams {
  /** The status changed (or the case opened): an event in the project's log and a mail to the customer. */
  announceStatus: { status: SupportCaseStatus };
}

function intent<K extends keyof SupportCaseActionParams>() {
  return (_args: unknown, _params: SupportCaseActionParams[K]): void => {};
}

const announce = (status: SupportCaseStatus) => ({ type: 'announceStatus', params: { status } }) as const;

/** Why a customer reply is refused now, or null when the machine takes it. */
export type ReplyRefusal = 'reply_already_pending' | 'reply_workflow_required' | 'support_record_deleted' | null;

export function replyRefusal(s: SupportCaseSnapshot, atMs: number): ReplyRefusal {
  const state = s.value as SupportCaseState;
  if (state === 'deleted') return 'support_record_deleted';
  if (s.context.awaiting_staff) return 'reply_already_pending';
  if (state === 'resolved' && !withinWindow(s.context, atMs)) return 'reply_workflow_required';
  return null;
}

const withinWindow = (c: SupportCaseContext, atMs: number) => c.resolved_at_ms !== null && atMs - c.resolved_at_ms <= REOPEN_WINDOW_MS;

/** The staff transitions out of a status: to each other status (announced), or a note that stays. */
function staffMoves(from: SupportCaseStatus) {
  return [
    ...SUPPORT_CASE_STATUSES.filter((to) => to !== from).map((to) => ({
      guard: { type: 'movesTo' as const, params: { to } },
      target: to,
      actions: [to === 'resolved' ? ('markResolved' as const) : ('answerCustomer' as const), announce(to)],
    })),
    { actions: ['answerCustomer' as const] },
  ];
}

export const supportCaseMachine = setup({
  types: { context: {} as SupportCaseContext, events: {} as SupportCaseEvent },
  actions: {
    announceStatus: intent<'announceStatus'>(),
    acceptOpen: assign(({ event }) => {
      assertEvent(event, 'open');
      return { impact: event.impact };
    }),
    answerCustomer: assign({ awaiting_staff: false }),
    markResolved: assign(({ event }) => {
      assertEvent(event, 'staff_update');
      return { awaiting_staff: false, resolved_at_ms: event.at_ms };
    }),
    awaitStaff: assign({ awaiting_staff: true }),
    reopen: assign({ awaiting_staff: true, resolved_at_ms: null }),
  },
  guards: {
    movesTo: ({ event }, params: { to: SupportCaseStatus }) => event.type === 'staff_update' && event.status === params.to,
    noReplyPending: ({ context }) => !context.awaiting_staff,
    withinReopenWindow: ({ context, event }) => event.type === 'customer_reply' && !context.awaiting_staff && withinWindow(context, event.at_ms),
  },
}).createMachine({
  id: 'support_case',
  initial: 'new',
  context: { impact: 'unknown', awaiting_staff: false, resolved_at_ms: null },
  states: {
    new: {
      on: { open: { target: 'received', actions: ['acceptOpen', announce('received')] } },
    },
    received: {
      on: {
        staff_update: staffMoves('received'),
        customer_reply: { guard: 'noReplyPending', actions: ['awaitStaff'] },
      },
    },
    working: {
      on: {
        staff_update: staffMoves('working'),
        customer_reply: { guard: 'noReplyPending', actions: ['awaitStaff'] },
      },
    },
    waiting_on_customer: {
      on: {
        staff_update: staffMoves('waiting_on_customer'),
        // The customer answered: the case is back with staff.
        customer_reply: { guard: 'noReplyPending', target: 'working', actions: ['awaitStaff', announce('working')] },
      },
    },
    resolved: {
      on: {
        staff_update: staffMoves('resolved'),
        customer_reply: { guard: 'withinReopenWindow', target: 'working', actions: ['reopen', announce('working')] },
        delete: { target: 'deleted' },
      },
    },
    deleted: { type: 'final' },
  },
});

export type SupportCaseSnapshot = SnapshotFrom<typeof supportCaseMachine>;

export const supportCaseState = (s: SupportCaseSnapshot): SupportCaseState => s.value as SupportCaseState;

/** The verbs legal now (at `atMs` for the reopen window), read off the machine. */
export function allowedSupportCaseVerbs(s: SupportCaseSnapshot, atMs: number): SupportCaseVerb[] {
  const probe: Record<SupportCaseVerb, SupportCaseEvent> = {
    staff_update: { type: 'staff_update', at_ms: atMs },
    customer_reply: { type: 'customer_reply', at_ms: atMs },
    delete: { type: 'delete' },
  };
  return SUPPORT_CASE_VERBS.filter((v) => s.can(probe[v]));
}
