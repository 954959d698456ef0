// Every import points down the table of test/layers.ts, no two files import each other round a
// circle, and docs/layout.md prints that same table.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from '../testkit/test.ts';
import {
  BESIDE,
  HOUSE,
  LAYERS,
  LAYOUT_END,
  LAYOUT_START,
  SOURCE,
  TABLE,
  forbiddenImports,
  importCircles,
  layoutTable,
  unplacedFiles,
  type SourceFile,
  type UpwardImport,
} from './layers.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * Circles being taken apart. Each entry must still exist as it is written here: once a circle is
 * broken (or changes its files) the test fails until the entry goes, so the list only shrinks.
 */
const KNOWN_CIRCLES: readonly (readonly string[])[] = [];

/** Upward imports being taken apart, held to the same rule as KNOWN_CIRCLES. */
const KNOWN_UPWARD: readonly UpwardImport[] = [];

/** Every source file of the project (paths from its root), outside dependencies, builds and local state. */
async function projectSources(): Promise<SourceFile[]> {
  const out: SourceFile[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await fs.readdir(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.name.startsWith('.') || entry.name === 'node_modules' || /^packages\/[^/]+\/dist$/.test(rel)) continue;
      if (entry.isDirectory()) await walk(rel);
      else if (SOURCE.test(entry.name)) out.push({ file: rel, text: await fs.readFile(path.join(ROOT, rel), 'utf8') });
    }
  };
  await walk('');
  return out;
}

const sources = await projectSources();
const key = (u: UpwardImport) => `${u.file} -> ${u.imports}`;

describe('the table', () => {
  test('names each folder once', () => {
    const folders = TABLE.map((r) => r.folder);
    assert.deepEqual(folders, [...new Set(folders)]);
  });

  test('lets each folder of the house import only its own layer and the layers below', () => {
    // A folder beside the house, or one with no row, ranks -1: above every layer of the house.
    const rank = (folder: string) => LAYERS.findIndex((l) => l === TABLE.find((r) => r.folder === folder)?.layer);
    for (const r of HOUSE) {
      for (const to of r.mayImport) {
        assert.ok(rank(to) >= rank(r.folder), `${r.folder} (${r.layer}) may import ${to}, a layer of the house at or below its own`);
      }
    }
  });

  test('lets nothing in the house import test/, testkit/, bench/, chaos/ or anything else beside it', () => {
    const beside = TABLE.filter((r) => r.layer === BESIDE).map((r) => r.folder);
    assert.deepEqual([...beside].sort(), ['bench', 'chaos', 'examples', 'packages/*/scripts', 'packages/*/test', 'test', 'testkit']);
    for (const r of HOUSE) for (const to of r.mayImport) assert.ok(!beside.includes(to), `${r.folder} may import ${to}`);
  });
});

describe('the code', () => {
  test('has every source file in a folder of the table', () => {
    assert.ok(sources.length > 400, `read ${sources.length} source files`);
    assert.deepEqual(unplacedFiles(sources), []);
  });

  test('imports only what its folder\'s row allows, types included, apart from the known upward imports', () => {
    const found = forbiddenImports(sources).map(key);
    const known = KNOWN_UPWARD.map(key);
    assert.deepEqual(found.filter((f) => !known.includes(f)), [], 'imports that point up or sideways');
    assert.deepEqual(known.filter((k) => !found.includes(k)), [], 'KNOWN_UPWARD names imports that are gone: take them off');
  });

  test('has no circle of imports between files, types included, apart from the known circles', () => {
    assert.deepEqual(importCircles(sources), KNOWN_CIRCLES, 'the circles found, against KNOWN_CIRCLES (a broken circle comes off the list)');
  });

  test('is drawn in docs/layout.md from the same table', async () => {
    const guide = await fs.readFile(path.join(ROOT, 'docs/layout.md'), 'utf8');
    const start = guide.indexOf(LAYOUT_START);
    const end = guide.indexOf(LAYOUT_END);
    assert.ok(start >= 0 && end > start, 'docs/layout.md has the two layers markers');
    assert.equal(guide.slice(start + LAYOUT_START.length, end).trim(), layoutTable());
  });
});

