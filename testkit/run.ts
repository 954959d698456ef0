// Runs test files against one PostgreSQL: DATABASE_URL when set, otherwise an embedded server
// started here in a fresh folder. Each test file makes its own database on it.
//
// Files run one after another in a few long-lived workers (testkit/worker.ts), as many as run at
// once, so the suite pays a process start and the module graph's load a few times, not once per
// file. A file whose opening lines say `// own-process: <why>` runs alone in a fresh worker, as does
// every file when TEST_PROCESS_PER_FILE=1.
//
//   tsx testkit/run.ts <file or folder>...
//
// A folder stands for every *.test.ts file under it, leaving out fixtures/ and node_modules/.
// Paths are taken from where it is started (a package runs `../../testkit/run.ts test`); the tests
// run from the repository's root, whose paths they use.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { openScratchEmbedded, type ScratchDatabase } from '../storage/embedded.ts';
import { createTemplateDatabase } from './db.ts';
import { readProgress, writeQueue } from './worker.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

// Under the 15 minutes a whole run may take; a slower machine may set TEST_SUITE_LIMIT_MINUTES.
const SUITE_LIMIT_MINUTES = Number(process.env.TEST_SUITE_LIMIT_MINUTES ?? 14);

// Fixtures are what tests read or run on purpose, never tests of the suite.
const NOT_WALKED = new Set(['fixtures', 'node_modules']);

