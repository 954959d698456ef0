// The served OpenAPI document passes Redocly's recommended rules (redocly.yaml turns off only the
// rules that contradict a deliberate contract choice). The document is merged from http/openapi/,
// so the merged form is what gets linted, exactly as clients and the reference pages read it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from '../../testkit/test.ts';
import { promisify } from 'node:util';
import { loadApiDocument, mergeDocument } from '../../http/openapi.ts';
import { requestValidators } from '../../http/validate.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const run = promisify(execFile);

type LintProblem = { ruleId: string; severity: string; message: string; location: { pointer: string }[] };

test('the merged OpenAPI document has no lint errors or warnings under the recommended rules', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'openapi-lint-'));
  try {
    const file = path.join(dir, 'openapi.json');
    await fs.writeFile(file, JSON.stringify(mergeDocument(), null, 2));
    // The linter exits 1 when it finds errors; its JSON report is on stdout either way.
    const out = await run(
      path.join(ROOT, 'node_modules', '.bin', 'redocly'),
      ['lint', file, '--config', path.join(ROOT, 'redocly.yaml'), '--format', 'json', '--max-problems', '1000'],
      { cwd: ROOT, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' }, maxBuffer: 16 * 1024 * 1024 },
    ).catch((err: { stdout?: string; stderr?: string }) => ({ stdout: err.stdout ?? '', stderr: err.stderr ?? '' }));
    const report = JSON.parse(out.stdout) as { totals: { errors: number; warnings: number }; problems: LintProblem[] };
    const listed = report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    assert.deepEqual(listed, []);
    assert.deepEqual({ errors: report.totals.errors, warnings: report.totals.warnings }, { errors: 0, warnings: 0 });
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test("every operation's path, query and body schemas compile into the validators requests are checked with", () => {
  // The service compiles each when a request first needs it; a schema that cannot compile is found here, not by a caller.
  const api = loadApiDocument();
  const validators = requestValidators(api);
  assert.equal(validators.size, api.operations.length);
  for (const op of api.operations) {
    const v = validators.get(op.operationId)!;
    assert.equal(typeof v.params, op.parameters.some((p) => p.in === 'path') ? 'function' : 'undefined', `${op.operationId} path parameters`);
    assert.equal(typeof v.query, op.parameters.some((p) => p.in === 'query') ? 'function' : 'undefined', `${op.operationId} query parameters`);
    assert.equal(typeof v.body, op.bodyPointer ? 'function' : 'undefined', `${op.operationId} body`);
    assert.ok(Array.isArray(v.bodyKeys), `${op.operationId} accepted body keys`);
  }
});
