// Model-based test of the category machine: walk every reachable state with @xstate/graph and
// check the legal verbs in each; then drive long random runs of outcomes and human verbs through
// the machine and through a plain reference model of the graduation rules, and require that both
// agree on the rung, the runs and every category event after every step.
import { describe, it } from '../../testkit/test.ts';
import assert from 'node:assert/strict';
import { getShortestPaths } from '@xstate/graph';
import { initialTransition, transition } from 'xstate';
import {
  CATEGORY_VERBS,
  allowedCategoryVerbs,
  categoryMachine,
  categoryState,
  graduationGaps,
  rungOf,
  type CategoryEvent,
  type CategorySnapshot,
  type CategoryState,
  type CategoryVerb,
  type GraduationGates,
  type Outcome,
  type Rung,
} from '../../machines/category.ts';

const HOUR = 3600 * 1000;
const T0 = Date.UTC(2026, 0, 1);
const gates: GraduationGates = { graduate_min_approvals: 2, graduate_min_age_hours: 1, drift_demote_after: 2 };
const later = T0 + 2 * HOUR;

const outcome = (o: Outcome, at = later, g = gates): CategoryEvent => ({ type: 'outcome', outcome: o, at, gates: g });
const verbEvent: Record<CategoryVerb, CategoryEvent> = {
  graduate: { type: 'graduate', at: later, gates },
  demote: { type: 'demote' },
  pin: { type: 'pin' },
  unpin: { type: 'unpin' },
};
const allEvents = (): CategoryEvent[] => [
  { type: 'create', at: T0 },
  outcome('approve'),
  outcome('edit'),
  ...CATEGORY_VERBS.map((v) => verbEvent[v]),
];

// The runs are part of the state; capped, so the walk is finite (a pinned category counts forever).
const serializeState = (s: CategorySnapshot) => `${String(s.value)} ${Math.min(s.context.clean_approvals, 3)} ${Math.min(s.context.drift_count, 3)}`;
const paths = getShortestPaths(categoryMachine, { events: allEvents, serializeState: serializeState as never });
const reached = new Map<CategoryState, CategorySnapshot>();
for (const p of paths) {
  const state = categoryState(p.state as CategorySnapshot);
  if (!reached.has(state)) reached.set(state, p.state as CategorySnapshot);
}

// The verbs a human has on each state (graduate still needs the rung earned).
const LEGAL: Record<CategoryState, CategoryVerb[]> = {
  new: [],
  supervised: ['graduate', 'pin'],
  auto_notify: ['graduate', 'demote', 'pin'],
  autonomous: ['demote', 'pin'],
  pinned: ['unpin'],
};

const step = (s: CategorySnapshot, e: CategoryEvent) => {
  const [next, actions] = transition(categoryMachine, s, e);
  return { next, actions: actions.map((a) => ({ type: a.type, params: (a as { params?: unknown }).params as Record<string, unknown> })) };
};
const start = () => step(initialTransition(categoryMachine)[0], { type: 'create', at: T0 }).next;

