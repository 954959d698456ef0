import { describe, it } from '../../testkit/test.ts';
import assert from 'node:assert/strict';
import { initialTransition, transition } from 'xstate';
import { reviewRequestMachine } from '../../machines/review-request.ts';
import type { ReviewEvent, ReviewSnapshot, SubmitEvent } from '../../machines/review-request.ts';
import {
  REVIEW_VERBS,
  allowedActions,
  classifyRejection,
  isLive,
  isTerminal,
  representativeEvents,
} from '../../machines/review-verbs.ts';

const submit: SubmitEvent = {
  type: 'submit',
  release: false,
  draft: { to: ['dana@acme.example'], subject: 'Demo', text: 'Tuesday works.' },
  intent: { summary: 'Confirm the Tuesday demo with Dana' },
  category_id: null,
  route: 'reviewer_agent',
  max_hops: 3,
  rules_version: 1,
};

function at(events: ReviewEvent[]): ReviewSnapshot {
  let snapshot = initialTransition(reviewRequestMachine)[0];
  for (const event of events) snapshot = transition(reviewRequestMachine, snapshot, event)[0];
  return snapshot;
}

describe('allowedActions', () => {
  it('lists what each actor may do in needs_review', () => {
    const snapshot = at([submit]);
    assert.deepEqual(allowedActions(snapshot, 'composer'), ['revise', 'restamp', 'cancel']);
    assert.deepEqual(allowedActions(snapshot, 'reviewer_agent'), ['open', 'approve', 'edit', 'reject']);
    assert.deepEqual(allowedActions(snapshot, 'human'), ['open', 'approve', 'edit', 'reject', 'cancel']);
    assert.deepEqual(allowedActions(snapshot), ['open', 'approve', 'edit', 'reject', 'revise', 'restamp', 'cancel']);
  });

  it('offers hand_back only to a reviewer agent the review is routed to', () => {
    const inReview = at([submit, { type: 'open', by: 'reviewer_agent' }]);
    assert.ok(allowedActions(inReview, 'reviewer_agent').includes('hand_back'));
    assert.ok(!allowedActions(inReview, 'human').includes('hand_back'));
    const toHuman = at([{ ...submit, route: 'human' }, { type: 'open', by: 'human' }]);
    assert.deepEqual(allowedActions(toHuman, 'reviewer_agent'), []);
    assert.ok(!allowedActions(toHuman).includes('hand_back'));
  });

  it('offers only the composer cancel on a failed send, and nothing once finished', () => {
    const failed = at([submit, { type: 'approve', by: 'human' }, { type: 'delivery_failed', error: 'x' }]);
    assert.deepEqual(allowedActions(failed), ['cancel']);
    assert.deepEqual(allowedActions(failed, 'human'), []);
    assert.deepEqual(allowedActions(at([submit, { type: 'cancel', by: 'human' }])), []);
  });

  it('offers nothing while delivery is in flight', () => {
    assert.deepEqual(allowedActions(at([submit, { type: 'approve', by: 'human' }])), []);
    assert.deepEqual(allowedActions(at([{ ...submit, release: true }])), []);
  });

  it('never offers a verb the machine would refuse', () => {
    const snapshot = at([submit, { type: 'open', by: 'reviewer_agent' }]);
    for (const actor of ['composer', 'reviewer_agent', 'human'] as const) {
      for (const verb of allowedActions(snapshot, actor)) {
        const events = representativeEvents(snapshot, verb, actor);
        assert.ok(events.some((event) => classifyRejection(snapshot, event) === null), `${actor} ${verb}`);
      }
    }
  });

  it('knows every verb', () => {
    assert.deepEqual([...REVIEW_VERBS], ['open', 'approve', 'edit', 'reject', 'chat', 'hand_back', 'revise', 'restamp', 'cancel']);
  });
});

describe('classifyRejection', () => {
  it('is null for an accepted event', () => {
    assert.equal(classifyRejection(at([submit]), { type: 'open', by: 'human' }), null);
  });

  it('is terminal for any event once sent, auto_sent or cancelled', () => {
    const sent = at([submit, { type: 'approve', by: 'human' }, { type: 'delivered', sent_message_id: 'msg_1' }]);
    assert.equal(classifyRejection(sent, { type: 'cancel', by: 'composer' }), 'terminal');
    assert.equal(classifyRejection(sent, { type: 'revise', parent_revision: 99 }), 'terminal');
  });

  it('is stale when the verb is legal here but names an old revision', () => {
    const revised = at([submit, { type: 'revise', parent_revision: 1 }]);
    assert.equal(classifyRejection(revised, { type: 'revise', parent_revision: 1 }), 'stale');
    assert.equal(classifyRejection(revised, { type: 'revise', parent_revision: 3 }), 'stale');
    assert.equal(classifyRejection(revised, { type: 'reject', by: 'human', parent_revision: 1 }), 'stale');
  });

  it("a human's cancel names the revision it saw like every decision; the composer's names none", () => {
    const revised = at([submit, { type: 'revise', parent_revision: 1 }]);
    assert.equal(classifyRejection(revised, { type: 'cancel', by: 'human', parent_revision: 1 }), 'stale');
    assert.equal(classifyRejection(revised, { type: 'cancel', by: 'human', parent_revision: 2 }), null);
    assert.equal(classifyRejection(revised, { type: 'cancel', by: 'composer' }), null);
  });

  it('is wrong_state when the verb is illegal here, even with an old revision', () => {
    const approved = at([submit, { type: 'approve', by: 'human' }]);
    assert.equal(classifyRejection(approved, { type: 'revise', parent_revision: 0 }), 'wrong_state');
    assert.equal(classifyRejection(approved, { type: 'revise', parent_revision: 1 }), 'wrong_state');
    assert.equal(classifyRejection(at([]), { type: 'open', by: 'human' }), 'wrong_state');
  });
});

describe('isTerminal and isLive', () => {
  it('tell unsubmitted, live and finished reviews apart', () => {
    const cases: Array<[ReviewEvent[], boolean, boolean]> = [
      [[], false, false],
      [[submit], false, true],
      [[submit, { type: 'approve', by: 'human' }], false, true],
      [[submit, { type: 'approve', by: 'human' }, { type: 'delivery_failed', error: 'x' }], false, true],
      [[submit, { type: 'cancel', by: 'composer' }], true, false],
      [[{ ...submit, release: true }, { type: 'delivered', sent_message_id: 'msg_1' }], true, false],
    ];
    for (const [path, terminal, live] of cases) {
      const snapshot = at(path);
      assert.equal(isTerminal(snapshot), terminal, String(snapshot.value));
      assert.equal(isLive(snapshot), live, String(snapshot.value));
    }
  });
});
