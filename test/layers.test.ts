// Every import points down: http → actors → machines/storage, with machines pure. The folders a
// layer must never import from are written down once, here; the README's Layout section says the same.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '..');

/** For each layer, the folders above (or beside) it that none of its files may import, types included. */
const FORBIDDEN: Record<string, readonly string[]> = {
  machines: ['actors', 'http', 'storage', 'mail', 'service', 'bin'],
  storage: ['actors', 'http', 'mail', 'bin'],
  actors: ['http', 'bin'],
  mail: ['http', 'bin'],
  // The console is a transport beside http/: it mounts there, and never reaches into it.
  console: ['http', 'bin'],
};

export type SourceFile = { file: string; text: string };
export type UpwardImport = { file: string; imports: string };

// `import ... from '...'`, `export ... from '...'`, `import('...')` and bare `import '...'`.
const SPECIFIERS = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;

/** The imports of the given files (paths relative to the project root) that point up a layer. */
export function upwardImports(files: SourceFile[]): UpwardImport[] {
  const found: UpwardImport[] = [];
  for (const { file, text } of files) {
    const layer = file.split('/')[0];
    const forbidden = FORBIDDEN[layer];
    if (!forbidden) continue;
    for (const match of text.matchAll(SPECIFIERS)) {
      const specifier = match[1];
      if (!specifier.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
      if (forbidden.includes(target.split('/')[0])) found.push({ file, imports: target });
    }
  }
  return found;
}

async function sourcesOf(layer: string): Promise<SourceFile[]> {
  const out: SourceFile[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await fs.readdir(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) await walk(rel);
      else if (/\.(ts|js|mjs)$/.test(entry.name)) out.push({ file: rel, text: await fs.readFile(path.join(ROOT, rel), 'utf8') });
    }
  };
  await walk(layer);
  return out;
}

describe('layers', () => {
  test('no file imports from a layer above its own', async () => {
    const files = (await Promise.all(Object.keys(FORBIDDEN).map(sourcesOf))).flat();
    assert.ok(files.length > 50, `read ${files.length} source files`);
    assert.deepEqual(upwardImports(files), []);
  });

  test('the check catches a machine importing a storage type, an actor importing http, storage importing an actor', () => {
    const found = upwardImports([
      { file: 'machines/policy/console-roles.ts', text: "import type { Role } from '../../storage/tenancy.ts';" },
      { file: 'actors/workers/webhook-delivery.ts', text: "import { webhookBody } from '../../http/present/events.ts';" },
      { file: 'actors/send.ts', text: "import {\n  Problem,\n  badRequest,\n} from '../http/errors.ts';" },
      { file: 'machines/policy/plans.ts', text: "export type { PlanTier } from '../../service/config.ts';" },
      { file: 'storage/reviews.ts', text: "const m = await import('../actors/reviews.ts');" },
      { file: 'mail/inbound/smtp.ts', text: "import '../../http/app.ts';" },
    ]);
    assert.deepEqual(found, [
      { file: 'machines/policy/console-roles.ts', imports: 'storage/tenancy.ts' },
      { file: 'actors/workers/webhook-delivery.ts', imports: 'http/present/events.ts' },
      { file: 'actors/send.ts', imports: 'http/errors.ts' },
      { file: 'machines/policy/plans.ts', imports: 'service/config.ts' },
      { file: 'storage/reviews.ts', imports: 'actors/reviews.ts' },
      { file: 'mail/inbound/smtp.ts', imports: 'http/app.ts' },
    ]);
  });

  test('imports that point down or stay in their layer pass', () => {
    assert.deepEqual(
      upwardImports([
        { file: 'actors/send.ts', text: "import { Problem } from '../machines/problems.ts';\nimport pg from 'pg';" },
        { file: 'machines/review-request.ts', text: "import { setup } from 'xstate';\nimport { x } from './policy/intent-gate.ts';" },
        { file: 'http/routes/messages.ts', text: "import { send } from '../../actors/send.ts';" },
      ]),
      [],
    );
  });
});
