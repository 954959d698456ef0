import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from '../testkit/test.ts';

function runWithReporter(files: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=./testkit/reporter.mjs', ...files], {
      env: { ...process.env, NODE_TEST_CONTEXT: undefined },
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stdout }));
  });
}

test('the suite reporter prints each failure with its details, the output of failing files, and the totals', async () => {
  const { code, stdout } = await runWithReporter(['test/fixtures/reporter/mixed.ts', 'test/fixtures/reporter/passing.ts']);
  assert.equal(code, 1);
  assert.match(stdout, /^FAIL adds up \(test\/fixtures\/reporter\/mixed\.ts\)\n {4}AssertionError \[ERR_ASSERTION\]: Expected values to be strictly equal:/m);
  assert.match(stdout, /2 !== 3/);
  assert.match(stdout, /^output of test\/fixtures\/reporter\/mixed\.ts:\n {4}written by the failing file$/m);
  assert.doesNotMatch(stdout, /written by the passing file/);
  assert.doesNotMatch(stdout, /^(not )?ok \d/m, 'no TAP lines');
  assert.match(stdout.trimEnd().split('\n').at(-1)!, /^3 passed, 1 failed, 1 skipped \(\d+\.\d s\)$/);
});

test('a passing run prints only the totals', async () => {
  const { code, stdout } = await runWithReporter(['test/fixtures/reporter/passing.ts']);
  assert.equal(code, 0);
  assert.match(stdout, /^1 passed, 0 failed \(\d+\.\d s\)\n$/);
});

function runSuite(files: string[], env: Record<string, string | undefined>): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    // The suite's own PostgreSQL, so the runner starts none of its own.
    const child = spawn(process.execPath, ['--import', 'tsx', 'testkit/run.ts', ...files], {
      env: { ...process.env, NODE_TEST_CONTEXT: undefined, DATABASE_URL: process.env.TEST_ADMIN_DATABASE_URL, ...env },
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stdout }));
  });
}

test('testkit/run.ts reports with the suite reporter, or with node\'s own named by TEST_REPORTER', async () => {
  const ours = await runSuite(['test/fixtures/reporter/passing.ts'], { TEST_REPORTER: undefined });
  assert.equal(ours.code, 0);
  assert.match(ours.stdout, /^1 passed, 0 failed \(\d+\.\d s\)\n$/);
  const spec = await runSuite(['test/fixtures/reporter/mixed.ts'], { TEST_REPORTER: 'spec' });
  assert.equal(spec.code, 1);
  assert.match(spec.stdout, /✖ adds up/);
  assert.match(spec.stdout, /✔ passes/);
});

/** The reporter's output for a stream of node runner events, given the suite's worker folder. */
function reportEvents(events: unknown[], workerDir: string): Promise<string> {
  const script = `
    const { default: reporter } = await import(${JSON.stringify(new URL('../testkit/reporter.mjs', import.meta.url).href)});
    async function* source() { yield* ${JSON.stringify(events)}; }
    for await (const line of reporter(source())) process.stdout.write(line);`;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, TEST_WORKER_DIR: workerDir, TEST_SUMMARY_FILE: undefined } });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('exit', () => resolve(stdout));
  });
}

test("a worker's entry failing after a test of its files failed is that failure, counted once; a worker failing alone is counted", async () => {
  const workerDir = '/tmp/agent-inbox-workers-example';
  const worker = new URL('../testkit/worker.ts', import.meta.url).pathname;
  const declared = new URL('../testkit/test.ts', import.meta.url).pathname;
  const entry = `${workerDir}/worker-1.mjs`;
  const entryFailed = { type: 'test:fail', data: { nesting: 0, file: entry, name: entry, details: { error: { failureType: 'testCodeFailure', message: 'test failed' } } } };
  const echoed = await reportEvents(
    [
      { type: 'test:start', data: { nesting: 0, file: worker, name: 'test/x.test.ts' } },
      { type: 'test:start', data: { nesting: 1, file: declared, name: 'adds up' } },
      { type: 'test:fail', data: { nesting: 1, file: declared, name: 'adds up', details: { error: { failureType: 'testCodeFailure', message: '2 !== 3' } } } },
      { type: 'test:fail', data: { nesting: 0, file: worker, name: 'test/x.test.ts', details: { error: { failureType: 'subtestsFailed', message: '1 subtest failed' } } } },
      entryFailed,
    ],
    workerDir,
  );
  assert.equal(echoed.match(/^FAIL /gm)?.length, 1, echoed);
  assert.match(echoed, /^FAIL adds up \(test\/x\.test\.ts\)$/m);
  assert.match(echoed, /^0 passed, 1 failed \(/m);
  const alone = await reportEvents([entryFailed], workerDir);
  assert.match(alone, /^FAIL .*worker-1\.mjs/m);
  assert.match(alone, /^0 passed, 1 failed \(/m);
});
