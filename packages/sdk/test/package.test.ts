// The SDK's sources: its generated files match the OpenAPI document, it imports nothing from the
// server, and its manifest is valid. (packed.test.ts installs the built package and uses it.)
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { test } from '../../../testkit/test.ts';
import { Ajv } from 'ajv';
import { generate } from '../scripts/generate.ts';

const root = path.resolve('packages/sdk');

test('the generated files are what the OpenAPI document generates today', async () => {
  for (const [name, text] of Object.entries(await generate())) {
    const committed = await fs.readFile(path.join(root, 'src/generated', name), 'utf8');
    assert.ok(committed === text, `src/generated/${name} is out of date: run npm run generate -w @agent-inbox/sdk`);
  }
});

test('the source imports nothing from the server', async () => {
  const files = await fs.readdir(path.join(root, 'src'), { recursive: true });
  for (const f of files.filter((x) => String(x).endsWith('.ts'))) {
    const text = await fs.readFile(path.join(root, 'src', String(f)), 'utf8');
    for (const m of text.matchAll(/from '([^']+)'/g)) assert.ok(!m[1]!.startsWith('../../') && !m[1]!.includes('/http/'), `${f} imports ${m[1]}`);
  }
});

test('the Review Loop manifest is valid JSON Schema for each of its shapes', async () => {
  const { REVIEW_LOOP_MANIFEST } = await import('@agent-inbox/sdk');
  assert.equal(REVIEW_LOOP_MANIFEST.contract_version, '0.1.0-pre.6');
  const ajv = new Ajv({ strict: false });
  for (const [name, schema] of Object.entries(REVIEW_LOOP_MANIFEST.shapes)) assert.ok(ajv.validateSchema(schema as object), name);
  assert.ok('Review' in REVIEW_LOOP_MANIFEST.shapes && 'ReviewEventItem' in REVIEW_LOOP_MANIFEST.shapes);
});
