// The suite's runner (testkit/run.ts) never ends silently: a runner that dies before its summary is
// reported as an unfinished suite, naming the test files that were running. It takes files and
// folders, from the repository's root or from a package's own folder.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from '../testkit/test.ts';
import { adminUrl } from '../testkit/db.ts';
import { scratchDir } from '../testkit/scratch.ts';

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
  // node's own totals count the file too: it runs as a test in a worker (testkit/worker.ts).
  assert.match(output, /✔ passes too/);
  assert.match(output, /ℹ fail 0/);
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

/** Runs files with a trace file the fixtures write to; gives back its lines as [pid, what]. */
async function traced(files: string[], env: NodeJS.ProcessEnv = {}) {
  const trace = path.join(scratchDir('runner-trace'), 'trace');
  await fs.writeFile(trace, '');
  const run = await runSuite(files, '.', { RUNNER_TRACE: trace, ...env });
  const lines = (await fs.readFile(trace, 'utf8')).trim().split('\n').filter(Boolean).map((l) => {
    const [pid, ...what] = l.split(' ');
    return { pid: Number(pid), what: what.join(' ') };
  });
  return { ...run, lines };
}

const SHARED = 'test/fixtures/runner/shared';

test('files run one after another in one process, each file\'s after hooks before the next file\'s tests', async () => {
  const { code, output, lines } = await traced([`${SHARED}/first.ts`, `${SHARED}/second.ts`], { TEST_CONCURRENCY: '1' });
  assert.equal(code, 0, output);
  assert.match(output, /^2 passed, 0 failed/m);
  assert.deepEqual(lines.map((l) => l.what), ['first: test', 'first: after', 'second: test']);
  assert.equal(new Set(lines.map((l) => l.pid)).size, 1, 'one process ran both files');
  assert.notEqual(lines[0]!.pid, process.pid);
});

test('a file whose opening lines say "own-process:" runs in a fresh process, as does every file with TEST_PROCESS_PER_FILE=1', async () => {
  const mixed = await traced([`${SHARED}/first.ts`, `${SHARED}/alone.ts`, `${SHARED}/second.ts`], { TEST_CONCURRENCY: '1' });
  assert.equal(mixed.code, 0, mixed.output);
  const pid = (what: string) => mixed.lines.find((l) => l.what === what)!.pid;
  assert.equal(pid('first: test'), pid('second: test'));
  assert.notEqual(pid('alone: test'), pid('first: test'));

  const each = await traced([`${SHARED}/first.ts`, `${SHARED}/second.ts`], { TEST_CONCURRENCY: '1', TEST_PROCESS_PER_FILE: '1' });
  assert.equal(each.code, 0, each.output);
  assert.notEqual(each.lines.find((l) => l.what === 'first: test')!.pid, each.lines.find((l) => l.what === 'second: test')!.pid);
});

test('a file that ends its shared process fails the run, which names it and the files left unrun', async () => {
  const { code, output, lines } = await traced([`${SHARED}/exits.ts`, `${SHARED}/second.ts`], { TEST_CONCURRENCY: '1' });
  assert.notEqual(code, 0);
  assert.match(output, /THE SUITE DID NOT FINISH: a worker ended before these test files had run to their end:\n {2}test\/fixtures\/runner\/shared\/exits\.ts\n {2}test\/fixtures\/runner\/shared\/second\.ts\n/);
  assert.deepEqual(lines, [], 'the file after it never ran');
});

test('an after hook that never finishes fails its file after TEST_HOOK_TIMEOUT_SECONDS, and the next file still runs', async () => {
  const { code, output, lines } = await traced([`${SHARED}/hangs-after.ts`, `${SHARED}/second.ts`], { TEST_CONCURRENCY: '1', TEST_HOOK_TIMEOUT_SECONDS: '1' });
  assert.equal(code, 1, output);
  assert.match(output, /^FAIL test\/fixtures\/runner\/shared\/hangs-after\.ts \(test\/fixtures\/runner\/shared\/hangs-after\.ts\)\n.*an after hook did not finish within 1 s/m);
  assert.match(output, /^2 passed, 1 failed/m);
  assert.deepEqual(lines.map((l) => l.what), ['second: test']);
});

test('a run of more than eight files lists its eight slowest after the totals, TEST_SLOWEST as many as it says up to every file, and a run of a few none', async () => {
  const dir = scratchDir('runner-slowest');
  const kit = JSON.stringify(pathToFileURL(path.resolve('testkit/test.ts')).href);
  const files: string[] = [];
  for (let n = 1; n <= 10; n++) {
    files.push(path.join(dir, `quick-${n}.test.ts`));
    await fs.writeFile(files.at(-1)!, `import { test } from ${kit};\ntest('quick ${n}', () => {});\n`);
  }
  const listed = (output: string) => output.split('slowest test files')[1]?.match(/^ +[\d.]+ s {2}\S+quick-\d+\.test\.ts$/gm)?.length ?? 0;

  const byDefault = await runSuite(files, '.', { TEST_SLOWEST: undefined });
  assert.equal(byDefault.code, 0, byDefault.output);
  assert.match(byDefault.output, /^10 passed, 0 failed .*\nslowest test files \(wall time, with \d+ running at once\):\n/m);
  assert.equal(listed(byDefault.output), 8);

  const every = await runSuite(files, '.', { TEST_SLOWEST: '40' });
  assert.equal(every.code, 0, every.output);
  assert.equal(listed(every.output), 10);

  const few = await runSuite(files.slice(0, 3), '.', { TEST_SLOWEST: '40' });
  assert.equal(few.code, 0, few.output);
  assert.match(few.output, /^3 passed, 0 failed/m);
  assert.doesNotMatch(few.output, /slowest test files/);
});
