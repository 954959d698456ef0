// The console's integrity rule, as a model: for every kind of change that can reach an open review
// (a revision, a chat message, a reviewer agent's hand-back, a cancel) and every moment it can
// arrive (before the key, while the decision is on its way, or only as a 409), the decision sent
// carries the revision of the review object on screen, and a change is never decided on by the
// press that was aimed at what was there before it.
import assert from 'node:assert/strict';
import { describe, it } from '../../testkit/test.ts';
import {
  checkedBeforeSend,
  decisionApplied,
  decisionBody,
  decisionRefused,
  describeChange,
  initialDecisionState,
  requestDecision,
  reviewArrived,
} from '../../console/app/decision.js';

type Review = any;
const HUMAN = ['approve', 'edit', 'reject', 'chat', 'cancel'];

const rev1: Review = {
  id: 'rr_1', version: 3, revision: 1, state: 'in_review', allowed_actions: HUMAN,
  draft: { to: [{ email: 'dana@acme.example' }], cc: [], subject: 'Refund', text: 'We refund $50.' },
  feedback_history: [{ seq: 1, kind: 'chat', author: 'human', message: 'Is $50 right?' }],
};

/** Every kind of change the service can make to a review while a human has it open. */
const CHANGES: Record<string, (r: Review) => Review> = {
  revision: (r) => ({ ...r, version: r.version + 1, revision: r.revision + 1, draft: { ...r.draft, text: 'We refund $5,000.' } }),
  'chat message': (r) => ({ ...r, version: r.version + 1, state: 'chatting', feedback_history: [...r.feedback_history, { seq: 2, kind: 'chat', author: 'agent', message: 'Yes.' }] }),
  'hand-back': (r) => ({ ...r, version: r.version + 1, state: 'needs_review', allowed_actions: ['open', 'approve', 'edit', 'reject', 'cancel'], feedback_history: [...r.feedback_history, { seq: 2, kind: 'hand_back', author: 'reviewer_agent', feedback: 'A human should decide.' }] }),
  cancel: (r) => ({ ...r, version: r.version + 1, state: 'cancelled', allowed_actions: [] }),
};
const VERBS: Array<[string, Record<string, string>]> = [['approve', {}], ['cancel', {}], ['edit', { text: 'Mine.' }], ['reject', { feedback: 'No.' }], ['chat', { message: 'Why?' }]];

