// Model-based test of the rule machine: walk every reachable state with @xstate/graph, then try
// every verb in each one and check the machine, its allowed-verb hints and its effects agree.
import { describe, it } from '../../testkit/test.ts';
import assert from 'node:assert/strict';
import { getShortestPaths } from '@xstate/graph';
import { initialTransition, transition } from 'xstate';
import { RULE_VERBS, allowedRuleVerbs, ruleMachine, ruleStatus } from '../../machines/rule.ts';
import type { RuleEvent, RuleSnapshot, RuleState, RuleVerb } from '../../machines/rule.ts';

const creates: RuleEvent[] = [
  { type: 'create', author_kind: 'agent', status: 'proposed' },
  { type: 'create', author_kind: 'human', status: 'active' },
  { type: 'create', author_kind: 'human', status: 'active', restores: true },
  { type: 'create', author_kind: 'human', status: 'proposed', restores: true },
  { type: 'create', author_kind: 'human', status: 'active', replaces_active: true },
];
const verbEvent: Record<RuleVerb, RuleEvent> = {
  activate: { type: 'activate' },
  supersede: { type: 'supersede', by_id: 'rule_next' },
  retire: { type: 'retire' },
};
const undoRetire: RuleEvent = { type: 'retire', undo: true };
const allEvents = (): RuleEvent[] => [...creates, ...RULE_VERBS.map((v) => verbEvent[v]), undoRetire];

const paths = getShortestPaths(ruleMachine, { events: allEvents, serializeState: (s) => String(s.value) });
const reached = new Map<RuleState, RuleSnapshot>();
for (const p of paths) reached.set(ruleStatus(p.state as RuleSnapshot), p.state as RuleSnapshot);

// What the contract's rule status table and behaviour 5 allow, per status.
const LEGAL: Record<RuleState, RuleVerb[]> = {
  new: [],
  proposed: ['activate', 'supersede', 'retire'],
  active: ['supersede', 'retire'],
  superseded: [],
  retired: [],
};

const actionsOf = (s: RuleSnapshot, e: RuleEvent) => transition(ruleMachine, s, e)[1].map((a) => ({ type: a.type, params: (a as { params?: unknown }).params }));

describe('rule machine model', () => {
  it('reaches every status', () => {
    assert.deepEqual([...reached.keys()].sort(), ['active', 'new', 'proposed', 'retired', 'superseded']);
  });

  for (const state of Object.keys(LEGAL) as RuleState[]) {
    it(`in ${state}, exactly the legal verbs are accepted and hinted`, () => {
      const s = reached.get(state)!;
      for (const verb of RULE_VERBS) {
        assert.equal(s.can(verbEvent[verb]), LEGAL[state].includes(verb), `${verb} in ${state}`);
      }
      assert.deepEqual(allowedRuleVerbs(s), LEGAL[state]);
    });
  }

  it('create is accepted only by a new revision; a new revision accepts no other verb', () => {
    for (const [state, s] of reached) {
      for (const c of creates) assert.equal(s.can(c), state === 'new', `create in ${state}`);
      if (state === 'new') for (const verb of RULE_VERBS) assert.equal(s.can(verbEvent[verb]), false, `${verb} in new`);
    }
  });

  it('superseded and retired are final: nothing leaves them', () => {
    for (const state of ['superseded', 'retired'] as const) {
      const s = reached.get(state)!;
      assert.equal(s.status, 'done');
      for (const e of allEvents()) assert.equal(s.can(e), false, `${e.type} in ${state}`);
    }
  });

  it('a human rule starts active and raises the high-water; an agent proposal does not', () => {
    const start = initialTransition(ruleMachine)[0];
    const [active] = transition(ruleMachine, start, creates[1]!);
    assert.equal(active.value, 'active');
    assert.deepEqual(actionsOf(start, creates[1]!).filter((a) => a.type === 'emitRuleEvent' || a.type === 'raiseHighWater'), [
      { type: 'emitRuleEvent', params: { type: 'rule.created' } },
      { type: 'raiseHighWater', params: {} },
    ]);
    const [proposed] = transition(ruleMachine, start, creates[0]!);
    assert.equal(proposed.value, 'proposed');
    assert.equal(proposed.context.author_kind, 'agent');
    assert.ok(!actionsOf(start, creates[0]!).some((a) => a.type === 'raiseHighWater'));
  });

  const emitted = (s: RuleSnapshot, e: RuleEvent) => actionsOf(s, e).filter((a) => a.type === 'emitRuleEvent').map((a) => (a.params as { type: string }).type);

  it('a restore revision emits rule.undone, not rule.created, and keeps the restored status', () => {
    const start = initialTransition(ruleMachine)[0];
    assert.deepEqual(emitted(start, creates[2]!), ['rule.undone']);
    assert.equal(transition(ruleMachine, start, creates[2]!)[0].value, 'active');
    assert.deepEqual(emitted(start, creates[3]!), ['rule.undone']);
    assert.equal(transition(ruleMachine, start, creates[3]!)[0].value, 'proposed');
  });

  it('retiring as the undo of a creation emits rule.undone; a plain retire emits no rule event', () => {
    for (const state of ['proposed', 'active'] as const) {
      assert.deepEqual(emitted(reached.get(state)!, undoRetire), ['rule.undone']);
      assert.deepEqual(emitted(reached.get(state)!, verbEvent.retire), []);
      assert.equal(transition(ruleMachine, reached.get(state)!, undoRetire)[0].value, 'retired');
    }
  });

  it('a revision replacing an active one leaves the raise to that one\'s supersede: one edit, one raise', () => {
    const start = initialTransition(ruleMachine)[0];
    assert.equal(transition(ruleMachine, start, creates[4]!)[0].value, 'active');
    assert.ok(!actionsOf(start, creates[4]!).some((a) => a.type === 'raiseHighWater'));
    assert.deepEqual(emitted(start, creates[4]!), ['rule.created']);
  });

  it('only a change to an active rule raises the high-water', () => {
    const raises = (state: RuleState, verb: RuleVerb) => actionsOf(reached.get(state)!, verbEvent[verb]).some((a) => a.type === 'raiseHighWater');
    assert.equal(raises('proposed', 'activate'), true);
    assert.equal(raises('active', 'supersede'), true);
    assert.equal(raises('active', 'retire'), true);
    assert.equal(raises('proposed', 'supersede'), false);
    assert.equal(raises('proposed', 'retire'), false);
  });

  it('superseding records the newer revision and emits rule.superseded', () => {
    const [next] = transition(ruleMachine, reached.get('active')!, verbEvent.supersede);
    assert.equal(next.value, 'superseded');
    assert.equal(next.context.superseded_by, 'rule_next');
    assert.ok(actionsOf(reached.get('active')!, verbEvent.supersede).some((a) => a.type === 'emitRuleEvent' && (a.params as { type: string }).type === 'rule.superseded'));
  });
});
