import { describe, it } from '../../testkit/test.ts';
import assert from 'node:assert/strict';
import { createMachine } from 'xstate';
import { machineGraph } from '../../machines/graph.ts';
import { toMermaid } from '../../machines/mermaid.ts';
import { categoryMachine } from '../../machines/category.ts';
import { reviewRequestMachine } from '../../machines/review-request.ts';

describe('machineGraph', () => {
  it('lists the states in document order with the final ones marked, starting at the initial state', () => {
    const g = machineGraph(categoryMachine);
    assert.equal(g.initial, 'new');
    assert.deepEqual(g.states, ['new', 'supervised', 'auto_notify', 'autonomous', 'pinned'].map((name) => ({ name, final: false })));
  });

  it('has one edge per event and guard, self-loops for targetless transitions', () => {
    const g = machineGraph(categoryMachine);
    assert.deepEqual(g.edges.filter((e) => e.from === 'supervised'), [
      { from: 'supervised', to: 'auto_notify', event: 'outcome', guard: 'earned' },
      { from: 'supervised', to: 'supervised', event: 'outcome', guard: null },
      { from: 'supervised', to: 'auto_notify', event: 'graduate', guard: 'earned' },
      { from: 'supervised', to: 'pinned', event: 'pin', guard: null },
    ]);
  });

  it('holds the same edges as the Mermaid diagram of the machine', () => {
    const g = machineGraph(reviewRequestMachine);
    const fromGraph = g.edges.map((e) => `${e.from} --> ${e.to} : ${e.guard ? `${e.event} [${e.guard}]` : e.event}`);
    const fromMermaid = toMermaid(reviewRequestMachine).split('\n').map((l) => l.trim()).filter((l) => l.includes(' --> ') && !l.includes('[*]'));
    assert.deepEqual(fromGraph, fromMermaid);
    assert.deepEqual(g.states.filter((s) => s.final).map((s) => s.name), ['sent', 'auto_sent', 'cancelled']);
    assert.deepEqual(machineGraph(reviewRequestMachine), g, 'deterministic');
  });

  it('names a transition without a target, and an eventless one, on the state it leaves', () => {
    const m = createMachine({ id: 'm', initial: 'a', states: { a: { on: { poke: {} }, always: { target: 'b', guard: 'ready' } }, b: { type: 'final' } } }, { guards: { ready: () => false } } as any);
    assert.deepEqual(machineGraph(m).edges, [
      { from: 'a', to: 'a', event: 'poke', guard: null },
      { from: 'a', to: 'b', event: 'always', guard: 'ready' },
    ]);
  });
});