describe('category machine model', () => {
  it('reaches every state', () => {
    assert.deepEqual([...reached.keys()].sort(), ['auto_notify', 'autonomous', 'new', 'pinned', 'supervised']);
  });

  for (const state of Object.keys(LEGAL) as CategoryState[]) {
    it(`in ${state}, exactly the legal verbs are hinted`, () => {
      assert.deepEqual(allowedCategoryVerbs(reached.get(state)!), LEGAL[state]);
    });
  }

  it('a pinned category counts outcomes but no run of approvals graduates it', () => {
    let s = step(start(), verbEvent.pin).next;
    for (let i = 0; i < 10; i++) s = step(s, outcome('approve')).next;
    assert.equal(s.value, 'pinned');
    assert.equal(s.context.clean_approvals, 10);
    assert.equal(s.can(verbEvent.graduate), false);
  });

  it('graduation names what is missing: approvals and age', () => {
    const s = start();
    assert.deepEqual(graduationGaps(s.context, T0 + HOUR / 2, gates).map((g) => g.field), ['clean_approvals', 'age_hours']);
    assert.equal(s.can({ type: 'graduate', at: T0 + HOUR / 2, gates }), false);
    const two = step(step(s, outcome('approve', T0)).next, outcome('approve', T0)).next;
    assert.equal(two.value, 'supervised', 'too young to graduate on its own');
    assert.deepEqual(graduationGaps(two.context, T0, gates).map((g) => g.field), ['age_hours']);
    const { next, actions } = step(two, verbEvent.graduate);
    assert.equal(next.value, 'auto_notify');
    assert.deepEqual(actions.filter((a) => a.type !== 'resetRuns').map((a) => [a.type, a.params]), [
      ['emitCategoryEvent', { type: 'category.graduated', from_rung: 'supervised', to_rung: 'auto_notify', by: 'human' }],
      ['broadcastRecheck', { rung: 'auto_notify' }],
    ]);
  });

  it('the approval that completes the run graduates at once; an edit breaks the run', () => {
    let s = step(start(), outcome('approve')).next;
    s = step(s, outcome('edit')).next;
    s = step(s, outcome('approve')).next;
    assert.equal(s.value, 'supervised');
    const { next, actions } = step(s, outcome('approve'));
    assert.equal(next.value, 'auto_notify');
    assert.deepEqual(next.context, { created_ms: T0, clean_approvals: 0, drift_count: 0 });
    assert.ok(actions.some((a) => a.type === 'emitCategoryEvent' && a.params.by === 'earned'));
  });

  it('drift_demote_after edits or rejections in a row demote one rung; an approval between them resets the run', () => {
    let s = reached.get('autonomous')!;
    s = step(s, outcome('reject')).next;
    s = step(s, outcome('approve')).next;
    s = step(s, outcome('edit')).next;
    assert.equal(s.value, 'autonomous');
    const { next, actions } = step(s, outcome('reject'));
    assert.equal(next.value, 'auto_notify');
    assert.deepEqual(actions.filter((a) => a.type === 'emitCategoryEvent').map((a) => a.params), [
      { type: 'category.demoted', from_rung: 'autonomous', to_rung: 'auto_notify', by: 'drift' },
    ]);
  });

  it('pinning a graduated category demotes it to supervised with category.demoted', () => {
    const { next, actions } = step(reached.get('auto_notify')!, verbEvent.pin);
    assert.equal(next.value, 'pinned');
    assert.equal(rungOf(String(next.value)), 'supervised');
    assert.deepEqual(actions.filter((a) => a.type === 'emitCategoryEvent').map((a) => a.params.to_rung), ['supervised']);
  });

  it('agrees with a reference model over 300 random runs of 60 steps', () => {
    let seed = 17;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const ORDER: Rung[] = ['supervised', 'auto_notify', 'autonomous'];
    for (let run = 0; run < 300; run++) {
      const g: GraduationGates = {
        graduate_min_approvals: Math.floor(random() * 4),
        graduate_min_age_hours: Math.floor(random() * 3),
        drift_demote_after: 1 + Math.floor(random() * 3),
      };
      let s = start();
      const model = { rung: 'supervised' as Rung, pinned: false, clean: 0, drift: 0 };
      let at = T0;
      for (let i = 0; i < 60; i++) {
        at += Math.floor(random() * HOUR);
        const pick = random();
        const e: CategoryEvent =
          pick < 0.45 ? outcome('approve', at, g)
          : pick < 0.6 ? outcome(random() < 0.5 ? 'edit' : 'reject', at, g)
          : pick < 0.75 ? { type: 'graduate', at, gates: g }
          : pick < 0.85 ? verbEvent.demote
          : pick < 0.93 ? verbEvent.pin
          : verbEvent.unpin;
        const expected: Array<Record<string, unknown>> = [];
        const index = ORDER.indexOf(model.rung);
        const old = at - T0 >= g.graduate_min_age_hours * HOUR;
        const accepted = s.can(e);
        const move = (to: Rung, type: string, by: string) => {
          expected.push({ type, from_rung: model.rung, to_rung: to, by });
          model.rung = to;
          model.clean = 0;
          model.drift = 0;
        };
        if (e.type === 'outcome') {
          if (e.outcome === 'approve') [model.clean, model.drift] = [model.clean + 1, 0];
          else [model.clean, model.drift] = [0, model.drift + 1];
          if (!model.pinned && index < 2 && e.outcome === 'approve' && model.clean >= g.graduate_min_approvals && old) move(ORDER[index + 1]!, 'category.graduated', 'earned');
          else if (!model.pinned && index > 0 && e.outcome !== 'approve' && model.drift >= g.drift_demote_after) move(ORDER[index - 1]!, 'category.demoted', 'drift');
          assert.equal(accepted, true);
        } else if (e.type === 'graduate') {
          const legal = !model.pinned && index < 2 && model.clean >= g.graduate_min_approvals && old;
          assert.equal(accepted, legal, `graduate from ${model.rung}`);
          if (legal) move(ORDER[index + 1]!, 'category.graduated', 'human');
        } else if (e.type === 'demote') {
          assert.equal(accepted, !model.pinned && index > 0);
          if (accepted) move(ORDER[index - 1]!, 'category.demoted', 'human');
        } else if (e.type === 'pin') {
          assert.equal(accepted, !model.pinned);
          if (accepted) {
            if (index > 0) move('supervised', 'category.demoted', 'human');
            [model.pinned, model.clean, model.drift] = [true, 0, 0];
          }
        } else if (e.type === 'unpin') {
          assert.equal(accepted, model.pinned);
          if (accepted) [model.pinned, model.clean, model.drift] = [false, 0, 0];
        }
        if (!accepted) continue;
        const { next, actions } = step(s, e);
        s = next;
        assert.deepEqual(actions.filter((a) => a.type === 'emitCategoryEvent').map((a) => a.params), expected, `run ${run} step ${i} ${e.type}`);
        assert.equal(actions.some((a) => a.type === 'broadcastRecheck'), expected.some((x) => x.type === 'category.graduated'));
        assert.equal(String(s.value), model.pinned ? 'pinned' : model.rung, `run ${run} step ${i}`);
        assert.equal(s.context.clean_approvals, model.clean);
        assert.equal(s.context.drift_count, model.drift);
      }
    }
  });
});
