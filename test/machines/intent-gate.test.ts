import { describe, it } from '../../testkit/test.ts';
import assert from 'node:assert/strict';
import { INTENT_SUMMARY_MAX, INTENT_SUMMARY_MIN, checkIntent } from '../../machines/policy/intent-gate.ts';

const valid = { summary: 'Confirm the Tuesday demo with Dana', meta: { goal: 'book the demo' } };
const fieldsOf = (errors: Array<{ field: string }>) => errors.map((e) => e.field);

describe('checkIntent under require_review', () => {
  it('accepts a valid intent', () => {
    assert.equal(checkIntent({ policy: 'require_review', source: 'account_default', intent: valid }), null);
  });

  it('refuses a missing intent with 422 intent_required and the full remediation', () => {
    const problem = checkIntent({ policy: 'require_review', source: 'inbox_override', intent: undefined });
    assert.ok(problem);
    assert.equal(problem.code, 'intent_required');
    assert.equal(problem.status, 422);
    assert.match(problem.detail, /require_review/);
    assert.match(problem.detail, /inbox_override/);
    assert.match(problem.detail, /Nothing was sent or queued/);
    assert.match(problem.detail, /intent\.summary/);
    assert.match(problem.detail, /8-200 characters/);
    assert.deepEqual(fieldsOf(problem.errors), ['intent.summary', 'intent.meta', 'category_id', 'policy', 'retry_with']);
    assert.equal(problem.errors[0]?.code, 'required');
    const policy = problem.errors.find((e) => e.field === 'policy');
    assert.deepEqual([policy?.code, policy?.policy, policy?.source], ['require_review', 'require_review', 'inbox_override']);
  });

  it('offers a retry_with example that passes the gate itself', () => {
    const problem = checkIntent({ policy: 'require_review', source: 'account_default', intent: null });
    const retry = problem?.errors.find((e) => e.field === 'retry_with');
    assert.ok(retry?.example);
    assert.deepEqual(JSON.parse(retry.detail), { intent: retry.example });
    assert.equal(checkIntent({ policy: 'require_review', source: 'account_default', intent: retry.example }), null);
    assert.ok(problem?.detail.includes(JSON.stringify({ intent: retry.example })));
  });

  it('mentions a given category_id', () => {
    const problem = checkIntent({ policy: 'require_review', source: 'account_default', intent: null, category_id: 'cat_1' });
    assert.match(problem?.errors.find((e) => e.field === 'category_id')?.detail ?? '', /cat_1/);
  });

  it('answers a given but invalid intent with 400 bad_request naming the field, not intent_required', () => {
    const short = checkIntent({ policy: 'require_review', source: 'account_default', intent: { summary: 'hello' } });
    assert.equal(short?.code, 'bad_request');
    assert.equal(short?.status, 400);
    assert.deepEqual(short?.errors.map((e) => [e.field, e.code]), [['intent.summary', 'too_short']]);
    assert.match(short?.detail ?? '', /Nothing was sent or queued/);
  });

  it('says too_short and too_long for summaries outside 8-200 characters', () => {
    const short = checkIntent({ policy: 'require_review', source: 'account_default', intent: { summary: 'x'.repeat(INTENT_SUMMARY_MIN - 1) } });
    assert.equal(short?.code, 'bad_request');
    assert.deepEqual([short?.errors[0]?.field, short?.errors[0]?.code], ['intent.summary', 'too_short']);
    const long = checkIntent({ policy: 'require_review', source: 'account_default', intent: { summary: 'x'.repeat(INTENT_SUMMARY_MAX + 1) } });
    assert.deepEqual([long?.errors[0]?.field, long?.errors[0]?.code], ['intent.summary', 'too_long']);
    for (const length of [INTENT_SUMMARY_MIN, INTENT_SUMMARY_MAX]) {
      assert.equal(checkIntent({ policy: 'require_review', source: 'account_default', intent: { summary: 'x'.repeat(length) } }), null);
    }
  });

  it('does not count padding, and counts an emoji as one character', () => {
    const padded = checkIntent({ policy: 'require_review', source: 'account_default', intent: { summary: '   short    ' } });
    assert.equal(padded?.errors[0]?.code, 'too_short');
    assert.equal(checkIntent({ policy: 'require_review', source: 'account_default', intent: { summary: 'ok 🙂🙂🙂🙂🙂' } }), null);
    const emoji = checkIntent({ policy: 'require_review', source: 'account_default', intent: { summary: '🙂'.repeat(7) } });
    assert.equal(emoji?.errors[0]?.code, 'too_short');
  });

  it('says required when the intent has no summary, and invalid_type for a wrong shape', () => {
    const noSummary = checkIntent({ policy: 'require_review', source: 'account_default', intent: { meta: {} } });
    assert.deepEqual([noSummary?.errors[0]?.field, noSummary?.errors[0]?.code], ['intent.summary', 'required']);
    const notObject = checkIntent({ policy: 'require_review', source: 'account_default', intent: 'please' });
    assert.deepEqual([notObject?.errors[0]?.field, notObject?.errors[0]?.code], ['intent', 'invalid_type']);
    const badMeta = checkIntent({ policy: 'require_review', source: 'account_default', intent: { summary: valid.summary, meta: 3 } });
    assert.equal(badMeta?.code, 'bad_request');
    assert.deepEqual(badMeta?.errors.find((e) => e.field === 'intent.meta')?.code, 'invalid_type');
  });
});

describe('checkIntent under allow_direct', () => {
  it('lets a send without intent through', () => {
    assert.equal(checkIntent({ policy: 'allow_direct', source: 'inbox_override', intent: undefined }), null);
    assert.equal(checkIntent({ policy: 'allow_direct', source: 'inbox_override', intent: null }), null);
    assert.equal(checkIntent({ policy: 'allow_direct', source: 'inbox_override', intent: valid }), null);
  });

  it('still validates an intent that is given, as a 400 bad_request naming the field', () => {
    const problem = checkIntent({ policy: 'allow_direct', source: 'account_default', intent: { summary: 'hi' } });
    assert.equal(problem?.code, 'bad_request');
    assert.equal(problem?.status, 400);
    assert.deepEqual(problem?.errors.map((e) => [e.field, e.code]), [['intent.summary', 'too_short']]);
    assert.match(problem?.detail ?? '', /Nothing was sent or queued/);
  });
});
