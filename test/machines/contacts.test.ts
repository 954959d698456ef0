import { describe, it } from '../../testkit/test.ts';
import assert from 'node:assert/strict';
import { checkRecipients, matchesPattern } from '../../machines/policy/contacts.ts';
import type { ContactEntry } from '../../machines/policy/contacts.ts';

describe('matchesPattern', () => {
  it('matches a bare email in full, ignoring case', () => {
    assert.equal(matchesPattern('Dana@Acme.example', 'dana@acme.example'), true);
    assert.equal(matchesPattern('dana@acme.example', 'DANA@ACME.EXAMPLE'), true);
    assert.equal(matchesPattern('dana2@acme.example', 'dana@acme.example'), false);
    assert.equal(matchesPattern('xdana@acme.example', 'dana@acme.example'), false);
  });

  it('matches every address of a bare domain and nothing that merely ends like it', () => {
    assert.equal(matchesPattern('a@example.com', 'example.com'), true);
    assert.equal(matchesPattern('B@EXAMPLE.COM', 'example.com'), true);
    assert.equal(matchesPattern('a@evil-example.com', 'example.com'), false);
    assert.equal(matchesPattern('a@example.com.evil.net', 'example.com'), false);
    assert.equal(matchesPattern('a@mail.example.com', 'example.com'), false);
  });

  it('never matches an empty pattern', () => {
    assert.equal(matchesPattern('a@example.com', ''), false);
  });
});

describe('checkRecipients', () => {
  const none = { contacts: [] as ContactEntry[], suppressed: [] as string[] };

  it('passes recipients when nothing applies', () => {
    assert.equal(checkRecipients({ ...none, recipients: ['a@example.com'] }), null);
  });

  it('blocks recipients matching a block entry and names them', () => {
    const contacts: ContactEntry[] = [
      { kind: 'block', pattern: 'spam.example' },
      { kind: 'block', pattern: 'eve@example.com', direction: 'send' },
    ];
    assert.deepEqual(
      checkRecipients({
        contacts,
        suppressed: [],
        recipients: ['ok@example.com', 'x@spam.example', 'Eve@example.com', 'x@SPAM.example'],
      }),
      { code: 'recipient_blocked', addresses: ['x@spam.example', 'Eve@example.com'] },
    );
  });

  it('enforces only send entries', () => {
    const contacts: ContactEntry[] = [
      { kind: 'block', pattern: 'example.com', direction: 'receive' },
      { kind: 'allow', pattern: 'friends.example', direction: 'receive' },
    ];
    assert.equal(checkRecipients({ contacts, suppressed: [], recipients: ['a@example.com'] }), null);
  });

  it('in allowlist mode rejects every recipient outside the allow entries', () => {
    const contacts: ContactEntry[] = [
      { kind: 'allow', pattern: 'acme.example' },
      { kind: 'allow', pattern: 'boss@other.example' },
    ];
    assert.equal(
      checkRecipients({ contacts, suppressed: [], recipients: ['dana@acme.example', 'Boss@other.example'] }),
      null,
    );
    assert.deepEqual(
      checkRecipients({ contacts, suppressed: [], recipients: ['dana@acme.example', 'x@other.example', 'y@evil-acme.example'] }),
      { code: 'recipient_blocked', addresses: ['x@other.example', 'y@evil-acme.example'] },
    );
  });

  it('lets a block entry win over an allow entry for the same address', () => {
    const contacts: ContactEntry[] = [
      { kind: 'allow', pattern: 'acme.example' },
      { kind: 'block', pattern: 'ex@acme.example' },
    ];
    assert.deepEqual(checkRecipients({ contacts, suppressed: [], recipients: ['ex@acme.example', 'ok@acme.example'] }), {
      code: 'recipient_blocked',
      addresses: ['ex@acme.example'],
    });
  });

  it('names only the suppressed recipients', () => {
    assert.deepEqual(
      checkRecipients({
        contacts: [],
        suppressed: new Set(['gone@example.com']),
        recipients: ['a@example.com', 'Gone@Example.com', 'b@example.com'],
      }),
      { code: 'recipient_suppressed', addresses: ['Gone@Example.com'] },
    );
  });

  it('checks block before allowlist before suppression', () => {
    const contacts: ContactEntry[] = [
      { kind: 'block', pattern: 'blocked@example.com' },
      { kind: 'allow', pattern: 'example.com' },
    ];
    const suppressed = ['gone@example.com', 'outside@else.example'];
    assert.equal(
      checkRecipients({ contacts, suppressed, recipients: ['gone@example.com', 'outside@else.example', 'blocked@example.com'] })
        ?.code,
      'recipient_blocked',
    );
    assert.deepEqual(checkRecipients({ contacts, suppressed, recipients: ['gone@example.com', 'outside@else.example'] }), {
      code: 'recipient_blocked',
      addresses: ['outside@else.example'],
    });
    assert.deepEqual(checkRecipients({ contacts, suppressed, recipients: ['gone@example.com', 'ok@example.com'] }), {
      code: 'recipient_suppressed',
      addresses: ['gone@example.com'],
    });
  });
});
