import { describe, it } from '../../testkit/test.ts';
import assert from 'node:assert/strict';
import { initialTransition, transition } from 'xstate';
import { reviewRequestMachine } from '../../machines/review-request.ts';
import type { ReviewEvent, ReviewSnapshot, SubmitEvent } from '../../machines/review-request.ts';
import { classifyRejection } from '../../machines/review-verbs.ts';

type Step = { snapshot: ReviewSnapshot; actions: Array<{ type: string; params?: unknown }> };

const submitToHuman: SubmitEvent = {
  type: 'submit',
  release: false,
  draft: { to: ['dana@acme.example'], subject: 'Demo', text: 'Tuesday works.', thread_id: null, in_reply_to: null },
  intent: { summary: 'Confirm the Tuesday demo with Dana' },
  category_id: 'cat_demo',
  route: 'human',
  max_hops: 3,
  rules_version: 7,
};

const submitToAgent: SubmitEvent = {
  ...submitToHuman,
  route: 'reviewer_agent',
  max_hops: 2,
  escalate_after_s: 300,
  review_deadline_s: 86400,
};

function start(): ReviewSnapshot {
  return initialTransition(reviewRequestMachine)[0];
}

/** Applies events that must all be accepted; returns the last snapshot and its actions. */
function run(events: ReviewEvent[], from: ReviewSnapshot = start()): Step {
  let step: Step = { snapshot: from, actions: [] };
  for (const event of events) {
    assert.equal(classifyRejection(step.snapshot, event), null, `${event.type} refused in ${String(step.snapshot.value)}`);
    const [snapshot, actions] = transition(reviewRequestMachine, step.snapshot, event);
    step = { snapshot, actions };
  }
  return step;
}

/** The action names and params a transition asked for, without xstate's bookkeeping. */
function intents(step: Step): Array<[string, unknown]> {
  return step.actions.map((a) => [a.type, a.params]);
}

function emitted(step: Step): unknown[] {
  return step.actions
    .filter((a) => a.type === 'emitReviewEvent')
    .map((a) => (a.params as { type: string }).type);
}

const open: ReviewEvent = { type: 'open', by: 'human' };
const chatReviewer: ReviewEvent = { type: 'chat', from: 'reviewer', by: 'human', message: 'Why Tuesday?' };
const chatComposer: ReviewEvent = { type: 'chat', from: 'composer', message: 'She asked for it.' };

const queued = {
  needs_review: [submitToHuman],
  in_review: [submitToHuman, open],
  chatting: [submitToHuman, open, chatReviewer],
} satisfies Record<string, ReviewEvent[]>;

describe('review request: submit', () => {
  it('queues a draft that needs a human in needs_review and emits review.created', () => {
    const step = run([submitToHuman]);
    assert.equal(step.snapshot.value, 'needs_review');
    assert.equal(step.snapshot.context.revision, 1);
    assert.equal(step.snapshot.context.rules_version, 7);
    assert.equal(step.snapshot.context.effective_mode, 'review');
    assert.equal(step.snapshot.context.category_id, 'cat_demo');
    assert.deepEqual(step.snapshot.context.draft, submitToHuman.draft);
    assert.deepEqual(intents(step), [
      ['emitReviewEvent', { type: 'review.created' }],
      ['notifyReviewer', { route: 'human', reason: 'created', revision: 1 }],
    ]);
  });

  it('arms escalation and the deadline when routed to a reviewer agent', () => {
    const step = run([submitToAgent]);
    assert.deepEqual(intents(step), [
      ['emitReviewEvent', { type: 'review.created' }],
      ['notifyReviewer', { route: 'reviewer_agent', reason: 'created', revision: 1 }],
      ['scheduleEscalation', { after_s: 300, epoch: 1 }],
      ['scheduleDeadline', { after_s: 86400 }],
    ]);
    assert.equal(step.snapshot.context.escalation_epoch, 1);
  });

  it('sends a released draft at once, emitting nothing until the outcome', () => {
    const step = run([{ ...submitToHuman, release: true }]);
    assert.equal(step.snapshot.value, 'sending_auto');
    assert.equal(step.snapshot.context.effective_mode, 'auto');
    assert.deepEqual(intents(step), [['deliver', { mode: 'auto', revision: 1 }]]);
  });

  it('accepts submit only once', () => {
    const { snapshot } = run([submitToHuman]);
    assert.equal(classifyRejection(snapshot, submitToHuman), 'wrong_state');
  });
});

