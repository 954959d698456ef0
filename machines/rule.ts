// The status of one writing-rule revision, as a pure XState v5 machine.
//
// Rules are append-only: a revision's text never changes. An edit is a new revision in the same
// lineage, and the revision it replaces moves to `superseded` in the same transaction. The
// machine only decides the status and names the effects (an event-log row, a raise of the rules
// high-water); the runner performs them. Nothing here reads a clock or mints an id.
import { assertEvent, assign, enqueueActions, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';

/** Bump when a state is renamed or removed: a stored snapshot of an unknown state throws on restore. */
export const RULE_MACHINE_VERSION = 1;

export type RuleStatus = 'proposed' | 'active' | 'superseded' | 'retired';
export type RuleState = 'new' | RuleStatus;
export type RuleAuthorKind = 'agent' | 'human';

export interface RuleContext {
  author_kind: RuleAuthorKind;
  /** The revision that replaced this one, once superseded. */
  superseded_by: string | null;
}

export type RuleEvent =
  /** A new revision: an agent's proposal lands `proposed`; a human's rule may start `active`. */
  | {
      type: 'create';
      author_kind: RuleAuthorKind;
      status: 'proposed' | 'active';
      /** The revision brings back an earlier version (an undo): emits `rule.undone`. */
      restores?: boolean;
      /**
       * It replaces an active revision, superseded in the same transaction: that supersede raises
       * the high-water, so one edit raises it once.
       */
      replaces_active?: boolean;
    }
  /** Only a human activates a rule. */
  | { type: 'activate' }
  /** A newer revision of the same lineage was written. */
  | { type: 'supersede'; by_id: string }
  /** Withdrawn when active, declined when proposed; `undo` when it undoes the rule's creation. */
  | { type: 'retire'; undo?: boolean };

export const RULE_VERBS = ['activate', 'supersede', 'retire'] as const;
export type RuleVerb = (typeof RULE_VERBS)[number];

/** The contract's rule events; activation and retirement are seen through the rules high-water. */
export type RuleEventType = 'rule.created' | 'rule.superseded' | 'rule.undone';

/** Params of every action the runner executes, by action name. */
export interface RuleActionParams {
  emitRuleEvent: { type: RuleEventType };
  /** An active rule changed: every project it applies to gets a new rules high-water. */
  raiseHighWater: Record<string, never>;
}

function intent<K extends keyof RuleActionParams>() {
  return (_args: unknown, _params: RuleActionParams[K]): void => {};
}

const initialContext = (): RuleContext => ({ author_kind: 'human', superseded_by: null });

const emit = (type: RuleEventType) => ({ type: 'emitRuleEvent', params: { type } }) as const;
const raise = { type: 'raiseHighWater', params: {} } as const;

export const ruleMachine = setup({
  types: { context: {} as RuleContext, events: {} as RuleEvent },
  actions: {
    emitRuleEvent: intent<'emitRuleEvent'>(),
    raiseHighWater: intent<'raiseHighWater'>(),
    acceptCreate: assign(({ event }) => {
      assertEvent(event, 'create');
      return { author_kind: event.author_kind };
    }),
    announceCreate: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, 'create');
      enqueue({ type: 'emitRuleEvent', params: { type: event.restores ? 'rule.undone' : 'rule.created' } });
      if (event.status === 'active' && !event.replaces_active) enqueue({ type: 'raiseHighWater', params: {} });
    }),
    acceptSupersede: assign(({ event }) => {
      assertEvent(event, 'supersede');
      return { superseded_by: event.by_id };
    }),
  },
  guards: {
    startsActive: ({ event }) => event.type === 'create' && event.status === 'active',
    undoes: ({ event }) => event.type === 'retire' && event.undo === true,
  },
}).createMachine({
  id: 'rule',
  initial: 'new',
  context: initialContext,
  states: {
    new: {
      on: {
        create: [
          { guard: 'startsActive', target: 'active', actions: ['acceptCreate', 'announceCreate'] },
          { target: 'proposed', actions: ['acceptCreate', 'announceCreate'] },
        ],
      },
    },
    // A proposal is not in the ladder: nothing the agent reads changes until it is activated.
    proposed: {
      on: {
        activate: { target: 'active', actions: [raise] },
        supersede: { target: 'superseded', actions: ['acceptSupersede', emit('rule.superseded')] },
        retire: [{ guard: 'undoes', target: 'retired', actions: [emit('rule.undone')] }, { target: 'retired' }],
      },
    },
    active: {
      on: {
        supersede: { target: 'superseded', actions: ['acceptSupersede', emit('rule.superseded'), raise] },
        retire: [
          { guard: 'undoes', target: 'retired', actions: [emit('rule.undone'), raise] },
          { target: 'retired', actions: [raise] },
        ],
      },
    },
    superseded: { type: 'final' },
    retired: { type: 'final' },
  },
});

export type RuleSnapshot = SnapshotFrom<typeof ruleMachine>;

export const ruleStatus = (s: RuleSnapshot): RuleState => s.value as RuleState;

/** The verbs legal now, read off the machine so a hint never offers a verb that would 409. */
export function allowedRuleVerbs(s: RuleSnapshot): RuleVerb[] {
  const probe: Record<RuleVerb, RuleEvent> = {
    activate: { type: 'activate' },
    supersede: { type: 'supersede', by_id: 'rule_probe' },
    retire: { type: 'retire' },
  };
  return RULE_VERBS.filter((v) => s.can(probe[v]));
}
