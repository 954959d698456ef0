// The suite's reporter: one line per failure with its details, and the totals. Passing tests print
// nothing (TAP of the whole suite is thousands of lines); what a failing test file wrote to stdout
// or stderr is printed with its failures. TEST_REPORTER=spec (or tap, dot) selects node's own.
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inspect } from 'node:util';

// Every test file runs in a worker of the suite (testkit/worker.ts) as a test named by the file's
// path, at the top; its tests are that test's subtests, declared in testkit/test.ts, so node gives
// those two files as where they are. node's runner passes on each worker's events in one piece, one
// worker after another, so what comes between a file's start and its end is that file's.
const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));
const DECLARED = new Set([WORKER, fileURLToPath(new URL('./test.ts', import.meta.url))]);
// The files node's runner runs: one per worker, in the folder testkit/run.ts names.
const WORKER_DIR = process.env.TEST_WORKER_DIR;
/** @param {string | undefined} file */
const isWorkerEntry = (file) => !!file && !!WORKER_DIR && path.dirname(file) === WORKER_DIR;
let currentFile = '';

/** @param {{ file?: string }} data */
function fileOf(data) {
  return data.file && DECLARED.has(data.file) ? currentFile : data.file;
}

// The file only: node's line numbers are of the code tsx compiled, not of the source (the error's
// stack, printed below, has the source lines).
/** @param {{ file?: string }} data */
function where(data) {
  const file = fileOf(data);
  return file ? ` (${path.relative(process.cwd(), file)})` : '';
}

/** @param {string} text */
function indent(text) {
  return text.replace(/^/gm, '    ');
}

/** @param {AsyncIterable<{ type: string, data: any }>} source */
export default async function* reporter(source) {
  const counts = { passed: 0, failed: 0, cancelled: 0, skipped: 0, todo: 0 };
  const output = new Map(); // what each file wrote, printed only if it fails
  const failedFiles = new Set();
  const started = Date.now();
  // Only tests count, not what groups them: a describe block, or a test whose subtests ran (a file in
  // a worker, a block in it). A parent's result comes right after its last subtest's, one level up.
  let lastNesting = -1;
  /** @param {{ nesting: number }} data */
  const isParent = (data) => {
    const parent = lastNesting === data.nesting + 1;
    lastNesting = data.nesting;
    return parent;
  };
  // What a worker wrote comes before its file's start is announced: it is kept until the file ends.
  let written = '';
  /** @param {{ file?: string, nesting: number, name: string }} data */
  const fileEnded = (data) => {
    if (data.nesting !== 0 || data.file !== WORKER) return;
    if (written) output.set(data.name, (output.get(data.name) ?? '') + written);
    written = '';
  };
  for await (const { type, data } of source) {
    if (type === 'test:start' && data.nesting === 0 && data.file === WORKER) {
      currentFile = data.name;
    } else if (type === 'test:stdout' || type === 'test:stderr') {
      if (isWorkerEntry(data.file)) written += data.message ?? '';
      else if (data.file) output.set(data.file, (output.get(data.file) ?? '') + (data.message ?? ''));
    } else if (type === 'test:pass') {
      fileEnded(data);
      // A worker that found the queue empty passes as a test of its own.
      if (isParent(data) || data.details?.type === 'suite' || isWorkerEntry(data.file)) continue;
      if (data.skip !== undefined && data.skip !== false) counts.skipped++;
      else if (data.todo !== undefined && data.todo !== false) counts.todo++;
      else counts.passed++;
    } else if (type === 'test:fail') {
      fileEnded(data);
      const error = data.details?.error;
      // A group fails when one of its tests did, which is reported already; not when a hook of its failed.
      if ((isParent(data) || data.details?.type === 'suite') && error?.failureType === 'subtestsFailed') continue;
      // A worker whose files had a failing test exits with 1, and node's runner may then fail the
      // worker's own entry too ("test failed"), when that exit is seen before its failures are
      // counted. That echoes failures reported already; a worker that fails with none is counted.
      if (isWorkerEntry(data.file) && counts.failed > 0) continue;
      if (error?.failureType === 'cancelledByParent' || error?.failureType === 'cancelledBySignal') {
        counts.cancelled++;
        yield `CANCELLED ${data.name}${where(data)}\n`;
        continue;
      }
      counts.failed++;
      const file = fileOf(data);
      if (file) failedFiles.add(file);
      const detail = error?.cause ?? error;
      yield `FAIL ${data.name}${where(data)}\n${indent(inspect(detail, { depth: 6 }))}\n\n`;
    }
  }
  for (const file of failedFiles) {
    const text = output.get(file)?.trim();
    if (text) yield `output of ${path.relative(process.cwd(), file)}:\n${indent(text)}\n\n`;
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const extra = /** @type {const} */ (['cancelled', 'skipped', 'todo']).filter((k) => counts[k]).map((k) => `, ${counts[k]} ${k}`).join('');
  const summary = `${counts.passed} passed, ${counts.failed} failed${extra} (${seconds} s)\n`;
  // testkit/run.ts reads it to tell a finished suite from a runner that died before its summary.
  if (process.env.TEST_SUMMARY_FILE) appendFileSync(`${process.env.TEST_SUMMARY_FILE}.${process.pid}`, summary);
  yield summary;
}