describe('review request: delivery outcomes', () => {
  it('sending_auto: delivered → auto_sent with review.auto_sent', () => {
    const step = run([{ ...submitToHuman, release: true }, { type: 'delivered', sent_message_id: 'msg_1' }]);
    assert.equal(step.snapshot.value, 'auto_sent');
    assert.equal(step.snapshot.status, 'done');
    assert.equal(step.snapshot.context.sent_message_id, 'msg_1');
    assert.deepEqual(emitted(step), ['review.auto_sent']);
  });

  it('sending_auto: delivery_failed → failed with review.failed', () => {
    const step = run([{ ...submitToHuman, release: true }, { type: 'delivery_failed', error: '550 no such user' }]);
    assert.equal(step.snapshot.value, 'failed');
    assert.equal(step.snapshot.context.last_error, '550 no such user');
    assert.deepEqual(emitted(step), ['review.failed']);
  });

  for (const [decision, state] of [
    [{ type: 'approve', by: 'human' }, 'approved'],
    [{ type: 'edit', by: 'human', text: 'Tuesday 10:00 works.', diff: '-Tuesday\n+Tuesday 10:00' }, 'edited'],
  ] as const) {
    it(`${state}: delivered → sent with review.sent, delivery_failed → failed with review.failed`, () => {
      const inFlight = run([submitToHuman, decision]);
      assert.equal(inFlight.snapshot.value, state);
      const sent = run([{ type: 'delivered', sent_message_id: 'msg_9' }], inFlight.snapshot);
      assert.equal(sent.snapshot.value, 'sent');
      assert.equal(sent.snapshot.context.sent_message_id, 'msg_9');
      assert.deepEqual(emitted(sent), ['review.sent']);
      const failed = run([{ type: 'delivery_failed', error: 'timeout' }], inFlight.snapshot);
      assert.equal(failed.snapshot.value, 'failed');
      assert.deepEqual(emitted(failed), ['review.failed']);
    });
  }

  it('delivery_unknown parks the send in place, asks for reconciliation once, then resolves', () => {
    const approved = run([submitToHuman, { type: 'approve', by: 'human' }]).snapshot;
    const parked = run([{ type: 'delivery_unknown', error: 'no answer after DATA' }], approved);
    assert.equal(parked.snapshot.value, 'approved');
    assert.equal(parked.snapshot.context.reconciliation_needed, true);
    assert.deepEqual(intents(parked), [['reconcileDelivery', { revision: 1 }]]);
    assert.equal(classifyRejection(parked.snapshot, { type: 'delivery_unknown' }), 'wrong_state');
    // Parked does not mean cancellable: the mail may be out.
    assert.equal(classifyRejection(parked.snapshot, { type: 'cancel', by: 'composer' }), 'wrong_state');

    const sent = run([{ type: 'delivered', sent_message_id: 'msg_2' }], parked.snapshot);
    assert.equal(sent.snapshot.value, 'sent');
    assert.equal(sent.snapshot.context.reconciliation_needed, false);
    const failed = run([{ type: 'delivery_failed', error: 'bounced' }], parked.snapshot);
    assert.equal(failed.snapshot.value, 'failed');
    assert.equal(failed.snapshot.context.reconciliation_needed, false);
  });

  it('delivery_unknown works the same for an auto send', () => {
    const parked = run([{ ...submitToHuman, release: true }, { type: 'delivery_unknown' }]);
    assert.equal(parked.snapshot.value, 'sending_auto');
    assert.equal(parked.snapshot.context.reconciliation_needed, true);
    assert.equal(run([{ type: 'delivered', sent_message_id: 'msg_3' }], parked.snapshot).snapshot.value, 'auto_sent');
  });
});

