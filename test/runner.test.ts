// The suite's runner (testkit/run.ts) never ends silently: a runner that dies before its summary is
// reported as an unfinished suite, naming the test files that were running. It takes files and
// folders, from the repository's root or from a package's own folder.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { adminUrl } from '../testkit/db.ts';

function runSuite(files: string[], cwd = '.', extraEnv: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: adminUrl(), TEST_REPORTER: undefined, ...extraEnv };
    delete env.NODE_TEST_CONTEXT; // else node's runner refuses to run files from inside a test
    const child = spawn(process.execPath, ['--import', 'tsx', path.relative(cwd, 'testkit/run.ts'), ...files], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
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

test('a runner on its own embedded PostgreSQL that dies prints the server\'s last log lines with the unfinished notice', async () => {
  const { code, output } = await runSuite(['test/fixtures/runner/ends-runner.ts'], '.', { DATABASE_URL: undefined });
  assert.notEqual(code, 0);
  assert.match(output, /THE SUITE DID NOT FINISH/);
  assert.match(output, /the embedded PostgreSQL's last log lines:\n(?: {2}.*\n)*? {2}.*database system is ready to accept connections/);
});

test('a suite that finishes prints its summary and no unfinished notice', async () => {
  const { code, output } = await runSuite(['test/fixtures/reporter/passing.ts']);
  assert.equal(code, 0, output);
  assert.match(output, /^1 passed, 0 failed/m);
  assert.doesNotMatch(output, /DID NOT FINISH/);
});

test('with one of node\'s own reporters, a suite that finishes gets no unfinished notice', async () => {
  const { code, output } = await runSuite(['test/fixtures/reporter/passing.ts'], '.', { TEST_REPORTER: 'spec' });
  assert.equal(code, 0, output);
  assert.match(output, /ℹ pass 1/);
  assert.doesNotMatch(output, /DID NOT FINISH/);
});

test('a folder stands for the .test.ts files under it, leaving its fixtures/ folders out', async () => {
  const { code, output } = await runSuite(['test/fixtures/runner/folder']);
  assert.equal(code, 0, output);
  assert.match(output, /^1 passed, 0 failed/m);
});

test('a file and the folder holding it run it once', async () => {
  const { code, output } = await runSuite(['test/fixtures/runner/folder/passes.test.ts', 'test/fixtures/runner/folder']);
  assert.equal(code, 0, output);
  assert.match(output, /^1 passed, 0 failed/m);
});

test('started from a package\'s folder, the runner takes paths from there and runs the tests from the root', async () => {
  const { code, output } = await runSuite(['../../test/fixtures/runner/folder', '../../test/fixtures/reporter/mixed.ts'], 'packages/sdk');
  assert.equal(code, 1, output);
  assert.match(output, /^3 passed, 1 failed, 1 skipped/m);
  // Failures name their files from the root, as the tests see them.
  assert.match(output, /^FAIL .+ \(test\/fixtures\/reporter\/mixed\.ts\)$/m);
});

test('without a file or folder to run, the runner says how to name them and fails', async () => {
  const { code, output } = await runSuite([]);
  assert.equal(code, 2);
  assert.match(output, /name the test files or folders to run/);
});
