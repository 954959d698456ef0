// The report parser on the DSN and ARF corpus: each report gives its recipient, whether it
// bounced (hard or soft), was delayed or complained about, its status code, and the headers of
// the mail it reports, which is how it is tied to its send.
import assert from 'node:assert/strict';
import { describe, test } from '../../testkit/test.ts';
import { classify, parseReport } from '../../mail/reports.ts';
import { autoSubmitted } from '../../machines/policy/auto-submitted.ts';
import { returnPathKey, returnPathOf, verifyReturnPath } from '../../mail/outbound/return-path.ts';
import { EXPECTED, corpusMail, type Fill } from './dsn-corpus.ts';

const FILL: Fill = {
  RETURN_PATH: 'bounce+rr_0123456789abcdefghjk.0011223344556677@agents.test',
  TO: 'Dana.Smith@Acme.example',
  SENDER: 'sales@agents.test',
  MESSAGE_ID: '<rr_0123456789abcdefghjk.1@agents.test>',
  REVIEW_ID: 'rr_0123456789abcdefghjk',
};

describe('delivery and feedback reports', () => {
  for (const [name, want] of Object.entries(EXPECTED)) {
    test(`${name}: one ${want.kind} recipient (${want.type ?? 'no type'}, ${want.status ?? 'no status'}) and the reported message's headers`, () => {
      const report = parseReport(corpusMail(name, FILL), '');
      assert.ok(report, 'read as a report');
      assert.equal(report.format, want.format);
      assert.deepEqual(report.recipients.map((r) => [r.email, r.kind, r.type, r.status]), [['dana.smith@acme.example', want.kind, want.type, want.status]]);
      assert.equal(report.original.message_id, FILL.MESSAGE_ID);
      assert.equal(report.original.return_path, FILL.RETURN_PATH);
      if (want.kind === 'bounced') assert.ok(report.recipients[0]!.diagnostic, 'the diagnostic is kept');
    });
  }

  test('an ordinary mail that talks about a failed delivery is not a report', () => {
    assert.equal(parseReport(corpusMail('not-a-report.eml', FILL), 'dana@acme.example'), null);
  });

  test('enhanced status codes: 5.x.x is hard except a full mailbox and a queue timeout; 4.x.x is soft; none is hard', () => {
    assert.deepEqual(['5.1.1', '5.7.1', '5.2.2', '5.4.7', '4.2.2', '4.4.1', null].map(classify), ['hard', 'hard', 'soft', 'soft', 'soft', 'soft', 'hard']);
  });
});

describe('return path', () => {
  const key = returnPathKey(Buffer.alloc(32, 7));
  test('names its review, fits a local part, and is refused when altered or signed by another key', () => {
    const address = returnPathOf(key, 'rr_0123456789abcdefghjk', 'Agents.Test');
    assert.match(address, /^bounce\+rr_0123456789abcdefghjk\.[0-9a-f]{16}@agents\.test$/);
    assert.ok(address.split('@')[0]!.length <= 64);
    assert.deepEqual(verifyReturnPath(key, address), { review_id: 'rr_0123456789abcdefghjk', domain: 'agents.test' });
    assert.deepEqual(verifyReturnPath(key, address.toUpperCase()), { review_id: 'rr_0123456789abcdefghjk', domain: 'agents.test' });
    assert.equal(verifyReturnPath(key, address.replace('rr_0', 'rr_1')), null);
    assert.equal(verifyReturnPath(key, address.replace('@agents.test', '@other.test')), null);
    assert.equal(verifyReturnPath(returnPathKey(Buffer.alloc(32, 8)), address), null);
    assert.equal(verifyReturnPath(key, 'bounce+nothing@agents.test'), null);
  });
});

describe('auto-submitted mail', () => {
  test('RFC 3834, X-Autoreply, X-Auto-Response-Suppress, Precedence and out-of-office subjects mark it; Auto-Submitted: no does not', () => {
    assert.equal(autoSubmitted({ 'auto-submitted': 'auto-replied' }, 'Re: hi'), 'auto-submitted: auto-replied');
    assert.equal(autoSubmitted({ 'auto-submitted': 'no' }, 'Re: hi'), null);
    assert.equal(autoSubmitted({ 'x-autoreply': 'yes' }, 'Re: hi'), 'x-autoreply');
    assert.equal(autoSubmitted({ 'x-auto-response-suppress': 'All' }, 'Re: hi'), 'x-auto-response-suppress');
    assert.equal(autoSubmitted({ precedence: 'bulk' }, 'News'), 'precedence: bulk');
    assert.equal(autoSubmitted({ precedence: 'first-class' }, 'News'), null);
    assert.equal(autoSubmitted({}, 'Out of Office: back Monday'), 'out-of-office');
    assert.equal(autoSubmitted({}, 'Automatic reply: Tuesday demo'), 'out-of-office');
    assert.equal(autoSubmitted({}, 'Tuesday demo'), null);
  });
});
