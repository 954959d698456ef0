// The suite's reporter: one line per failure with its details, and the totals. Passing tests print
// nothing (TAP of the whole suite is thousands of lines); what a failing test file wrote to stdout
// or stderr is printed with its failures. TEST_REPORTER=spec (or tap, dot) selects node's own.
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { inspect } from 'node:util';

// The file only: node's line numbers are of the code tsx compiled, not of the source (the error's
// stack, printed below, has the source lines).
/** @param {{ file?: string }} data */
function where(data) {
  return data.file ? ` (${path.relative(process.cwd(), data.file)})` : '';
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
  for await (const { type, data } of source) {
    if (type === 'test:stdout' || type === 'test:stderr') {
      if (data.file) output.set(data.file, (output.get(data.file) ?? '') + (data.message ?? ''));
    } else if (type === 'test:pass') {
      if (data.details?.type === 'suite') continue;
      if (data.skip !== undefined && data.skip !== false) counts.skipped++;
      else if (data.todo !== undefined && data.todo !== false) counts.todo++;
      else counts.passed++;
    } else if (type === 'test:fail') {
      if (data.details?.type === 'suite') continue;
      const error = data.details?.error;
      if (error?.failureType === 'cancelledByParent' || error?.failureType === 'cancelledBySignal') {
        counts.cancelled++;
        yield `CANCELLED ${data.name}${where(data)}\n`;
        continue;
      }
      counts.failed++;
      if (data.file) failedFiles.add(data.file);
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