describe('review request: reviewer decisions', () => {
  it('needs_review: open → in_review with review.in_review', () => {
    const step = run([submitToHuman, open]);
    assert.equal(step.snapshot.value, 'in_review');
    assert.deepEqual(emitted(step), ['review.in_review']);
  });

  for (const [from, path] of Object.entries(queued)) {
    it(`${from}: approve → approved, delivers, emits review.approved`, () => {
      const step = run([...path, { type: 'approve', by: 'human', feedback: 'Good.' }]);
      assert.equal(step.snapshot.value, 'approved');
      assert.equal(step.snapshot.context.feedback, 'Good.');
      assert.deepEqual(intents(step), [
        ['recordFeedback', { kind: 'approve', by: 'human', revision: 1, feedback: 'Good.' }],
        ['countCategoryOutcome', { category_id: 'cat_demo', outcome: 'approve' }],
        ['emitReviewEvent', { type: 'review.approved' }],
        ['deliver', { mode: 'review', revision: 1 }],
      ]);
    });

    it(`${from}: edit → edited, merges the new text, records the diff, delivers`, () => {
      const step = run([...path, { type: 'edit', by: 'human', subject: 'Demo, Tuesday', diff: { subject: 1 } }]);
      assert.equal(step.snapshot.value, 'edited');
      assert.equal(step.snapshot.context.draft.subject, 'Demo, Tuesday');
      assert.equal(step.snapshot.context.draft.text, 'Tuesday works.');
      assert.equal(step.snapshot.context.revision, 1);
      assert.deepEqual(intents(step), [
        ['recordFeedback', { kind: 'edit', by: 'human', revision: 1, feedback: null, diff: { subject: 1 } }],
        ['countCategoryOutcome', { category_id: 'cat_demo', outcome: 'edit' }],
        ['emitReviewEvent', { type: 'review.edited' }],
        ['deliver', { mode: 'review', revision: 1 }],
      ]);
    });

    it(`${from}: reject → rejected with the feedback recorded`, () => {
      const step = run([...path, { type: 'reject', by: 'human', feedback: 'Too terse.' }]);
      assert.equal(step.snapshot.value, 'rejected');
      assert.equal(step.snapshot.context.feedback, 'Too terse.');
      assert.deepEqual(intents(step), [
        ['recordFeedback', { kind: 'reject', by: 'human', revision: 1, feedback: 'Too terse.' }],
        ['countCategoryOutcome', { category_id: 'cat_demo', outcome: 'reject' }],
        ['emitReviewEvent', { type: 'review.rejected' }],
      ]);
    });
  }

  it('an approval without a note leaves no feedback record', () => {
    const step = run([submitToHuman, { type: 'approve', by: 'human' }]);
    assert.ok(!step.actions.some((a) => a.type === 'recordFeedback'));
  });

  it('a reviewer agent may decide only while the review is routed to it; a human always may', () => {
    const human = run([submitToHuman]).snapshot;
    assert.equal(classifyRejection(human, { type: 'approve', by: 'reviewer_agent' }), 'wrong_state');
    const agent = run([submitToAgent]).snapshot;
    assert.equal(classifyRejection(agent, { type: 'approve', by: 'reviewer_agent' }), null);
    assert.equal(classifyRejection(agent, { type: 'approve', by: 'human' }), null);
  });

  it('a decision naming an old revision is stale', () => {
    const revised = run([submitToHuman, { type: 'revise', parent_revision: 1, draft: { text: 'v2' } }]).snapshot;
    assert.equal(classifyRejection(revised, { type: 'approve', by: 'human', parent_revision: 1 }), 'stale');
    assert.equal(classifyRejection(revised, { type: 'approve', by: 'human', parent_revision: 2 }), null);
  });

  it('decisions are refused outside needs_review, in_review, chatting', () => {
    const rejected = run([submitToHuman, { type: 'reject', by: 'human' }]).snapshot;
    for (const event of [
      { type: 'approve', by: 'human' },
      { type: 'edit', by: 'human', diff: null },
      { type: 'reject', by: 'human' },
      open,
    ] as ReviewEvent[]) {
      assert.equal(classifyRejection(rejected, event), 'wrong_state', event.type);
    }
    assert.equal(classifyRejection(run([submitToHuman, open]).snapshot, open), 'wrong_state');
  });
});

