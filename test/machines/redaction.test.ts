// The secrets support evidence loses before storage, and what it keeps.
import assert from 'node:assert/strict';
import { describe, it } from '../../testkit/test.ts';
import { REDACTED, redactEvidence, redactText } from '../../machines/policy/redaction.ts';

describe('support evidence redaction', () => {
  it('removes keys of every ceiling, enrollment tokens, webhook secrets, bearer tokens, JWTs and mailed codes', () => {
    const secrets = [
      'pk_agent_abc123def_SeCrEt0123456789',
      'pk_agent_org_abc_SeCrEt',
      'pk_agent_inbox_abc_SeCrEt',
      'pk_agent_proj_abc_SeCrEt',
      'pk_enroll_abc_SeCrEt',
      'whsec_0123456789abcdefghjk',
      'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJkYW5hIn0.c2lnbmF0dXJl',
    ];
    for (const s of secrets) {
      const r = redactText(`before ${s} after`);
      assert.equal(r.text, `before ${REDACTED} after`, s);
      assert.equal(r.changed, true);
    }
    assert.equal(redactText('Authorization: Bearer abcdefgh12345678').text, `Authorization: Bearer ${REDACTED}`);
    assert.equal(redactText('Your verification code is 482913.').text, `Your verification code is ${REDACTED}.`);
    assert.equal(redactText('OTP: 1234').text, `OTP: ${REDACTED}`);
    assert.equal(redactText('t=1700000000,v1=' + 'ab'.repeat(32)).text, `t=1700000000,v1=${REDACTED}`);
  });

  it('keeps what is not a secret: statuses, ids, dates, numbers not next to a code word', () => {
    for (const text of ['POST /v1/inboxes/inb_abc/send answered 503', 'on 2026-11-23 at 09:40', 'order 123456 shipped', 'review rr_0123456789 failed']) {
      assert.deepEqual(redactText(text), { text, changed: false });
    }
  });

  it('walks nested evidence and names each redacted field by its dotted path', () => {
    const r = redactEvidence({
      observed_behavior: 'used pk_agent_x_y',
      attempts: [{ operation: 'send', summary: 'fine' }, { operation: 'wait', summary: 'code 999999' }],
      client_versions: { sdk: '0.1.0' },
      http_status: 500,
    });
    assert.deepEqual(r.redacted_fields, ['observed_behavior', 'attempts.1.summary']);
    assert.equal(r.value.attempts[1]!.summary, `code ${REDACTED}`);
    assert.equal(r.value.attempts[0]!.summary, 'fine');
    assert.equal(r.value.http_status, 500);
  });
});
