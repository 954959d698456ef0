// Every variable the service reads (service/config.ts) is documented in .env.example, with its real
// default, and in the operating guide's configuration table (docs/operating.md); neither lists a variable the service ignores.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from '../../testkit/test.ts';
import { parseEnv } from 'node:util';
import { loadConfig } from '../../service/config.ts';
import { configVariables } from './config-variables.ts';

const envExample = fs.readFileSync('.env.example', 'utf8');

test('loadConfig reads the variables this test knows how to find', () => {
  // A guard on the recording itself: were it to see nothing, the checks below would pass vacuously.
  const names = configVariables();
  for (const known of ['HOST', 'PORT', 'DATABASE_URL', 'REVIEW_DEADLINE_SECONDS']) assert.ok(names.includes(known), known);
});

test('.env.example sets exactly the variables service/config.ts reads, each after a comment', () => {
  const lines = envExample.split('\n');
  const set = lines.map((line) => /^([A-Z][A-Z0-9_]*)=/.exec(line)?.[1]).filter((name): name is string => !!name);
  assert.deepEqual([...set].sort(), configVariables());
  for (const name of set) {
    const at = lines.findIndex((line) => line.startsWith(`${name}=`));
    assert.match(lines[at - 1]!, /^# \S/, `${name} needs a one-line comment above it`);
  }
});

test('the values in .env.example are the defaults: loading it gives the configuration of an empty environment', () => {
  assert.deepEqual(loadConfig(parseEnv(envExample)), loadConfig({}));
});

test('the operating guide\'s configuration table lists exactly the variables service/config.ts reads', () => {
  const readme = fs.readFileSync('docs/operating.md', 'utf8');
  const table = readme.slice(readme.indexOf('| variable | default | meaning |'));
  const rows = table.split('\n').slice(2);
  const documented = rows
    .slice(0, rows.findIndex((row) => !row.startsWith('|')))
    .flatMap((row) => [...row.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!));
  assert.deepEqual([...documented].sort(), configVariables());
});