describe('review request: chat', () => {
  it('in_review: the first message opens the chat and emits review.chat', () => {
    const step = run([...queued.in_review, chatComposer]);
    assert.equal(step.snapshot.value, 'chatting');
    assert.deepEqual(intents(step), [
      ['recordChat', { from: 'composer', by: null, message: 'She asked for it.', revision: 1 }],
      ['emitReviewEvent', { type: 'review.chat' }],
      ['notifyReviewer', { route: 'human', reason: 'chat', revision: 1 }],
    ]);
  });

  it('chatting: a reviewer message emits review.chat for the composer', () => {
    const step = run([...queued.chatting, { ...chatReviewer, message: 'And the room?' }]);
    assert.equal(step.snapshot.value, 'chatting');
    assert.deepEqual(intents(step), [
      ['recordChat', { from: 'reviewer', by: 'human', message: 'And the room?', revision: 1 }],
      ['emitReviewEvent', { type: 'review.chat' }],
    ]);
  });

  it('chatting: a composer message goes to the reviewer and restarts its silence clock', () => {
    const step = run([submitToAgent, { type: 'open', by: 'reviewer_agent' }, { type: 'chat', from: 'reviewer', by: 'reviewer_agent', message: '?' }, chatComposer]);
    assert.deepEqual(intents(step), [
      ['recordChat', { from: 'composer', by: null, message: 'She asked for it.', revision: 1 }],
      ['notifyReviewer', { route: 'reviewer_agent', reason: 'chat', revision: 1 }],
      ['scheduleEscalation', { after_s: 300, epoch: 3 }],
    ]);
  });

  it('chat is refused in needs_review and rejected', () => {
    assert.equal(classifyRejection(run([submitToHuman]).snapshot, chatComposer), 'wrong_state');
    assert.equal(classifyRejection(run([submitToHuman, { type: 'reject', by: 'human' }]).snapshot, chatComposer), 'wrong_state');
  });
});

describe('review request: hand_back', () => {
  for (const from of ['in_review', 'chatting'] as const) {
    it(`${from}: hand_back → needs_review, hops+1, review.needs_review`, () => {
      const path: ReviewEvent[] = [submitToAgent, { type: 'open', by: 'reviewer_agent' }];
      if (from === 'chatting') path.push({ type: 'chat', from: 'reviewer', by: 'reviewer_agent', message: '?' });
      const step = run([...path, { type: 'hand_back', feedback: 'Not my area.' }]);
      assert.equal(step.snapshot.value, 'needs_review');
      assert.equal(step.snapshot.context.hops, 1);
      assert.equal(step.snapshot.context.route, 'reviewer_agent');
      assert.deepEqual(emitted(step), ['review.needs_review']);
      assert.ok(step.actions.some((a) => a.type === 'scheduleEscalation'));
    });
  }

  it('at max_hops the route becomes human and the reviewer agent can no longer act', () => {
    const once = run([submitToAgent, { type: 'open', by: 'reviewer_agent' }, { type: 'hand_back' }]).snapshot;
    const twice = run([{ type: 'open', by: 'reviewer_agent' }, { type: 'hand_back' }], once);
    assert.equal(twice.snapshot.context.hops, 2);
    assert.equal(twice.snapshot.context.route, 'human');
    assert.deepEqual(intents(twice).slice(-1), [['notifyReviewer', { route: 'human', reason: 'handed_back', revision: 1 }]]);
    assert.ok(!twice.actions.some((a) => a.type === 'scheduleEscalation'), 'nothing left to escalate');
    assert.equal(classifyRejection(twice.snapshot, { type: 'open', by: 'reviewer_agent' }), 'wrong_state');
    const opened = run([open], twice.snapshot).snapshot;
    assert.equal(classifyRejection(opened, { type: 'hand_back' }), 'wrong_state');
  });

  it('hand_back is refused in needs_review', () => {
    assert.equal(classifyRejection(run([submitToAgent]).snapshot, { type: 'hand_back' }), 'wrong_state');
  });
});

