// The order of the house, as one table: every folder of the code, its layer, and the folders its
// files may import. test/layers.test.ts holds the code to it, and docs/layout.md prints it, so the
// rule, the check and the guide cannot say different things.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export type Row = {
  /** A folder from the project root; `*` stands for one folder name (`packages/*\/src`). */
  folder: string;
  layer: Layer;
  /** The other rows' folders its files may import (a file may always import its own row's). */
  mayImport: readonly string[] | 'anything';
  what: string;
};

/** The layers of the house, top to bottom: a row imports rows below its own, and of its own layer only those it names. */
export const LAYERS = ['roles', 'transports', 'actors', 'mail', 'infrastructure', 'machines'] as const;

/** Beside the house: tests, benchmarks, drills and examples, which the house never imports. */
export const BESIDE = 'beside';

export type Layer = (typeof LAYERS)[number] | typeof BESIDE;

/** A row of the house names what it may import; only a row beside it may import anything. */
export type HouseRow = Row & { layer: (typeof LAYERS)[number]; mayImport: readonly string[] };

export const HOUSE: readonly HouseRow[] = [
  { folder: 'bin', layer: 'roles', mayImport: ['roles', 'http', 'console', 'packages/*/src', 'actors', 'mail', 'storage', 'service', 'machines'], what: 'the `agent-inbox` command: start, bootstrap, console-token, snapshot, ...' },
  { folder: 'roles', layer: 'roles', mayImport: ['http', 'console', 'packages/*/src', 'actors', 'mail', 'storage', 'service', 'machines'], what: 'start-up wiring of the API, SMTP, worker and metrics roles: the one place that sees every layer' },
  { folder: 'http', layer: 'transports', mayImport: ['actors', 'mail', 'storage', 'service', 'machines'], what: 'Koa app, the OpenAPI document, auth, validation, routes that render the shapes of actors/present/' },
  { folder: 'console', layer: 'transports', mayImport: ['actors', 'mail', 'storage', 'service', 'machines'], what: 'the web console: its page, ES modules and session endpoints, served by http/ under `/console`' },
  { folder: 'packages/*/src', layer: 'transports', mayImport: [], what: 'sdk (the TypeScript client) and mcp (the MCP server, built on the SDK): the server only over HTTP' },
  { folder: 'actors', layer: 'actors', mayImport: ['mail', 'storage', 'service', 'machines'], what: 'commands and queries, machine kinds and their effects, the shapes of responses and bodies (present/), the table of jobs and its workers (pg-boss)' },
  { folder: 'mail', layer: 'mail', mayImport: ['storage', 'service', 'machines'], what: 'SMTP protocol and policies, MIME parsing and derived views, outbound transports' },
  { folder: 'storage', layer: 'infrastructure', mayImport: ['machines'], what: 'the pg pool, SQL migrations, one module of SQL per aggregate' },
  { folder: 'service', layer: 'infrastructure', mayImport: ['storage', 'machines'], what: 'configuration, logging, identity provider, job queue, LISTEN fan-out, encryption, DNS, metrics' },
  { folder: 'machines', layer: 'machines', mayImport: [], what: 'pure XState machines, policy functions and the problem registry' },
];

const THE_HOUSE = HOUSE.map((r) => r.folder);

/** A beside row's list is long: the whole house is printed as "the house". */
function mayImportText(folders: readonly string[], dir: (f: string) => string): string {
  const house = THE_HOUSE.every((f) => folders.includes(f));
  const rest = folders.filter((f) => !house || !THE_HOUSE.includes(f)).map(dir);
  return [...(house ? ['the house'] : []), ...rest].join(', ');
}
const HOUSE_AND_KIT = [...THE_HOUSE, 'testkit'];

export const BESIDE_THE_HOUSE: readonly Row[] = [
  { folder: 'test', layer: BESIDE, mayImport: HOUSE_AND_KIT, what: 'node:test suites against real PostgreSQL, SMTP and HTTP' },
  { folder: 'testkit', layer: BESIDE, mayImport: THE_HOUSE, what: 'what the tests, benchmarks, drills and packages\' tests share: the runner, the service and its peers' },
  { folder: 'bench', layer: BESIDE, mayImport: HOUSE_AND_KIT, what: '`npm run bench -- <scenario>`' },
  { folder: 'chaos', layer: BESIDE, mayImport: HOUSE_AND_KIT, what: '`npm run chaos`: crash and outage drills with a ledger' },
  { folder: 'packages/*/test', layer: BESIDE, mayImport: [...HOUSE_AND_KIT, 'packages/*/scripts'], what: 'the packages\' tests, against a running service' },
  { folder: 'packages/*/scripts', layer: BESIDE, mayImport: THE_HOUSE, what: 'the SDK\'s generator, reading the OpenAPI document' },
  { folder: 'examples', layer: BESIDE, mayImport: [], what: 'an agent and a webhook receiver, on the published SDK only' },
];

