// Model-based test of the support case machine: walk every reachable state (with and without a
// customer reply pending) with @xstate/graph, then try every verb in each and check the machine,
// its refusals, its allowed-verb hints and its announced status changes agree with the rules.
import { describe, it } from '../../testkit/test.ts';
import assert from 'node:assert/strict';
import { getShortestPaths } from '@xstate/graph';
import { initialTransition, transition } from 'xstate';
import {
  REOPEN_WINDOW_MS,
  SUPPORT_CASE_STATUSES,
  allowedSupportCaseVerbs,
  replyRefusal,
  supportCaseMachine,
  supportCaseState,
} from '../../machines/support-case.ts';
import type { SupportCaseEvent, SupportCaseSnapshot } from '../../machines/support-case.ts';

const T0 = 1_700_000_000_000;
const events = (): SupportCaseEvent[] => [
  { type: 'open', impact: 'blocked', at_ms: T0 },
  { type: 'staff_update', at_ms: T0 },
  ...SUPPORT_CASE_STATUSES.map((status) => ({ type: 'staff_update' as const, status, at_ms: T0 })),
  { type: 'customer_reply', at_ms: T0 },
  { type: 'delete' },
];
const key = (s: SupportCaseSnapshot) => `${String(s.value)}${s.context.awaiting_staff ? '+pending' : ''}`;
const paths = getShortestPaths(supportCaseMachine, { events, serializeState: (s) => key(s as SupportCaseSnapshot) });
const reached = new Map<string, SupportCaseSnapshot>();
for (const p of paths) reached.set(key(p.state as SupportCaseSnapshot), p.state as SupportCaseSnapshot);

const step = (s: SupportCaseSnapshot, e: SupportCaseEvent) => transition(supportCaseMachine, s, e);
const announced = (s: SupportCaseSnapshot, e: SupportCaseEvent) =>
  step(s, e)[1].filter((a) => a.type === 'announceStatus').map((a) => (a as { params?: { status: string } }).params!.status);
const reply = (at_ms = T0): SupportCaseEvent => ({ type: 'customer_reply', at_ms });

describe('support case machine model', () => {
  it('reaches every status, each open status with and without a customer reply pending, and deleted', () => {
    assert.deepEqual([...reached.keys()].sort(), [
      'deleted',
      'new',
      'received',
      'received+pending',
      'resolved',
      'waiting_on_customer',
      'working',
      'working+pending',
    ]);
  });

  it('opening announces received and keeps the impact', () => {
    const start = initialTransition(supportCaseMachine)[0];
    const open: SupportCaseEvent = { type: 'open', impact: 'workaround_available', at_ms: T0 };
    const [next] = step(start, open);
    assert.equal(next.value, 'received');
    assert.equal(next.context.impact, 'workaround_available');
    assert.deepEqual(announced(start, open), ['received']);
  });

  for (const [name, s] of reached) {
    const state = supportCaseState(s);
    if (state === 'new') continue;
    it(`in ${name}: staff moves to each other status announce it; a note announces nothing and answers a pending reply`, () => {
      for (const to of SUPPORT_CASE_STATUSES) {
        const e: SupportCaseEvent = { type: 'staff_update', status: to, at_ms: T0 + 5 };
        if (state === 'deleted') {
          assert.equal(s.can(e), false);
          continue;
        }
        const [next] = step(s, e);
        assert.equal(next.value, to);
        assert.equal(next.context.awaiting_staff, false);
        assert.deepEqual(announced(s, e), to === state ? [] : [to]);
        if (to === 'resolved' && state !== 'resolved') assert.equal(next.context.resolved_at_ms, T0 + 5);
      }
    });

    it(`in ${name}: a customer reply is taken or refused with the right reason, and the hints agree`, () => {
      const refusal = replyRefusal(s, T0 + 10);
      const expected =
        state === 'deleted' ? 'support_record_deleted' : s.context.awaiting_staff ? 'reply_already_pending' : null;
      assert.equal(refusal, expected);
      assert.equal(s.can(reply(T0 + 10)), refusal === null);
      assert.equal(allowedSupportCaseVerbs(s, T0 + 10).includes('customer_reply'), refusal === null);
      if (refusal === null) {
        const [next] = step(s, reply(T0 + 10));
        assert.equal(next.context.awaiting_staff, true);
        const to = state === 'waiting_on_customer' || state === 'resolved' ? 'working' : state;
        assert.equal(next.value, to);
        assert.deepEqual(announced(s, reply(T0 + 10)), to === state ? [] : [to]);
      }
    });

    it(`in ${name}: delete is legal only when resolved`, () => {
      assert.equal(s.can({ type: 'delete' }), state === 'resolved');
      assert.equal(allowedSupportCaseVerbs(s, T0).includes('delete'), state === 'resolved');
    });
  }

  it('a resolved case reopens on a customer reply inside the window, and refuses one after it', () => {
    const resolved = reached.get('resolved')!;
    const at = resolved.context.resolved_at_ms!;
    assert.equal(replyRefusal(resolved, at + REOPEN_WINDOW_MS), null);
    const [reopened] = step(resolved, reply(at + REOPEN_WINDOW_MS));
    assert.equal(reopened.value, 'working');
    assert.equal(reopened.context.resolved_at_ms, null);
    assert.equal(replyRefusal(resolved, at + REOPEN_WINDOW_MS + 1), 'reply_workflow_required');
    assert.equal(resolved.can(reply(at + REOPEN_WINDOW_MS + 1)), false);
    assert.deepEqual(allowedSupportCaseVerbs(resolved, at + REOPEN_WINDOW_MS + 1), ['staff_update', 'delete']);
  });

  it('deleted is final: nothing moves it', () => {
    const deleted = reached.get('deleted')!;
    assert.equal(deleted.status, 'done');
    assert.deepEqual(allowedSupportCaseVerbs(deleted, T0), []);
  });
});
