// A category's graduation rung, as a pure XState v5 machine.
//
// Rungs, in order: `supervised` (every send reviewed) → `auto_notify` (auto-sent, the human
// notified) → `autonomous` (auto-sent, a canary share still reviewed). `pinned` is `supervised`
// that never graduates (`never_graduate`), until a human unpins it. Each human or reviewer-agent
// decision on a categorised draft arrives as an `outcome`: a clean approval extends the run of
// approvals, an edit or a rejection extends the run of drift. A rung is earned with
// `graduate_min_approvals` clean approvals in a row at it and a category at least
// `graduate_min_age_hours` old; `drift_demote_after` drifts in a row demote one rung.
//
// The clock and the dial arrive as event data (`at`, `gates`): nothing here reads a clock or the
// database. The runner performs the named effects (category events, the recheck broadcast).
import { assertEvent, assign, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';

/** Bump when a state is renamed or removed: a stored snapshot of an unknown state throws on restore. */
export const CATEGORY_MACHINE_VERSION = 1;

export const RUNGS = ['supervised', 'auto_notify', 'autonomous'] as const;
export type Rung = (typeof RUNGS)[number];
export type CategoryState = 'new' | Rung | 'pinned';

/** The dial fields the machine's guards read; resolved outside (category override over the account). */
export type GraduationGates = { graduate_min_approvals: number; graduate_min_age_hours: number; drift_demote_after: number };

export interface CategoryContext {
  /** Creation instant (ms since the epoch), from the create event: the age gate counts from it. */
  created_ms: number;
  /** Clean approvals in a row at the current rung. */
  clean_approvals: number;
  /** Edits or rejections in a row. */
  drift_count: number;
}

export type Outcome = 'approve' | 'edit' | 'reject';
export type ChangedBy = 'human' | 'earned' | 'drift';

export type CategoryEvent =
  | { type: 'create'; at: number }
  | { type: 'outcome'; outcome: Outcome; at: number; gates: GraduationGates }
  | { type: 'graduate'; at: number; gates: GraduationGates }
  | { type: 'demote' }
  | { type: 'pin' }
  | { type: 'unpin' };

export const CATEGORY_VERBS = ['graduate', 'demote', 'pin', 'unpin'] as const;
export type CategoryVerb = (typeof CATEGORY_VERBS)[number];

export type CategoryEventType = 'category.graduated' | 'category.demoted';

/** Params of every action the runner executes, by action name. */
export interface CategoryActionParams {
  emitCategoryEvent: { type: CategoryEventType; from_rung: Rung; to_rung: Rung; by: ChangedBy };
  /** A graduation: every live draft of the category is told to re-submit to meet the new gates. */
  broadcastRecheck: { rung: Rung };
}

function intent<K extends keyof CategoryActionParams>() {
  return (_args: unknown, _params: CategoryActionParams[K]): void => {};
}

const HOUR_MS = 3600 * 1000;

/** What still stands between the category and its next rung; empty when it is earned. */
export function graduationGaps(context: CategoryContext, at: number, gates: GraduationGates): Array<{ field: string; code: string; detail: string }> {
  const gaps = [];
  if (context.clean_approvals < gates.graduate_min_approvals) {
    gaps.push({
      field: 'clean_approvals',
      code: 'too_few',
      detail: `${context.clean_approvals} clean approvals in a row; ${gates.graduate_min_approvals} needed (${gates.graduate_min_approvals - context.clean_approvals} more)`,
    });
  }
  const ageHours = Math.max(0, (at - context.created_ms) / HOUR_MS);
  if (ageHours < gates.graduate_min_age_hours) {
    gaps.push({
      field: 'age_hours',
      code: 'too_young',
      detail: `the category is ${Math.floor(ageHours)} hours old; ${gates.graduate_min_age_hours} needed`,
    });
  }
  return gaps;
}

type GuardArgs = { context: CategoryContext; event: CategoryEvent };

const earned = ({ context, event }: GuardArgs): boolean => {
  if (event.type !== 'graduate' && !(event.type === 'outcome' && event.outcome === 'approve')) return false;
  // An outcome is counted before the guard reads it: the approval that completes the run counts.
  const counted = event.type === 'outcome' ? countOutcome(context, event.outcome) : context;
  return graduationGaps(counted, event.at, event.gates).length === 0;
};

const drifted = ({ context, event }: GuardArgs): boolean =>
  event.type === 'outcome' && event.outcome !== 'approve' && countOutcome(context, event.outcome).drift_count >= event.gates.drift_demote_after;

function countOutcome(context: CategoryContext, outcome: Outcome): CategoryContext {
  return outcome === 'approve'
    ? { ...context, clean_approvals: context.clean_approvals + 1, drift_count: 0 }
    : { ...context, clean_approvals: 0, drift_count: context.drift_count + 1 };
}

const changed = (type: CategoryEventType, from_rung: Rung, to_rung: Rung, by: ChangedBy) =>
  ({ type: 'emitCategoryEvent', params: { type, from_rung, to_rung, by } }) as const;

function graduation(from: Rung, to: Rung, by: ChangedBy) {
  return {
    guard: 'earned',
    target: to,
    actions: ['resetRuns', changed('category.graduated', from, to, by), { type: 'broadcastRecheck', params: { rung: to } }],
  } as const;
}

function demotion(from: Rung, to: Rung, by: ChangedBy, guard?: 'drifted') {
  return { ...(guard ? { guard } : {}), target: to, actions: ['resetRuns', changed('category.demoted', from, to, by)] } as const;
}

// Pinning a graduated category demotes it to supervised at once.
function pinning(from: Rung) {
  return { target: 'pinned', actions: ['resetRuns', changed('category.demoted', from, 'supervised', 'human')] } as const;
}

const count = { actions: ['count'] } as const;

export const categoryMachine = setup({
  types: { context: {} as CategoryContext, events: {} as CategoryEvent },
  actions: {
    emitCategoryEvent: intent<'emitCategoryEvent'>(),
    broadcastRecheck: intent<'broadcastRecheck'>(),
    accept: assign(({ event }) => {
      assertEvent(event, 'create');
      return { created_ms: event.at, clean_approvals: 0, drift_count: 0 };
    }),
    count: assign(({ context, event }) => {
      assertEvent(event, 'outcome');
      return countOutcome(context, event.outcome);
    }),
    // A rung change starts both runs afresh: the next rung is earned at that rung.
    resetRuns: assign({ clean_approvals: 0, drift_count: 0 }),
  },
  guards: { earned, drifted },
}).createMachine({
  id: 'category',
  initial: 'new',
  context: { created_ms: 0, clean_approvals: 0, drift_count: 0 },
  states: {
    new: { on: { create: { target: 'supervised', actions: ['accept'] } } },
    supervised: {
      on: {
        outcome: [graduation('supervised', 'auto_notify', 'earned'), count],
        graduate: graduation('supervised', 'auto_notify', 'human'),
        pin: { target: 'pinned', actions: ['resetRuns'] },
      },
    },
    auto_notify: {
      on: {
        outcome: [graduation('auto_notify', 'autonomous', 'earned'), demotion('auto_notify', 'supervised', 'drift', 'drifted'), count],
        graduate: graduation('auto_notify', 'autonomous', 'human'),
        demote: demotion('auto_notify', 'supervised', 'human'),
        pin: pinning('auto_notify'),
      },
    },
    autonomous: {
      on: {
        outcome: [demotion('autonomous', 'auto_notify', 'drift', 'drifted'), count],
        demote: demotion('autonomous', 'auto_notify', 'human'),
        pin: pinning('autonomous'),
      },
    },
    // Supervised for good: outcomes are still counted, nothing graduates it.
    pinned: {
      on: {
        outcome: count,
        unpin: { target: 'supervised', actions: ['resetRuns'] },
      },
    },
  },
});

export type CategorySnapshot = SnapshotFrom<typeof categoryMachine>;

export const categoryState = (s: CategorySnapshot): CategoryState => s.value as CategoryState;

/** The rung a send reads: a pinned category is supervised. */
export const rungOf = (state: string): Rung => (state === 'auto_notify' || state === 'autonomous' ? state : 'supervised');

/** Probe events for `can()`: gates that are always met, so a verb is legal when its state allows it at all. */
const PROBES: Record<CategoryVerb, CategoryEvent> = {
  graduate: { type: 'graduate', at: Number.MAX_SAFE_INTEGER, gates: { graduate_min_approvals: 0, graduate_min_age_hours: 0, drift_demote_after: 1 } },
  demote: { type: 'demote' },
  pin: { type: 'pin' },
  unpin: { type: 'unpin' },
};

/** The human verbs a state takes (graduate still needs its rung to be earned). */
export function allowedCategoryVerbs(s: CategorySnapshot): CategoryVerb[] {
  return CATEGORY_VERBS.filter((v) => s.can(PROBES[v]));
}