export const TABLE: readonly Row[] = [...HOUSE, ...BESIDE_THE_HOUSE];

export type SourceFile = { file: string; text: string };
export type UpwardImport = { file: string; imports: string };

/** The folders of the code; the check reads every file with one of these endings. */
export const SOURCE = /\.(ts|mts|cts|tsx|js|mjs|cjs)$/;

const matches = (pattern: string, file: string): boolean => {
  const want = pattern.split('/');
  const have = file.split('/');
  return have.length > want.length && want.every((part, i) => part === '*' || part === have[i]);
};

/** The row a file belongs to: the one whose folder holds it (the deepest, should two). */
export function rowOf(file: string, table: readonly Row[] = TABLE): Row | undefined {
  return table.filter((r) => matches(r.folder, file)).sort((a, b) => b.folder.split('/').length - a.folder.split('/').length)[0];
}

/** The relative imports of a file, types and `import()` included, as paths from the project root. */
export function importsOf({ file, text }: SourceFile): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((s) => s.startsWith('./') || s.startsWith('../'))
    .map((s) => path.posix.normalize(path.posix.join(path.posix.dirname(file), s)));
}

/** Files that belong to no row: a new folder must take its place in the table first. */
export function unplacedFiles(files: SourceFile[], table: readonly Row[] = TABLE): string[] {
  return files.filter(({ file }) => !rowOf(file, table)).map(({ file }) => file);
}

/** The imports that leave a file's row for a row its own may not import (or for no row at all). */
export function forbiddenImports(files: SourceFile[], table: readonly Row[] = TABLE): UpwardImport[] {
  const found: UpwardImport[] = [];
  for (const source of files) {
    const row = rowOf(source.file, table);
    if (!row || row.mayImport === 'anything') continue;
    for (const target of importsOf(source)) {
      const to = rowOf(target, table);
      if (to === row) continue;
      if (!to || !row.mayImport.includes(to.folder)) found.push({ file: source.file, imports: target });
    }
  }
  return found;
}

/**
 * The circles between files: each strongly connected part of the import graph with more than one
 * file (or a file that imports itself), its files sorted, the circles sorted by their first file.
 */
export function importCircles(files: SourceFile[]): string[][] {
  const known = new Set(files.map((f) => f.file));
  const edges = new Map(files.map((f) => [f.file, importsOf(f).filter((t) => known.has(t))]));
  // Tarjan's algorithm, with an explicit stack so a deep chain of imports cannot overflow.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let next = 0;
  for (const root of edges.keys()) {
    if (index.has(root)) continue;
    const work: Array<{ file: string; i: number }> = [{ file: root, i: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length) {
      const frame = work[work.length - 1]!;
      const out = edges.get(frame.file)!;
      if (frame.i < out.length) {
        const to = out[frame.i++]!;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ file: to, i: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.file, Math.min(low.get(frame.file)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.file, Math.min(low.get(parent.file)!, low.get(frame.file)!));
      if (low.get(frame.file) === index.get(frame.file)) {
        const part: string[] = [];
        let f: string;
        do {
          f = stack.pop()!;
          onStack.delete(f);
          part.push(f);
        } while (f !== frame.file);
        if (part.length > 1 || out.includes(frame.file)) circles.push(part.sort());
      }
    }
  }
  return circles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** The table as the Markdown that docs/layout.md carries between its two `layers` markers. */
export function layoutTable(table: readonly Row[] = TABLE): string {
  const dir = (folder: string) => `\`${folder}/\``;
  const lines = ['| layer | folder | may import | what lives there |', '|---|---|---|---|'];
  for (const r of table) {
    const may = r.mayImport === 'anything' ? 'anything' : r.mayImport.length ? mayImportText(r.mayImport, dir) : 'no other folder';
    lines.push(`| ${r.layer} | ${dir(r.folder)} | ${may} | ${r.what} |`);
  }
  return lines.join('\n');
}

export const LAYOUT_START = '<!-- layers: printed from test/layers.ts -->';
export const LAYOUT_END = '<!-- end of layers -->';

// `npx tsx test/layers.ts` prints the table for the guide.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) console.log(layoutTable());