async function testFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!NOT_WALKED.has(entry.name)) out.push(...(await testFiles(full)));
    } else if (entry.name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

/** The files the arguments name, each once, relative to the root, in a stable order. */
async function filesNamed(args: string[]): Promise<string[]> {
  const files = new Set<string>();
  for (const arg of args) {
    const full = path.resolve(arg);
    const stat = await fs.stat(full).catch(() => null);
    if (!stat) throw new Error(`no test file or folder ${arg}`);
    for (const f of stat.isDirectory() ? (await testFiles(full)).sort() : [full]) files.add(path.relative(ROOT, f));
  }
  return [...files];
}

const CONCURRENCY = Number(process.env.TEST_CONCURRENCY ?? 2);

/** A file that says so in its opening comment lines runs in a process of its own. */
async function wantsOwnProcess(file: string): Promise<boolean> {
  const head = (await fs.readFile(file, 'utf8')).split('\n').slice(0, 12);
  return head.some((line) => line.startsWith('// own-process:'));
}

/**
 * Worker entries for node's runner (testkit/worker.ts), each a file that runs a queue of test files:
 * one queue shared by as many workers as run at once, and a queue of its own for each file that asks
 * for a process of its own. Every worker writes its progress to one file in `dir`.
 */
async function workerEntries(files: string[], dir: string): Promise<string[]> {
  const perFile = process.env.TEST_PROCESS_PER_FILE === '1';
  const alone: string[] = [];
  const shared: string[] = [];
  for (const file of files) (perFile || (await wantsOwnProcess(file)) ? alone : shared).push(file);
  const worker = pathToFileURL(path.join(import.meta.dirname, 'worker.ts')).href;
  const queue = async (name: string, queued: string[]) => {
    const queueDir = path.join(dir, name);
    await fs.mkdir(queueDir);
    writeQueue(queueDir, { files: queued, progress: progressFile() });
    return queueDir;
  };
  const entry = async (name: string, queueDir: string) => {
    const file = path.join(dir, `${name}.mjs`);
    await fs.writeFile(file, `import { runQueue } from ${JSON.stringify(worker)};\nawait runQueue(${JSON.stringify(queueDir)});\n`);
    return file;
  };
  const entries: string[] = [];
  for (const [n, file] of alone.entries()) entries.push(await entry(`alone-${n + 1}`, await queue(`alone-${n + 1}`, [file])));
  if (shared.length) {
    const sharedQueue = await queue('shared', shared);
    for (let n = 0; n < Math.min(CONCURRENCY, shared.length); n++) entries.push(await entry(`worker-${n + 1}`, sharedQueue));
  }
  return entries;
}

async function main(): Promise<number> {
  // The server and the tests import the SDK and MCP packages as published, from their builds:
  // bring those up to date with the sources first (incremental, so quick when nothing changed).
  const args = process.argv.slice(2);
  if (!args.length) {
    console.error('name the test files or folders to run, as in: tsx testkit/run.ts test packages/*/test');
    return 2;
  }
  const files = await filesNamed(args);
  process.chdir(ROOT);
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-b', 'packages/mcp/tsconfig.build.json'], { stdio: 'inherit' });
  let scratch: ScratchDatabase | null = null;
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    // Durability settings off: this cluster is thrown away after the run.
    scratch = await openScratchEmbedded({
      database: 'postgres',
      flags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
      onLog: keepServerLog,
    });
    adminUrl = scratch.url;
  }
  process.env.TEST_ADMIN_DATABASE_URL = adminUrl;
  const template = await createTemplateDatabase();
  // No --test-force-exit: a worker whose file left a handle open would be ended as "finished". Such a
  // worker never exits; this watchdog catches it, names the file, and fails the run. No
  // --test-timeout either: it would apply to a worker's whole run; each test gets its own
  // (testkit/test.ts).
  // Failures with their details and the totals (testkit/reporter.mjs); TEST_REPORTER=spec, tap or dot
  // for node's own.
  const reporter = process.env.TEST_REPORTER || path.join(import.meta.dirname, 'reporter.mjs');
  // The reporter also writes its closing line to this path plus its runner's pid (so a runner a
  // test starts writes elsewhere): a runner that exits without it did not finish.
  const summaryFile = path.join(os.tmpdir(), `agent-inbox-suite-${process.pid}.summary`);
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-inbox-workers-'));
  const toRun = await workerEntries(files, workDir);
  let code = await new Promise<number>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--test', `--test-reporter=${reporter}`, `--test-concurrency=${CONCURRENCY}`, ...toRun],
      { stdio: 'inherit', env: { ...process.env, TEST_TEMPLATE_DATABASE: template.name, TEST_SUMMARY_FILE: summaryFile, TEST_WORKER_DIR: workDir } },
    );
    runner = child;
    // The files running a moment ago: when the runner dies, its children may already be gone.
    const poll = setInterval(() => {
      const now = runningFiles(child.pid!);
      if (now.length) lastRunning = now.map((r) => r.file);
    }, 1000);
    const watchdog = setTimeout(() => {
      console.error(`the suite ran over ${SUITE_LIMIT_MINUTES} minutes: a test file did not finish or did not exit; stopping it`);
      const running = runningFiles(child.pid!);
      console.error(`still running:\n${running.map((r) => `  ${r.file}`).join('\n') || '  (none: the runner itself did not exit)'}`);
      for (const r of running) process.kill(r.pid, 'SIGKILL');
      child.kill('SIGKILL');
    }, SUITE_LIMIT_MINUTES * 60_000);
    child.on('exit', (c, signal) => {
      clearTimeout(watchdog);
      clearInterval(poll);
      runner = null;
      resolve(c ?? (signal ? 1 : 0));
      // Only the suite's reporter writes the summary; node's own print their totals themselves.
      if (!process.env.TEST_REPORTER && !summaryWritten(`${summaryFile}.${child.pid}`)) {
        reportUnfinished(`the test runner exited (${signal ? `signal ${signal}` : `code ${c}`}) before its summary`);
      }
    });
  });
  const unfinished = queuedButUnfinished(files);
  if (unfinished.length) {
    console.error(`\nTHE SUITE DID NOT FINISH: a worker ended before these test files had run to their end:\n${unfinished.map((f) => `  ${f}`).join('\n')}`);
    if (code === 0) code = 1;
  }
  await template.drop();
  await scratch?.close();
  printSlowest();
  await fs.rm(workDir, { recursive: true, force: true });
  return code;
}

let runner: ChildProcess | null = null;
let workDir = '';
const progressFile = () => path.join(workDir, 'progress');
let lastRunning: string[] = [];