describe('the check', () => {
  test('catches an import up a layer, sideways between transports, into no folder, into test/, and from storage/ into service/', () => {
    const found = forbiddenImports([
      { file: 'machines/policy/console-roles.ts', text: "import type { Role } from '../../storage/tenancy.ts';" },
      { file: 'actors/workers/webhook-delivery.ts', text: "import { webhookBody } from '../../http/present/events.ts';" },
      { file: 'actors/send.ts', text: "import {\n  Problem,\n  badRequest,\n} from '../http/errors.ts';" },
      { file: 'machines/policy/plans.ts', text: "export type { PlanTier } from '../../service/config.ts';" },
      { file: 'storage/reviews.ts', text: "const m = await import('../actors/reviews.ts');" },
      { file: 'mail/inbound/smtp.ts', text: "import '../../http/app.ts';" },
      { file: 'service/queue.ts', text: "import { startService } from '../roles/start.ts';" },
      { file: 'console/server.ts', text: "import { problemsBase } from '../http/pipeline.ts';" },
      { file: 'packages/sdk/src/client.ts', text: "import type { Config } from '../../../service/config.ts';" },
      { file: 'http/app.ts', text: "import { startTestService } from '../test/helpers/service.ts';" },
      { file: 'actors/send.ts', text: "import { x } from '../somewhere/new.ts';" },
      { file: 'storage/db.ts', text: "import type { Logger } from '../service/logger.ts';" },
    ]);
    assert.deepEqual(found, [
      { file: 'machines/policy/console-roles.ts', imports: 'storage/tenancy.ts' },
      { file: 'actors/workers/webhook-delivery.ts', imports: 'http/present/events.ts' },
      { file: 'actors/send.ts', imports: 'http/errors.ts' },
      { file: 'machines/policy/plans.ts', imports: 'service/config.ts' },
      { file: 'storage/reviews.ts', imports: 'actors/reviews.ts' },
      { file: 'mail/inbound/smtp.ts', imports: 'http/app.ts' },
      { file: 'service/queue.ts', imports: 'roles/start.ts' },
      { file: 'console/server.ts', imports: 'http/pipeline.ts' },
      { file: 'packages/sdk/src/client.ts', imports: 'service/config.ts' },
      { file: 'http/app.ts', imports: 'test/helpers/service.ts' },
      { file: 'actors/send.ts', imports: 'somewhere/new.ts' },
      { file: 'storage/db.ts', imports: 'service/logger.ts' },
    ]);
  });

  test('passes imports that point down, stay in their folder, or join the same layer where the table allows (service/ into storage/)', () => {
    assert.deepEqual(
      forbiddenImports([
        { file: 'actors/send.ts', text: "import { Problem } from '../machines/problems.ts';\nimport pg from 'pg';" },
        { file: 'machines/review-request.ts', text: "import { setup } from 'xstate';\nimport { x } from './policy/intent-gate.ts';" },
        { file: 'http/routes/messages.ts', text: "import { send } from '../../actors/send.ts';" },
        { file: 'storage/migrate.ts', text: "import { withSessionLock } from './db.ts';" },
        { file: 'service/queue.ts', text: "import { createPool } from '../storage/db.ts';" },
        { file: 'bin/commands.ts', text: "import { startService } from '../roles/start.ts';" },
        { file: 'packages/mcp/src/server.ts', text: "import { AgentInbox } from '@agent-inbox/sdk';\nimport { TOOLS } from './tools.ts';" },
        { file: 'test/helpers/service.ts', text: "import { startService } from '../../roles/start.ts';" },
        // Not imports: a comment and a string that only look like them.
        { file: 'machines/rule.ts', text: "// import x from '../http/app.ts'\nconst s = \"import y from '../storage/db.ts'\";" },
      ]),
      [],
    );
  });

  test('finds a file in no folder of the table', () => {
    assert.deepEqual(
      unplacedFiles([
        { file: 'actors/send.ts', text: '' },
        { file: 'jobs/sweeper.ts', text: '' },
        { file: 'packages/sdk/src/client.ts', text: '' },
        { file: 'packages/sdk/tools/gen.ts', text: '' },
        { file: 'setup.ts', text: '' },
      ]),
      ['jobs/sweeper.ts', 'packages/sdk/tools/gen.ts', 'setup.ts'],
    );
  });

  test('finds a circle of two files and one of three, type imports included, and a file importing itself', () => {
    const circles = importCircles([
      { file: 'actors/a.ts', text: "import { b } from './b.ts';" },
      { file: 'actors/b.ts', text: "import type { A } from './a.ts';" },
      { file: 'mail/x.ts', text: "export { y } from './y.ts';" },
      { file: 'mail/y.ts', text: "const z = await import('../storage/z.ts');" },
      { file: 'storage/z.ts', text: "import '../mail/x.ts';" },
      { file: 'machines/self.ts', text: "import * as me from './self.ts';" },
      // A chain, and two files importing one: no circle.
      { file: 'http/p.ts', text: "import { q } from './q.ts';\nimport { r } from './r.ts';" },
      { file: 'http/q.ts', text: "import { r } from './r.ts';" },
      { file: 'http/r.ts', text: "import { Problem } from '../machines/problems.ts';" },
    ]);
    assert.deepEqual(circles, [['actors/a.ts', 'actors/b.ts'], ['machines/self.ts'], ['mail/x.ts', 'mail/y.ts', 'storage/z.ts']]);
  });
});

describe('test files', () => {
  test('declare their tests through testkit/test.ts: only the kit\'s runner parts import node:test', () => {
    // In a worker of the suite, node's own test() would run a file's tests after its services stopped.
    const direct = sources.filter((s) => /from ['"]node:test['"]/.test(s.text)).map((s) => s.file);
    assert.deepEqual(direct.sort(), ['testkit/test.ts', 'testkit/worker.ts']);
  });
});
