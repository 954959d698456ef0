// The table of jobs and the worker registry agree: every queue has exactly one worker, and every
// worker's queue name and options are the table's, so openJobQueue creates each queue as declared.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { JOBS } from '../../actors/jobs.ts';
import { WORKERS } from '../../actors/workers/registry.ts';

test('every queue of the table has exactly one worker, and every worker one queue of the table', () => {
  const names = Object.values(JOBS).map((j) => j.name);
  assert.equal(new Set(names).size, names.length, 'queue names are unique');
  assert.deepEqual(WORKERS.map((w) => w.name).sort(), [...names].sort());
});

test('each worker runs its queue with the options the table declares', () => {
  for (const job of Object.values(JOBS)) {
    const worker = WORKERS.find((w) => w.name === job.name)!;
    assert.deepEqual(worker.queue, job.queue, job.name);
  }
});