describe('a decision carries the revision on screen', () => {
  for (const [kind, change] of Object.entries(CHANGES)) {
    for (const [verb, fields] of VERBS) {
      it(`${kind} before ${verb}: the press after it only acknowledges; the next one carries what is shown`, () => {
        let s = reviewArrived(initialDecisionState(), rev1);
        const after = change(rev1);
        s = reviewArrived(s, after);
        assert.equal(s.shown, after, 'the newer read is what is shown');
        assert.ok(s.change, 'with what changed');
        const first = requestDecision(s, verb, fields);
        assert.equal(first.send, null);
        assert.equal(first.why, 'look_again');
        const second = requestDecision(first.state, verb, fields);
        if (!after.allowed_actions.includes(verb) && !(verb === 'chat' && after.allowed_actions.includes('open'))) {
          assert.equal(second.send, null, 'a verb no longer legal is not sent');
          return;
        }
        assert.deepEqual(second.send, { ...fields, action: verb, parent_revision: after.revision });
      });

      it(`${kind} while ${verb} is on its way: judged after the answer, never decided on by that press`, () => {
        let s = reviewArrived(initialDecisionState(), rev1);
        const r = requestDecision(s, verb, fields);
        assert.deepEqual(r.send, { ...fields, action: verb, parent_revision: 1 });
        s = reviewArrived(r.state, change(rev1));
        assert.equal(s.shown, rev1, 'nothing swaps under a decision on its way');
        // The server refuses the stale decision (409) and the view reads the review again.
        const current = change(rev1);
        s = decisionRefused(s, current);
        assert.deepEqual(s.shown, current);
        assert.ok(s.change);
        const next = requestDecision(s, verb, fields);
        if (next.send) assert.equal(next.send.parent_revision, current.revision);
      });
    }
  }

  it("a change that publishes no event (the composer's chat) is caught by the read just before the send, and holds it", () => {
    const s = reviewArrived(initialDecisionState(), rev1);
    const r = requestDecision(s, 'approve');
    const chatted = CHANGES['chat message']!(rev1);
    const checked = checkedBeforeSend(r.state, chatted);
    assert.equal(checked.go, false);
    assert.equal(checked.state.shown, chatted);
    assert.deepEqual(checked.state.change!.notes.map((n: any) => n.message), ['Yes.']);
    // The press was spent on what was there before; the next decides on what is shown.
    const next = requestDecision(checked.state, 'approve');
    assert.deepEqual(next.send, { action: 'approve', parent_revision: 1 });
    assert.equal(checkedBeforeSend(next.state, chatted).go, true);
  });

  it('a read just before the send that failed stops the decision: what is on screen was not checked', () => {
    const s = reviewArrived(initialDecisionState(), rev1);
    const r = requestDecision(s, 'approve');
    const checked = checkedBeforeSend(r.state, null);
    assert.equal(checked.go, false);
    assert.equal(checked.state.inFlight, false);
    assert.equal(checked.state.shown, rev1);
    // Nothing is held: the next press tries again on the same review.
    assert.deepEqual(requestDecision(checked.state, 'approve').send, { action: 'approve', parent_revision: 1 });
  });

  it('a read of the same or an older version changes nothing and holds nothing', () => {
    const s = reviewArrived(initialDecisionState(), rev1);
    const same = reviewArrived(s, { ...rev1 });
    assert.equal(same.held, false);
    assert.equal(reviewArrived(s, { ...rev1, version: 2, revision: 0 }).shown, rev1);
  });

  it("the human's own decision is not shown back as a change; another's change right after it is", () => {
    let s = reviewArrived(initialDecisionState(), rev1);
    s = requestDecision(s, 'chat', { message: 'Why?' }).state;
    const own = { ...rev1, version: 4, state: 'chatting' };
    s = decisionApplied(s, own);
    assert.equal(s.held, false);
    s = reviewArrived(s, { ...own, feedback_history: [...rev1.feedback_history, { seq: 2, kind: 'chat', author: 'human', message: 'Why?' }] });
    assert.equal(s.held, false, 'the full record of the same version is the same review');
    const revised = CHANGES.revision!(own);
    s = reviewArrived(s, revised);
    assert.equal(s.held, true);
    assert.deepEqual(requestDecision(requestDecision(s, 'approve').state, 'approve').send, { action: 'approve', parent_revision: 2 });
  });

  it('a change arriving while a decision is on its way is shown after the answer', () => {
    let s = reviewArrived(initialDecisionState(), rev1);
    s = requestDecision(s, 'chat', { message: 'Why?' }).state;
    const revised = { ...CHANGES.revision!(rev1), version: 5 };
    s = reviewArrived(s, revised);
    s = decisionApplied(s, { ...rev1, version: 4, state: 'chatting' });
    assert.equal(s.shown, revised);
    assert.equal(s.held, true);
  });

  it('changes not yet looked at add up against what the human last looked at', () => {
    let s = reviewArrived(initialDecisionState(), rev1);
    const r2 = CHANGES.revision!(rev1);
    const r3 = CHANGES.revision!({ ...r2, draft: { ...r2.draft, text: 'We refund $50.' } });
    s = reviewArrived(reviewArrived(s, r2), { ...r3, draft: { ...r3.draft, text: 'We refund $9,999.' } });
    assert.deepEqual(s.change!.fields, [{ field: 'text', before: 'We refund $50.', after: 'We refund $9,999.' }]);
    assert.equal(s.change!.from_revision, 1);
  });

  it('one decision at a time: a second press while one is on its way sends nothing', () => {
    const s = requestDecision(reviewArrived(initialDecisionState(), rev1), 'approve').state;
    assert.deepEqual(requestDecision(s, 'approve'), { state: s, send: null, why: 'in_flight' });
  });

  it('a body always carries the shown revision, whatever the fields say', () => {
    assert.deepEqual(decisionBody(rev1, 'edit', { parent_revision: 99, action: 'approve', text: 'x' } as any), { text: 'x', action: 'edit', parent_revision: 1 });
    assert.throws(() => decisionBody({ ...rev1, revision: undefined }, 'approve'));
  });

  it('describes a change by its draft fields, recipients, state and new notes', () => {
    const c = describeChange(rev1, { ...CHANGES['hand-back']!(rev1), draft: { ...rev1.draft, cc: [{ email: 'boss@acme.example' }] } });
    assert.deepEqual(c.fields, [{ field: 'cc', before: '', after: 'boss@acme.example' }]);
    assert.deepEqual(c.state, { before: 'in_review', after: 'needs_review' });
    assert.deepEqual(c.notes.map((n: any) => n.kind), ['hand_back']);
  });
});
