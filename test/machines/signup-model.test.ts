// Model-based test: walk the self-signup machine with @xstate/graph to every reachable
// configuration, then in each one try every event and check the contract's table: only the right
// code verifies, the fifth wrong code locks, only the current code's timer expires it, a re-signup
// replaces the code, and every way out of pending verification revokes the temporary key.
import { describe, it } from '../../testkit/test.ts';
import assert from 'node:assert/strict';
import { getShortestPaths } from '@xstate/graph';
import { initialTransition, transition } from 'xstate';
import { SIGNUP_MAX_TRIES, signupMachine } from '../../machines/self-signup.ts';
import type { SignupEvent, SignupSnapshot } from '../../machines/self-signup.ts';

const TTL = 900;

function eventsFor(snapshot: SignupSnapshot): SignupEvent[] {
  const { epoch } = snapshot.context;
  return [
    { type: 'request', ttl_s: TTL },
    { type: 'code_sent' },
    { type: 'send_failed', error: 'relay refused' },
    { type: 'wrong_code' },
    { type: 'verify' },
    { type: 'expire', epoch },
    { type: 'expire', epoch: epoch - 1 },
  ];
}

// Epoch and codes issued grow without bound; legality depends on the state, the tries and whether
// an older timer exists, so the walk is keyed on those.
const key = (s: SignupSnapshot) => JSON.stringify([s.value, s.context.tries, s.context.code_sent, Math.min(s.context.epoch, 2)]);

const paths = getShortestPaths(signupMachine, { events: eventsFor, serializeState: key, limit: 10_000 });
const snapshots = paths.map((p) => p.state as SignupSnapshot);
const step = (s: SignupSnapshot, e: SignupEvent) => transition(signupMachine, s, e) as unknown as [SignupSnapshot, Array<{ type: string; params?: any }>];

describe('self-signup machine model', () => {
  it('reaches every state of the table, and nothing else', () => {
    const states = new Set(snapshots.map((s) => s.value));
    assert.deepEqual([...states].sort(), ['expired', 'locked', 'pending_verification', 'requested', 'verified']);
  });

  it('starts at requested and only a sign-up leaves it, arming the code timer', () => {
    const [start] = initialTransition(signupMachine);
    assert.equal(start.value, 'requested');
    for (const e of eventsFor(start as SignupSnapshot).filter((e) => e.type !== 'request')) {
      assert.equal(start.can(e), false, e.type);
    }
    const [next, actions] = step(start as SignupSnapshot, { type: 'request', ttl_s: TTL });
    assert.equal(next.value, 'pending_verification');
    assert.deepEqual(actions.find((a) => a.type === 'scheduleExpiry')?.params, { after_s: TTL, epoch: 1 });
  });

  it('in every reachable configuration, each event does what the table says', () => {
    for (const s of snapshots) {
      for (const e of eventsFor(s)) {
        const allowed = s.can(e);
        if (s.value === 'verified') {
          assert.equal(allowed, false, `verified is final: ${e.type}`);
          continue;
        }
        if (s.value !== 'pending_verification') {
          // Expired, locked (and requested) accept only a new sign-up.
          assert.equal(allowed, e.type === 'request', `${String(s.value)} ${e.type}`);
          if (allowed) {
            const [next] = step(s, e);
            assert.equal(next.value, 'pending_verification');
            assert.equal(next.context.tries, 0);
          }
          continue;
        }
        if (e.type === 'expire' && e.epoch !== s.context.epoch) {
          assert.equal(allowed, false, 'a replaced code\'s timer does nothing');
          continue;
        }
        assert.equal(allowed, true, `pending accepts ${e.type}`);
        const [next, actions] = step(s, e);
        const revoked = actions.some((a) => a.type === 'revokeTemporaryKey');
        switch (e.type) {
          case 'request':
            assert.equal(next.value, 'pending_verification');
            assert.equal(next.context.epoch, s.context.epoch + 1, 'a new code');
            assert.equal(next.context.tries, 0, 'tries start over');
            assert.equal(next.context.code_sent, false);
            assert.ok(revoked, 'the old temporary key is revoked');
            assert.deepEqual(actions.find((a) => a.type === 'scheduleExpiry')?.params, { after_s: TTL, epoch: s.context.epoch + 1 });
            break;
          case 'wrong_code':
            assert.equal(next.context.tries, s.context.tries + 1);
            assert.equal(next.value, next.context.tries >= SIGNUP_MAX_TRIES ? 'locked' : 'pending_verification');
            assert.equal(revoked, next.value === 'locked');
            break;
          case 'verify':
            assert.equal(next.value, 'verified');
            assert.ok(revoked, 'verification revokes the temporary key');
            break;
          case 'expire':
            assert.equal(next.value, 'expired');
            assert.ok(revoked, 'the temporary key expires with the code');
            break;
          case 'code_sent':
          case 'send_failed':
            assert.equal(next.value, 'pending_verification', 'a failed send leaves the sign-up pending');
            assert.equal(next.context.code_sent, e.type === 'code_sent');
            assert.equal(revoked, false);
            break;
        }
      }
    }
  });

  it('locks on exactly the fifth wrong code', () => {
    let [s] = initialTransition(signupMachine) as unknown as [SignupSnapshot];
    [s] = step(s, { type: 'request', ttl_s: TTL });
    for (let i = 1; i <= SIGNUP_MAX_TRIES; i++) {
      [s] = step(s, { type: 'wrong_code' });
      assert.equal(s.value, i < SIGNUP_MAX_TRIES ? 'pending_verification' : 'locked', `try ${i}`);
    }
    assert.equal(s.can({ type: 'verify' }), false, 'a locked sign-up cannot verify, even with the right code');
  });

  it('a re-signup makes the first code\'s timer stale', () => {
    let [s] = initialTransition(signupMachine) as unknown as [SignupSnapshot];
    [s] = step(s, { type: 'request', ttl_s: TTL });
    const first = s.context.epoch;
    [s] = step(s, { type: 'request', ttl_s: TTL });
    assert.equal(s.can({ type: 'expire', epoch: first }), false);
    assert.equal(s.can({ type: 'expire', epoch: s.context.epoch }), true);
  });
});