const SLOWEST_LISTED = 8;

/**
 * The slowest test files of a run of more files than the default list holds (a run of a few prints
 * only its totals), so a file that grows slow is seen in every whole run. TEST_SLOWEST lists more
 * (or fewer), up to every file of the run.
 */
function printSlowest(count = Number(process.env.TEST_SLOWEST ?? SLOWEST_LISTED)): void {
  const started = new Map<string, number>();
  const slowest: Array<{ file: string; seconds: number }> = [];
  for (const p of readProgress(progressFile())) {
    if (p.what === 'start') started.set(p.file, p.at);
    else slowest.push({ file: p.file, seconds: (p.at - started.get(p.file)!) / 1000 });
  }
  if (slowest.length <= SLOWEST_LISTED) return;
  slowest.sort((a, b) => b.seconds - a.seconds);
  console.log(`slowest test files (wall time, with ${CONCURRENCY} running at once):`);
  for (const { file, seconds } of slowest.slice(0, count)) console.log(`  ${seconds.toFixed(1).padStart(6)} s  ${file}`);
}

/** Files of the workers' queues that no worker ran to their end. */
function queuedButUnfinished(files: string[]): string[] {
  const ended = new Set(readProgress(progressFile()).filter((p) => p.what === 'end').map((p) => p.file));
  return files.filter((f) => !ended.has(f));
}

function summaryWritten(file: string): boolean {
  try {
    return readFileSync(file, 'utf8').includes(' passed, ');
  } catch {
    return false;
  } finally {
    rmSync(file, { force: true });
  }
}

/** The embedded server's last log lines: when the suite ends early, they say what the server saw. */
const serverLog: string[] = [];
function keepServerLog(text: string): void {
  serverLog.push(...text.split('\n').filter((line) => line.trim()));
  serverLog.splice(0, Math.max(0, serverLog.length - 30));
}

/** Says plainly that the suite did not finish, which test files were running, and what PostgreSQL last logged. */
function reportUnfinished(why: string): void {
  const running = runner ? runningFiles(runner.pid!).map((r) => r.file) : [];
  const files = running.length ? running : lastRunning;
  console.error(`\nTHE SUITE DID NOT FINISH: ${why}.`);
  console.error(`test files running when it ended:\n${files.map((f) => `  ${f}`).join('\n') || '  (none had started)'}`);
  if (serverLog.length) console.error(`the embedded PostgreSQL's last log lines:\n${serverLog.map((l) => `  ${l}`).join('\n')}`);
}

/**
 * The test files running, each with the pid of the worker running it (read from the workers'
 * progress); a worker past its last file that has not exited is named by the file it ran last.
 */
function runningFiles(runnerPid: number): Array<{ pid: number; file: string }> {
  let pids: number[];
  try {
    pids = execFileSync('ps', ['-o', 'pid=', '--ppid', String(runnerPid)], { encoding: 'utf8' }).split('\n').filter((l) => l.trim()).map(Number);
  } catch {
    return []; // ps answers 1 when there is no child
  }
  const last = new Map<number, { file: string; ended: boolean }>(); // worker pid → its file now or last
  for (const p of readProgress(progressFile())) last.set(p.pid, { file: p.file, ended: p.what === 'end' });
  return pids.flatMap((pid) => {
    const seen = last.get(pid);
    if (!seen) return [];
    return [{ pid, file: seen.ended ? `${seen.file} (ran to its end, but its worker did not exit: a handle left open?)` : seen.file }];
  });
}

// Whatever ends this process early is reported as an unfinished suite, never as a bare stack.
function die(err: unknown): never {
  reportUnfinished(`the runner stopped on an error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  if (runner) {
    for (const r of runningFiles(runner.pid!)) process.kill(r.pid, 'SIGKILL');
    runner.kill('SIGKILL');
  }
  process.exit(1);
}
process.on('uncaughtException', die);
process.on('unhandledRejection', die);

main().then((code) => process.exit(code), die);