describe('review request: revise and restamp', () => {
  const revise = (parent_revision: number): ReviewEvent => ({
    type: 'revise',
    parent_revision,
    rules_version: 8,
    draft: { text: 'Tuesday at 10:00 works.' },
    intent: { summary: 'Confirm the 10:00 demo slot with Dana' },
  });

  for (const [from, path] of Object.entries({
    ...queued,
    rejected: [submitToHuman, { type: 'reject', by: 'human', feedback: 'Name a time.' }] as ReviewEvent[],
  })) {
    it(`${from}: revise → needs_review, revision+1, draft merged, review.needs_review`, () => {
      const step = run([...path, revise(1)]);
      assert.equal(step.snapshot.value, 'needs_review');
      assert.equal(step.snapshot.context.revision, 2);
      assert.equal(step.snapshot.context.rules_version, 8);
      assert.equal(step.snapshot.context.draft.text, 'Tuesday at 10:00 works.');
      assert.equal(step.snapshot.context.draft.subject, 'Demo');
      assert.equal(step.snapshot.context.intent?.summary, 'Confirm the 10:00 demo slot with Dana');
      assert.deepEqual(intents(step), [
        ['emitReviewEvent', { type: 'review.needs_review' }],
        ['notifyReviewer', { route: 'human', reason: 'revised', revision: 2 }],
      ]);
    });

    it(`${from}: revise naming an old revision is stale and changes nothing`, () => {
      const current = run([...path, revise(1)]).snapshot;
      assert.equal(classifyRejection(current, revise(1)), 'stale');
      assert.equal(transition(reviewRequestMachine, current, revise(1))[0], current);
    });
  }

  it('revise is wrong_state (not stale) where revising is illegal, whatever the revision', () => {
    const approved = run([submitToHuman, { type: 'approve', by: 'human' }]).snapshot;
    assert.equal(classifyRejection(approved, revise(1)), 'wrong_state');
    assert.equal(classifyRejection(approved, revise(0)), 'wrong_state');
  });

  for (const [from, path] of Object.entries({
    needs_review: [submitToHuman] as ReviewEvent[],
    rejected: [submitToHuman, { type: 'reject', by: 'human' }] as ReviewEvent[],
  })) {
    it(`${from}: restamp keeps the state and takes the given rules_version`, () => {
      const step = run([...path, { type: 'restamp', rules_version: 9, parent_revision: 1 }]);
      assert.equal(step.snapshot.value, from);
      assert.equal(step.snapshot.context.rules_version, 9);
      assert.equal(step.snapshot.context.revision, 1);
      assert.deepEqual(intents(step), []);
    });
  }

  it('restamp is refused in in_review and chatting, and stale with an old parent_revision', () => {
    assert.equal(classifyRejection(run(queued.in_review).snapshot, { type: 'restamp', rules_version: 9 }), 'wrong_state');
    assert.equal(classifyRejection(run(queued.chatting).snapshot, { type: 'restamp', rules_version: 9 }), 'wrong_state');
    const revised = run([submitToHuman, revise(1)]).snapshot;
    assert.equal(classifyRejection(revised, { type: 'restamp', rules_version: 9, parent_revision: 1 }), 'stale');
  });
});

