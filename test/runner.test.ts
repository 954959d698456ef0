// The suite's runner (testkit/run.ts) never ends silently: a runner that dies before its summary is
// reported as an unfinished suite, naming the test files that were running.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { adminUrl } from '../testkit/db.ts';

function runSuite(files: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: adminUrl() };
    delete env.NODE_TEST_CONTEXT; // else node's runner refuses to run files from inside a test
    const child = spawn(process.execPath, ['--import', 'tsx', 'testkit/run.ts', ...files], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

test('a runner that dies mid-suite fails the run, says the suite did not finish and names the files running', async () => {
  const { code, output } = await runSuite(['test/fixtures/runner/slow.ts', 'test/fixtures/runner/ends-runner.ts']);
  assert.notEqual(code, 0);
  assert.match(output, /THE SUITE DID NOT FINISH: the test runner exited \(signal SIGKILL\) before its summary/);
  assert.match(output, /^ {2}test\/fixtures\/runner\/slow\.ts$/m);
  assert.doesNotMatch(output, /\d+ passed, \d+ failed/);
});

test('a suite that finishes prints its summary and no unfinished notice', async () => {
  const { code, output } = await runSuite(['test/fixtures/reporter/passing.ts']);
  assert.equal(code, 0, output);
  assert.match(output, /^1 passed, 0 failed/m);
  assert.doesNotMatch(output, /DID NOT FINISH/);
});
