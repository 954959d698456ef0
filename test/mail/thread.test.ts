import { describe, it } from '../../testkit/test.ts';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseMessage } from '../../mail/parse.ts';
import { normalizeMessageId, normalizeSubject, threadLookupKeys } from '../../mail/thread.ts';

describe('normalizeSubject', () => {
  it('strips repeated reply and forward prefixes and list tags in any order', () => {
    assert.equal(normalizeSubject('Re: Re: [ops] Deploy window for Thursday'), 'deploy window for thursday');
    assert.equal(normalizeSubject('[ops] RE: [ops] Fwd: FW: Deploy window'), 'deploy window');
    assert.equal(normalizeSubject('AW: WG: Angebot'), 'angebot');
    assert.equal(normalizeSubject('SV: Fwd: Møte'), 'møte');
    assert.equal(normalizeSubject('Re[2]: Re(3): Status'), 'status');
    assert.equal(normalizeSubject('RE : Réunion'), 'réunion');
    assert.equal(normalizeSubject('回复：会议'), '会议');
  });

  it('collapses whitespace and lower-cases', () => {
    assert.equal(normalizeSubject('  Quarterly \t numbers\r\n for  the   BOARD '), 'quarterly numbers for the board');
  });

  it('leaves words that only start like a prefix', () => {
    assert.equal(normalizeSubject('Revision: 2'), 'revision: 2');
    assert.equal(normalizeSubject('Fwd without colon'), 'fwd without colon');
    assert.equal(normalizeSubject('Report [draft]'), 'report [draft]');
  });

  it('reads thousands of prefixes once', () => {
    // Each stripped prefix used to copy the rest of the subject.
    const started = performance.now();
    assert.equal(normalizeSubject(`${'Re: '.repeat(100_000)}hello`), 'hello');
    assert.ok(performance.now() - started < 2000);
  });
});

describe('normalizeMessageId', () => {
  it('makes <A@b>, A@b and padded forms equal, keeping case', () => {
    assert.equal(normalizeMessageId('<A@b>'), '<A@b>');
    assert.equal(normalizeMessageId('A@b'), '<A@b>');
    assert.equal(normalizeMessageId('  <A@b>  '), '<A@b>');
    assert.notEqual(normalizeMessageId('<A@b>'), normalizeMessageId('<a@b>'));
  });

  it('gives an empty string when there is no id', () => {
    assert.equal(normalizeMessageId(''), '');
    assert.equal(normalizeMessageId(' <> '), '');
  });

  it('stays fast on a run of brackets', () => {
    // An anchored />+$/ rescans the run from every position: quadratic in its length.
    const started = performance.now();
    const id = `<x${'>'.repeat(1_000_000)}y`;
    assert.equal(normalizeMessageId(id).length, id.length + 1);
    assert.ok(performance.now() - started < 2000);
  });
});

describe('threadLookupKeys', () => {
  it('lists In-Reply-To first, then References newest first, without duplicates', async () => {
    const parsed = await parseMessage(readFileSync(new URL('../fixtures/mail/reply-quoted.eml', import.meta.url)));
    assert.deepEqual(threadLookupKeys(parsed), ['<CAH1x=9Q+7uKkE_8nN@mail.gmail.com>', '<rr_9f2k.1741517000@agents.example.com>']);
  });

  it('reads ids out of an In-Reply-To with a comment and leaves out the message itself', () => {
    const keys = threadLookupKeys({
      message_id: '<self@x>',
      in_reply_to: "<parent@x> (Dana's message of Mon, 9 Mar 2026)",
      references: ['<root@x>', 'self@x', '<parent@x>'],
    });
    assert.deepEqual(keys, ['<parent@x>', '<root@x>']);
  });

  it('is empty for a message that starts a thread', () => {
    assert.deepEqual(threadLookupKeys({ message_id: '<new@x>', in_reply_to: null, references: [] }), []);
  });

  it('keeps only the newest 50 references', () => {
    const references = Array.from({ length: 500 }, (_, i) => `<r${i}@x>`);
    const keys = threadLookupKeys({ message_id: null, in_reply_to: null, references });
    assert.equal(keys.length, 50);
    assert.equal(keys[0], '<r499@x>');
    assert.equal(keys[49], '<r450@x>');
  });
});