describe('review request: cancel, deadline, escalation', () => {
  const live = {
    ...queued,
    rejected: [submitToHuman, { type: 'reject', by: 'human' }] as ReviewEvent[],
  };
  for (const [from, path] of Object.entries(live)) {
    for (const by of ['composer', 'human'] as const) {
      it(`${from}: cancel by ${by} → cancelled with review.cancelled`, () => {
        const step = run([...path, { type: 'cancel', by, reason: 'plans changed' }]);
        assert.equal(step.snapshot.value, 'cancelled');
        assert.equal(step.snapshot.status, 'done');
        assert.equal(step.snapshot.context.cancelled_by, by);
        assert.equal(step.snapshot.context.cancel_reason, 'plans changed');
        assert.deepEqual(emitted(step), ['review.cancelled']);
      });
    }
    it(`${from}: deadline → cancelled, reason deadline_exceeded`, () => {
      const step = run([...path, { type: 'deadline' }]);
      assert.equal(step.snapshot.value, 'cancelled');
      assert.equal(step.snapshot.context.cancel_reason, 'deadline_exceeded');
      assert.equal(step.snapshot.context.cancelled_by, 'deadline');
      assert.deepEqual(emitted(step), ['review.cancelled']);
    });
  }

  it('cancel and deadline are refused while delivery is in flight', () => {
    for (const path of [
      [submitToHuman, { type: 'approve', by: 'human' }],
      [submitToHuman, { type: 'edit', by: 'human', diff: null }],
      [{ ...submitToHuman, release: true }],
    ] as ReviewEvent[][]) {
      const { snapshot } = run(path);
      for (const by of ['composer', 'human', 'deadline'] as const) {
        assert.equal(classifyRejection(snapshot, { type: 'cancel', by }), 'wrong_state', `${String(snapshot.value)} ${by}`);
      }
      assert.equal(classifyRejection(snapshot, { type: 'deadline' }), 'wrong_state');
    }
  });

  it('failed: only the composer may cancel; nothing re-approves it', () => {
    const failed = run([submitToHuman, { type: 'approve', by: 'human' }, { type: 'delivery_failed', error: 'x' }]).snapshot;
    assert.equal(classifyRejection(failed, { type: 'cancel', by: 'human' }), 'wrong_state');
    assert.equal(classifyRejection(failed, { type: 'deadline' }), 'wrong_state');
    assert.equal(classifyRejection(failed, { type: 'approve', by: 'human' }), 'wrong_state');
    assert.equal(classifyRejection(failed, { type: 'revise', parent_revision: 1 }), 'wrong_state');
    const step = run([{ type: 'cancel', by: 'composer' }], failed);
    assert.equal(step.snapshot.value, 'cancelled');
    assert.deepEqual(emitted(step), ['review.cancelled']);
  });

  for (const [from, path] of Object.entries({
    needs_review: [submitToAgent],
    in_review: [submitToAgent, { type: 'open', by: 'reviewer_agent' }],
    chatting: [submitToAgent, { type: 'open', by: 'reviewer_agent' }, { type: 'chat', from: 'reviewer', by: 'reviewer_agent', message: '?' }],
  } as Record<string, ReviewEvent[]>)) {
    it(`${from}: escalate keeps the state, routes to the human, emits review.needs_review`, () => {
      const step = run([...path, { type: 'escalate' }]);
      assert.equal(step.snapshot.value, from);
      assert.equal(step.snapshot.context.route, 'human');
      assert.deepEqual(intents(step), [
        ['emitReviewEvent', { type: 'review.needs_review' }],
        ['notifyReviewer', { route: 'human', reason: 'escalated', revision: 1 }],
      ]);
      assert.equal(classifyRejection(step.snapshot, { type: 'escalate' }), 'wrong_state');
    });
  }

  it('escalate is refused when routed to the human, and for a job armed before the last activity', () => {
    assert.equal(classifyRejection(run([submitToHuman]).snapshot, { type: 'escalate' }), 'wrong_state');
    const opened = run([submitToAgent, { type: 'open', by: 'reviewer_agent' }]).snapshot;
    assert.equal(opened.context.escalation_epoch, 2);
    assert.equal(classifyRejection(opened, { type: 'escalate', epoch: 1 }), 'wrong_state');
    assert.equal(classifyRejection(opened, { type: 'escalate', epoch: 2 }), null);
    const rejected = run([{ type: 'reject', by: 'reviewer_agent' }], opened).snapshot;
    assert.equal(classifyRejection(rejected, { type: 'escalate' }), 'wrong_state');
  });
});

