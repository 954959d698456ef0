// The node:test functions the suite uses (test, it, describe, after), able to run test files one
// after another in one process. In a process that node's runner started on one file, each is node's
// own. In a worker of the suite (testkit/worker.ts), a file's declarations are gathered while it is
// imported and then run as subtests of one test named by the file, its `after` hooks once its last
// test has run: the file keeps the order and hooks it has alone, without paying a process start and
// a module graph of its own.
import { pathToFileURL } from 'node:url';
import * as node from 'node:test';

type Body = (t: node.TestContext) => void | Promise<void>;
type Hook = () => unknown;
type Declared = { kind: 'test'; name: string; options: node.TestOptions; fn: Body } | { kind: 'suite'; scope: Scope };
type Scope = { name: string; options: node.TestOptions; declared: Declared[]; after: Hook[] };

/** The file (or describe block) whose declarations are being gathered, or whose tests run. */
let gathering: Scope | null = null;
let runningFile: Scope | null = null;
/** The `after` hooks declared by the test running now. */
let testHooks: Hook[] | null = null;

function parse(args: unknown[]): { name: string; options: node.TestOptions; fn: (...a: never[]) => unknown } {
  const name = typeof args[0] === 'string' ? (args.shift() as string) : '<anonymous>';
  const options = typeof args[0] === 'object' && args[0] !== null ? (args.shift() as node.TestOptions) : {};
  const fn = args[0] as (...a: never[]) => unknown;
  if (typeof fn !== 'function') throw new TypeError(`the test "${name}" has no function`);
  return { name, options, fn };
}

// Each test of a file gets this long unless it says otherwise; the suite's watchdog (testkit/run.ts)
// stops a whole run that hangs.
const TEST_TIMEOUT_MS = 180_000;

/** Test functions, as node's `test` is called. */
type Declare = { (name: string, fn: Body): void; (name: string, options: node.TestOptions, fn: Body): void };
type DeclareSuite = { (name: string, fn: () => void): void; (name: string, options: node.TestOptions, fn: () => void): void };

function declareTest(...args: unknown[]): void {
  if (!gathering) throw new Error('a test was declared inside another test; use t.test for a subtest');
  const { name, options, fn } = parse(args);
  gathering.declared.push({ kind: 'test', name, options: { timeout: TEST_TIMEOUT_MS, ...options }, fn: fn as Body });
}

function declareSuite(...args: unknown[]): void {
  const parent = gathering;
  if (!parent) throw new Error('a describe block was declared inside a test');
  const { name, options, fn } = parse(args);
  const scope: Scope = { name, options, declared: [], after: [] };
  parent.declared.push({ kind: 'suite', scope });
  gathering = scope;
  try {
    const result = fn();
    if (result instanceof Promise) throw new Error(`describe "${name}" has an async function: declare its tests synchronously`);
  } finally {
    gathering = parent;
  }
}

/** Runs after the last test of the block (or file) it is declared in; inside a test, when that test ends (as node's). */
function declareAfter(fn: Hook): void {
  const hooks = gathering?.after ?? testHooks ?? runningFile?.after;
  if (!hooks) throw new Error('after() was called outside a test file');
  hooks.push(fn);
}

// node's own until a worker takes over (these are live bindings: a file imported later sees the change).
export let test: Declare = node.test as Declare;
export let it: Declare = node.it as Declare;
export let describe: DeclareSuite = node.describe as DeclareSuite;
export let after: (fn: Hook) => void = node.after;

/** Called by a worker before it imports any test file: from then on files are gathered and run by runFile. */
export function gatherFiles(): void {
  test = declareTest as Declare;
  it = declareTest as Declare;
  describe = declareSuite as DeclareSuite;
  after = declareAfter;
}

/** Runs one test file inside the test `t`: imported, its declarations run in order, then its hooks. */
export async function runFile(t: node.TestContext, file: string): Promise<void> {
  const scope: Scope = { name: file, options: {}, declared: [], after: [] };
  runningFile = scope;
  gathering = scope;
  try {
    try {
      await import(pathToFileURL(file).href);
    } finally {
      gathering = null;
    }
    await runDeclared(t, scope.declared);
  } finally {
    try {
      await runHooks(scope.after);
    } finally {
      runningFile = null;
    }
  }
}

async function runDeclared(t: node.TestContext, declared: Declared[]): Promise<void> {
  for (const d of declared) {
    if (d.kind === 'test') {
      const { fn } = d;
      await t.test(d.name, d.options, async (tt) => {
        const hooks: Hook[] = [];
        testHooks = hooks;
        try {
          await fn(tt);
        } finally {
          testHooks = null;
          await runHooks(hooks);
        }
      });
    } else {
      const { scope } = d;
      await t.test(scope.name, scope.options, async (st) => {
        try {
          await runDeclared(st, scope.declared);
        } finally {
          await runHooks(scope.after);
        }
      });
    }
  }
}

// A hook that hangs (a pool waiting for a client never given back) fails its file instead of
// holding the worker, and every file after it, until the suite's watchdog ends the run.
const HOOK_TIMEOUT_MS = Number(process.env.TEST_HOOK_TIMEOUT_SECONDS ?? 60) * 1000;

/** Every hook runs, in the order declared, even after one fails or hangs; the first failure is thrown. */
async function runHooks(hooks: Hook[]): Promise<void> {
  let failure: { error: unknown } | null = null;
  for (const hook of hooks) {
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`an after hook did not finish within ${HOOK_TIMEOUT_MS / 1000} s: ${String(hook).slice(0, 200)}`)), HOOK_TIMEOUT_MS);
    });
    try {
      await Promise.race([hook(), hung]);
    } catch (error) {
      failure ??= { error };
    } finally {
      clearTimeout(timer);
    }
  }
  if (failure) throw failure.error;
}
