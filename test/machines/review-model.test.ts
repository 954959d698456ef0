// Model-based test: walk the review machine with @xstate/graph to every reachable configuration,
// then in each one try every verb from every actor, current and stale, and check that the
// `allowed_action` hints and the 409 classification agree with what the machine actually does.
import { describe, it } from '../../testkit/test.ts';
import assert from 'node:assert/strict';
import { getShortestPaths } from '@xstate/graph';
import { transition } from 'xstate';
import { reviewRequestMachine } from '../../machines/review-request.ts';
import type { ReviewEvent, ReviewSnapshot, ReviewState, SubmitEvent } from '../../machines/review-request.ts';
import {
  REVIEW_VERBS,
  allowedActions,
  classifyRejection,
  isTerminal,
  representativeEvents,
} from '../../machines/review-verbs.ts';
import type { ReviewActor } from '../../machines/review-verbs.ts';

const ACTORS: ReviewActor[] = ['composer', 'reviewer_agent', 'human'];
const ALL_STATES: ReviewState[] = [
  'new',
  'needs_review',
  'in_review',
  'chatting',
  'approved',
  'edited',
  'rejected',
  'sending_auto',
  'sent',
  'auto_sent',
  'failed',
  'cancelled',
];

const base: Omit<SubmitEvent, 'release' | 'route'> = {
  type: 'submit',
  draft: { to: ['dana@acme.example'], subject: 'Demo', text: 'Tuesday works.' },
  intent: { summary: 'Confirm the Tuesday demo with Dana' },
  category_id: null,
  max_hops: 2,
  rules_version: 1,
  escalate_after_s: 300,
  review_deadline_s: 86400,
};

/** Every event the outside world can send: all verbs of all actors plus the workers' events. */
function eventsFor(snapshot: ReviewSnapshot): ReviewEvent[] {
  const verbs = REVIEW_VERBS.flatMap((verb) => ACTORS.flatMap((actor) => representativeEvents(snapshot, verb, actor)));
  return [
    { ...base, release: false, route: 'human' },
    { ...base, release: false, route: 'reviewer_agent' },
    { ...base, release: true, route: 'human' },
    ...verbs,
    { type: 'cancel', by: 'deadline' },
    { type: 'delivered', sent_message_id: 'msg_1' },
    { type: 'delivery_failed', error: 'bounced' },
    { type: 'delivery_unknown' },
    { type: 'escalate' },
    { type: 'deadline' },
  ];
}

// Revision and escalation epoch grow without bound; what decides legality is state, route,
// hops and the reconciliation flag, so the walk is keyed on those.
function key(snapshot: ReviewSnapshot): string {
  const { route, hops, reconciliation_needed, effective_mode } = snapshot.context;
  return JSON.stringify([snapshot.value, route, hops, reconciliation_needed, effective_mode]);
}

const paths = getShortestPaths(reviewRequestMachine, {
  events: eventsFor,
  serializeState: (snapshot) => key(snapshot),
  limit: 10_000,
});

function withRevision(event: ReviewEvent, parent_revision: number): ReviewEvent {
  return 'parent_revision' in event ? ({ ...event, parent_revision } as ReviewEvent) : event;
}

describe('review machine model', () => {
  it('reaches every state', () => {
    const reached = new Set(paths.map((path) => path.state.value as ReviewState));
    assert.deepEqual([...reached].sort(), [...ALL_STATES].sort());
  });

  it('reaches a human-routed review after max_hops hand-backs and a parked delivery', () => {
    assert.ok(paths.some((p) => p.state.context.hops === 2 && p.state.context.route === 'human'));
    assert.ok(paths.some((p) => p.state.context.reconciliation_needed));
  });

  it('restores every reachable snapshot from its JSON form to the same state and the same next moves', () => {
    for (const { state: snapshot } of paths) {
      const stored = JSON.stringify(reviewRequestMachine.getPersistedSnapshot(snapshot));
      const restored = reviewRequestMachine.resolveState(JSON.parse(stored));
      assert.equal(restored.value, snapshot.value);
      assert.equal(restored.status, snapshot.status);
      assert.deepEqual(restored.context, snapshot.context);
      assert.deepEqual(allowedActions(restored), allowedActions(snapshot));
      for (const event of eventsFor(snapshot)) {
        const [a, actionsA] = transition(reviewRequestMachine, snapshot, event);
        const [b, actionsB] = transition(reviewRequestMachine, restored, event);
        assert.equal(b.value, a.value);
        assert.deepEqual(b.context, a.context);
        assert.deepEqual(
          actionsB.map((x) => [x.type, x.params]),
          actionsA.map((x) => [x.type, x.params]),
        );
      }
    }
  });

  for (const path of paths) {
    const snapshot = path.state;
    const label = `${key(snapshot)} via ${path.steps.map((s) => s.event.type).join(' → ') || '(start)'}`;

    it(`hints and 409s agree with the machine in ${label}`, () => {
      const everyone = allowedActions(snapshot);
      for (const verb of REVIEW_VERBS) {
        const anyAccepted: boolean[] = [];
        for (const actor of ACTORS) {
          const mine = allowedActions(snapshot, actor);
          assert.ok(mine.every((v) => everyone.includes(v)), 'per-actor hints are a subset');
          for (const event of representativeEvents(snapshot, verb, actor)) {
            const verdict = classifyRejection(snapshot, event);
            const [next, actions] = transition(reviewRequestMachine, snapshot, event);
            // The classification is the machine's own answer: accepted means it moved or asked for effects.
            const took = next !== snapshot || actions.length > 0;
            assert.equal(verdict === null, took, `${actor} ${verb}: classification vs transition`);
            anyAccepted.push(verdict === null);
            if (mine.includes(verb)) {
              assert.equal(verdict, null, `${actor} ${verb} is offered, so it must be accepted`);
            } else {
              const expected = isTerminal(snapshot) ? 'terminal' : 'wrong_state';
              assert.equal(verdict, expected, `${actor} ${verb} is not offered`);
            }

            // The same verb against a revision that is no longer current.
            if (!('parent_revision' in event)) continue;
            const old = withRevision(event, snapshot.context.revision - 1);
            const oldVerdict = classifyRejection(snapshot, old);
            if (isTerminal(snapshot)) assert.equal(oldVerdict, 'terminal');
            else assert.equal(oldVerdict, verdict === null ? 'stale' : 'wrong_state', `${actor} ${verb} with an old revision`);
            const [after, effects] = transition(reviewRequestMachine, snapshot, old);
            assert.ok(after === snapshot && effects.length === 0, 'a refused verb mutates nothing');
          }
        }
        assert.equal(everyone.includes(verb), anyAccepted.includes(true), `${verb}: listed iff someone may`);
      }
    });
  }
});