describe('review request: terminal states', () => {
  const finals: ReviewEvent[][] = [
    [submitToHuman, { type: 'approve', by: 'human' }, { type: 'delivered', sent_message_id: 'msg_1' }],
    [{ ...submitToHuman, release: true }, { type: 'delivered', sent_message_id: 'msg_1' }],
    [submitToHuman, { type: 'cancel', by: 'composer' }],
  ];
  for (const path of finals) {
    const { snapshot } = run(path);
    it(`${String(snapshot.value)} refuses every verb as terminal`, () => {
      assert.equal(snapshot.status, 'done');
      for (const event of [
        { type: 'cancel', by: 'composer' },
        { type: 'revise', parent_revision: 1 },
        { type: 'approve', by: 'human' },
        { type: 'delivered', sent_message_id: 'msg_2' },
      ] as ReviewEvent[]) {
        assert.equal(classifyRejection(snapshot, event), 'terminal');
      }
    });
  }
});

describe('review request: routing anew on revise', () => {
  const reviewer = { agent_id: 'agt_reviewer', link_id: 'rvl_one' };
  const toReviewer = { route: 'reviewer_agent', reviewer, max_hops: 2, escalate_after_s: 60 } as const;

  it('a revision routed to a reviewer agent goes to it, with its link and a fresh escalation', () => {
    const step = run([submitToHuman, { type: 'revise', parent_revision: 1, reroute: toReviewer }]);
    assert.equal(step.snapshot.context.route, 'reviewer_agent');
    assert.deepEqual(step.snapshot.context.reviewer, reviewer);
    assert.equal(step.snapshot.context.max_hops, 2);
    assert.deepEqual(intents(step).filter(([t]) => t === 'notifyReviewer' || t === 'scheduleEscalation'), [
      ['notifyReviewer', { route: 'reviewer_agent', reason: 'revised', revision: 2 }],
      ['scheduleEscalation', { after_s: 60, epoch: 1 }],
    ]);
  });

  it('a revision the links send to the human leaves the reviewer agent out', () => {
    const step = run([{ ...submitToAgent, reviewer }, { type: 'revise', parent_revision: 1, reroute: { route: 'human' } }]);
    assert.equal(step.snapshot.context.route, 'human');
    assert.equal(classifyRejection(step.snapshot, { type: 'open', by: 'reviewer_agent' }), 'wrong_state');
  });

  it('a review that used up its hand-backs stays with the human whatever the links say', () => {
    const spent = run([{ ...submitToAgent, reviewer }, { type: 'open', by: 'reviewer_agent' }, { type: 'hand_back' }, { type: 'open', by: 'reviewer_agent' }, { type: 'hand_back' }]);
    assert.equal(spent.snapshot.context.route, 'human');
    const step = run([{ type: 'revise', parent_revision: 1, reroute: toReviewer }], spent.snapshot);
    assert.equal(step.snapshot.context.route, 'human');
  });

  it('a revision without a routing keeps the route it had', () => {
    const step = run([{ ...submitToAgent, reviewer }, { type: 'revise', parent_revision: 1 }]);
    assert.equal(step.snapshot.context.route, 'reviewer_agent');
    assert.deepEqual(step.snapshot.context.reviewer, reviewer);
  });
});
