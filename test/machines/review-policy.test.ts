import { describe, it } from '../../testkit/test.ts';
import assert from 'node:assert/strict';
import { resolveReviewPolicy } from '../../machines/policy/review-policy.ts';

describe('resolveReviewPolicy', () => {
  it('takes the inbox override over the account default', () => {
    assert.deepEqual(resolveReviewPolicy({ inboxOverride: 'allow_direct', accountDefault: 'require_review' }), {
      policy: 'allow_direct',
      source: 'inbox_override',
    });
    assert.deepEqual(resolveReviewPolicy({ inboxOverride: 'require_review', accountDefault: 'allow_direct' }), {
      policy: 'require_review',
      source: 'inbox_override',
    });
  });

  it('inherits the account default when the inbox has no override', () => {
    assert.deepEqual(resolveReviewPolicy({ inboxOverride: null, accountDefault: 'allow_direct' }), {
      policy: 'allow_direct',
      source: 'account_default',
    });
  });

  it('requires review when nothing is set', () => {
    assert.deepEqual(resolveReviewPolicy({}), { policy: 'require_review', source: 'account_default' });
    assert.deepEqual(resolveReviewPolicy({ inboxOverride: null, accountDefault: null }), {
      policy: 'require_review',
      source: 'account_default',
    });
  });
});
