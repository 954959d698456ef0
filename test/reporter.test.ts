import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';

function runWithReporter(files: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=./test/reporter.mjs', ...files], {
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
  assert.match(stdout, /^FAIL adds up \(test\/fixtures\/reporter\/mixed\.ts:\d+\)\n {4}AssertionError \[ERR_ASSERTION\]: Expected values to be strictly equal:/m);
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
