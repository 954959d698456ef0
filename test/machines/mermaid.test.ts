import { describe, it } from '../../testkit/test.ts';
import assert from 'node:assert/strict';
import { createMachine } from 'xstate';
import { toMermaid } from '../../machines/mermaid.ts';
import { reviewRequestMachine } from '../../machines/review-request.ts';

describe('toMermaid', () => {
  const diagram = toMermaid(reviewRequestMachine);
  const lines = diagram.trimEnd().split('\n');

  it('is a stateDiagram-v2 starting at new', () => {
    assert.equal(lines[0], 'stateDiagram-v2');
    assert.equal(lines[1], '  [*] --> new');
  });

  it('draws the table edges labelled with their events and guards', () => {
    for (const edge of [
      'new --> sending_auto : submit [releases]',
      'new --> needs_review : submit',
      'needs_review --> in_review : open [mayDecide]',
      'chatting --> needs_review : hand_back [mayHandBack]',
      'rejected --> needs_review : revise [revisionCurrent]',
      'approved --> sent : delivered',
      'sending_auto --> auto_sent : delivered',
      'edited --> failed : delivery_failed',
      'failed --> cancelled : cancel [composerCancels]',
    ]) {
      assert.ok(lines.includes(`  ${edge}`), edge);
    }
  });

  it('draws same-state transitions as self-loops', () => {
    assert.ok(lines.includes('  needs_review --> needs_review : escalate [escalationDue]'));
    assert.ok(lines.includes('  approved --> approved : delivery_unknown [outcomeNotYetParked]'));
  });

  it('marks exactly the final states', () => {
    const finals = lines.filter((l) => l.endsWith('--> [*]')).map((l) => l.trim().split(' ')[0]);
    assert.deepEqual(finals, ['sent', 'auto_sent', 'cancelled']);
  });

  it('names every state and gives nothing out of a final state', () => {
    for (const state of Object.keys(reviewRequestMachine.root.states)) {
      assert.ok(diagram.includes(` ${state} `) || diagram.includes(` ${state}\n`), state);
    }
    for (const final of ['sent', 'auto_sent', 'cancelled']) {
      assert.ok(!lines.some((l) => l.startsWith(`  ${final} --> `) && !l.endsWith('[*]')), final);
    }
  });

  it('is deterministic', () => {
    assert.equal(toMermaid(reviewRequestMachine), diagram);
  });

  it('keeps ids and labels within what the Mermaid lexer accepts', () => {
    const odd = createMachine({
      id: 'odd',
      initial: 'waiting-on-customer',
      states: { 'waiting-on-customer': { on: { 'case:resolved;now': 'done' } }, done: { type: 'final' } },
    });
    assert.equal(
      toMermaid(odd),
      [
        'stateDiagram-v2',
        '  [*] --> waiting_on_customer',
        '  waiting_on_customer --> done : case resolved now',
        '  done --> [*]',
        '',
      ].join('\n'),
    );
  });

  it('draws nested states inside a composite block', () => {
    const nested = createMachine({
      id: 'n',
      initial: 'a',
      states: {
        a: { initial: 'x', states: { x: { on: { go: 'y' } }, y: {} }, on: { done: 'b' } },
        b: { type: 'final' },
      },
    });
    assert.equal(
      toMermaid(nested),
      [
        'stateDiagram-v2',
        '  [*] --> a',
        '  state a {',
        '    [*] --> a_x',
        '    a_x --> a_y : go',
        '  }',
        '  a --> b : done',
        '  b --> [*]',
        '',
      ].join('\n'),
    );
  });
});
