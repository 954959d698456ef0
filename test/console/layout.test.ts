// The console's diagram layout is a pure module of the page; it runs here as it runs there.
import { describe, it } from '../../testkit/test.ts';
import assert from 'node:assert/strict';
import { BOX, arrowPath, layoutMachine, takenPairs } from '../../console/app/layout.js';
import { machineGraph } from '../../machines/graph.ts';
import { reviewRequestMachine } from '../../machines/review-request.ts';

const graph = machineGraph(reviewRequestMachine);
const { boxes, width, height, arrows } = layoutMachine(graph);
const rowOf = (name: string) => boxes.get(name)!.row;

describe('layoutMachine', () => {
  it('puts each state below every state that leads to it, but for the edges going back up a path', () => {
    assert.equal(rowOf('new'), 0);
    assert.deepEqual(['needs_review', 'sending_auto'].map(rowOf), [1, 1]);
    assert.deepEqual(['in_review', 'auto_sent'].map(rowOf), [2, 2]);
    assert.equal(rowOf('chatting'), 3);
    assert.deepEqual(['rejected', 'approved', 'edited'].map(rowOf), [4, 4, 4]);
    assert.deepEqual(['failed', 'sent'].map(rowOf), [5, 5]);
    assert.equal(rowOf('cancelled'), 6);
    // The only arrows going up are the ones back to needs_review (hand_back, revise).
    const upwards = arrows.filter((a) => rowOf(a.to) < rowOf(a.from)).map((a) => `${a.from}>${a.to}`);
    assert.deepEqual(upwards.sort(), ['chatting>needs_review', 'in_review>needs_review', 'rejected>needs_review']);
    assert.equal(arrows.filter((a) => rowOf(a.to) === rowOf(a.from) && a.from !== a.to).length, 0, 'none within a row');
  });

  it('orders a row by where the states leading to it stand', () => {
    const g = {
      initial: 'a',
      states: ['a', 'b', 'c', 'x', 'y'].map((name) => ({ name, final: false })),
      edges: [{ from: 'a', to: 'b' }, { from: 'a', to: 'c' }, { from: 'c', to: 'x' }, { from: 'b', to: 'y' }].map((e) => ({ ...e, event: 'go', guard: null })),
    };
    const l = layoutMachine(g);
    assert.ok(l.boxes.get('b')!.x < l.boxes.get('c')!.x);
    assert.ok(l.boxes.get('y')!.x < l.boxes.get('x')!.x, 'y sits under b, x under c');
  });

  it('places every state once, inside the drawing, with no two boxes overlapping', () => {
    assert.equal(boxes.size, graph.states.length);
    const all = [...boxes.values()];
    for (const b of all) assert.ok(b.x >= 0 && b.y >= 0 && b.x + BOX.w <= width && b.y + BOX.h <= height, b.name);
    for (const a of all) for (const b of all) {
      if (a !== b) assert.ok(a.x + BOX.w <= b.x || b.x + BOX.w <= a.x || a.y + BOX.h <= b.y || b.y + BOX.h <= a.y, `${a.name} and ${b.name}`);
    }
  });

  it('draws one arrow per pair of states, labelled with every event between them', () => {
    const cancel = arrows.find((a) => a.from === 'needs_review' && a.to === 'cancelled');
    assert.deepEqual(cancel?.events, ['cancel [revisionCurrent]', 'deadline']);
    assert.equal(arrows.length, new Set(graph.edges.map((e) => `${e.from}>${e.to}`)).size);
    for (const a of arrows) assert.match(arrowPath(boxes.get(a.from)!, boxes.get(a.to)!), /^M [\d.-]+ [\d.-]+ C /);
  });

  it('marks the pairs the recorded transitions joined, the first from the initial state', () => {
    const taken = takenPairs(graph, [
      { from_state: null, to_state: 'needs_review' },
      { from_state: 'needs_review', to_state: 'in_review' },
    ]);
    assert.deepEqual([...taken].map((k) => k.split('\u0000')), [['new', 'needs_review'], ['needs_review', 'in_review']]);
  });
});
