// The SDK and MCP packages as a user gets them: packed by `npm run pack` (into the ignored
// .local/pack), installed into a project outside this repository, compiled by a strict TypeScript
// consumer and used with plain `node` (no tsx) against a running service.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, test } from '../../../testkit/test.ts';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createTenant, startTestService } from '../../../testkit/service.ts';
import { scratchDir } from '../../../testkit/scratch.ts';

const run = promisify(execFile);
const svc = await startTestService({ roles: ['api'] });
const tenant = await createTenant(svc);

// A child with no loader of ours: what runs there runs on Node alone.
const { NODE_OPTIONS: _, ...plainEnv } = process.env;

const dir = scratchDir('packed');
const app = path.join(dir, 'app');

const PACK_DIR = path.resolve('.local/pack');

test('npm run pack writes both packages into the ignored .local/pack: build, declarations, README and LICENSE, no TypeScript sources', async () => {
  const { stdout } = await run('npm', ['run', 'pack', '--silent', '--', '--json'], { env: plainEnv });
  const packs: { name: string; filename: string; files: { path: string }[] }[] = JSON.parse(stdout.slice(stdout.indexOf('[')));
  assert.deepEqual(packs.map((p) => p.name), ['@agent-inbox/sdk', '@agent-inbox/mcp']);
  // The names the README tells users to install.
  assert.deepEqual(packs.map((p) => p.filename), ['agent-inbox-sdk-0.1.0-pre.6.tgz', 'agent-inbox-mcp-0.1.0-pre.6.tgz']);
  const license = await fs.readFile('LICENSE', 'utf8');
  for (const p of packs) {
    const files = p.files.map((f) => f.path);
    assert.ok(files.includes('dist/index.js') && files.includes('dist/index.d.ts'), `${p.name}: ${files.join(', ')}`);
    assert.ok(files.includes('README.md') && files.includes('LICENSE'), `${p.name} carries its README and LICENSE: ${files.join(', ')}`);
    assert.deepEqual(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')), [], `${p.name} ships no .ts sources`);
    assert.deepEqual(files.filter((f) => !['package.json', 'README.md', 'LICENSE'].includes(f) && !/^dist\/.+\.(js|d\.ts)$/.test(f)), [], `${p.name} ships only its build`);
    const tarball = path.join(PACK_DIR, p.filename);
    await fs.access(tarball);
    await assert.doesNotReject(run('git', ['check-ignore', '-q', path.relative(process.cwd(), tarball)]), `${p.filename} is git-ignored`);
    // The package's LICENSE is the repository's, not a copy that drifted.
    const dir = p.name === '@agent-inbox/sdk' ? 'packages/sdk' : 'packages/mcp';
    assert.equal(await fs.readFile(path.join(dir, 'LICENSE'), 'utf8'), license, `${dir}/LICENSE`);
  }
  assert.ok(packs[1]!.files.some((f) => f.path === 'dist/bin.js'));

  await fs.mkdir(app);
  await fs.writeFile(path.join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...packs.map((p) => path.join(PACK_DIR, p.filename))], { cwd: app, env: plainEnv });
});

test('plain node imports the installed SDK and calls the service with it', async () => {
  await fs.writeFile(path.join(app, 'main.js'), `
import { AgentInbox, CONTRACT_VERSION } from '@agent-inbox/sdk';
const anon = new AgentInbox({ baseUrl: process.env.API_URL });
const { agent_key } = await anon.redeemEnrollment({ token: process.env.ENROLLMENT_TOKEN, agent_handle: 'packed-bot' });
const client = new AgentInbox({ baseUrl: process.env.API_URL, apiKey: agent_key });
const inbox = await client.createInbox({ display_name: 'Packed' });
console.log(JSON.stringify({ version: CONTRACT_VERSION, me: await client.whoami(), inbox }));
`);
  const { stdout } = await run(process.execPath, ['main.js'], { cwd: app, env: { ...plainEnv, API_URL: svc.url, ENROLLMENT_TOKEN: tenant.enrollmentToken } });
  const out = JSON.parse(stdout);
  assert.equal(out.version, '0.1.0-pre.6');
  assert.equal(out.me.project_id, tenant.projectId);
  assert.match(out.inbox.address, /@agents\.test$/);
  const stored = await svc.services.db.query('select count(*)::int as n from inboxes where id = $1', [out.inbox.id]);
  assert.equal(stored.rows[0].n, 1);
});

// A consumer project at its strictest: the declarations themselves are checked too (no skipLibCheck).
const STRICT = {
  compilerOptions: {
    strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, skipLibCheck: false,
    module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'dom'], noEmit: true,
    // Node's types from this checkout, as a consumer has them from its own @types/node.
    typeRoots: [path.resolve('node_modules/@types')], types: ['node'],
  },
};
const tsc = path.resolve('node_modules/typescript/bin/tsc');

/** Compiles the files as one program; answers tsc's diagnostics, one a line ('' when none). */
async function compile(files: Record<string, string>): Promise<string> {
  for (const [name, text] of Object.entries(files)) await fs.writeFile(path.join(app, name), text);
  await fs.writeFile(path.join(app, 'tsconfig.json'), JSON.stringify({ ...STRICT, files: Object.keys(files) }));
  return run(process.execPath, [tsc, '-p', '.'], { cwd: app, env: plainEnv }).then(
    () => '',
    (err: { stdout: string; stderr: string }) => err.stdout + err.stderr,
  );
}

test('a strict TypeScript consumer (exactOptionalPropertyTypes, noUncheckedIndexedAccess) compiles against the installed SDK', async () => {
  const consumer = `
import { AgentInbox, AgentInboxError, type ReviewEvent } from '@agent-inbox/sdk';

declare const maybeKey: string | undefined;
declare const maybeCursor: string | undefined;
declare const maybeText: string | undefined;

// Optional members given as undefined are accepted, as if left out.
const client = new AgentInbox({ baseUrl: 'http://127.0.0.1:8080', apiKey: maybeKey, timeoutMs: undefined, automaticFeedback: undefined });

export async function run(inboxId: string): Promise<string[]> {
  const seen: string[] = [];
  const queued = await client.sendEmail(inboxId, { to: 'dana@example.com', subject: 'Hi', text: maybeText, cc: undefined, intent: { summary: 'Say hi' } }, { idempotencyKey: maybeKey, signal: undefined });
  await client.listMessages(inboxId, { cursor: maybeCursor, limit: undefined, folder: undefined });
  // paginate yields the list's items, typed.
  for await (const message of client.paginate((cursor) => client.listMessages(inboxId, { cursor }))) {
    const subject: string = message.subject;
    const from: string | undefined = message.from?.email;
    seen.push(subject, from ?? '');
  }
  for await (const inbox of client.paginate((cursor) => client.listInboxes({ cursor, limit: 2 }))) seen.push(inbox.address);
  // The review event queue: the event the loop stops on is acked before it leaves.
  for await (const event of client.reviewEvents({ timeoutSeconds: undefined, signal: undefined })) {
    const e: ReviewEvent = event;
    seen.push(\`\${e.review_id} \${e.type} r\${e.revision}\`);
    if (e.review_id === queued.review_id && ['review.sent', 'review.rejected', 'review.cancelled', 'review.failed'].includes(e.type)) {
      await client.ackReviewEvent(e);
      break;
    }
  }
  const { data } = await client.listInboxes();
  const first = data[0];
  if (first) seen.push(first.id);
  return seen;
}

export const isProblem = (e: unknown): boolean => e instanceof AgentInboxError && e.code === 'intent_required' && e.requestId !== undefined;
`;
  // The SDK's own README sample compiles the same way.
  const readme = await fs.readFile(path.join(app, 'node_modules/@agent-inbox/sdk/README.md'), 'utf8');
  const sample = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(sample, 'the packed SDK README has a TypeScript sample');
  // And wrong uses are caught, so the checks are real ones. One program for all three: tsc
  // checking the declarations (no skipLibCheck) is the slow part, so it runs once.
  const wrong = [
    "import { AgentInbox } from '@agent-inbox/sdk';",
    'const client = new AgentInbox();',
    'await client.createInbox({ display_name: 42 });',
    "for await (const m of client.paginate((cursor) => client.listMessages('inb_x', { cursor }))) { const n: number = m.subject; console.log(n); }",
    'const { data } = await client.listInboxes(); console.log(data[0].id);',
    'export {};',
  ].join('\n');
  const out = await compile({ 'strict.ts': consumer, 'readme-sample.ts': `${sample}\nexport {};\n`, 'wrong.ts': wrong });
  const errors = out.split('\n').filter((l) => /error TS/.test(l));
  assert.deepEqual(errors.filter((l) => !l.startsWith('wrong.ts(')), [], out);
  assert.match(out, /wrong\.ts\(3,\d+\): error TS2322/, 'a body member of the wrong type');
  assert.match(out, /wrong\.ts\(4,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/, 'a paginated item is typed');
  assert.match(out, /wrong\.ts\(5,\d+\): error TS2532/, 'an indexed item may be undefined');
  assert.equal(errors.length, 3, out);
});

test('the installed MCP package\'s bin serves its tools over stdio and calls the service', async () => {
  const { agentKey, agentId } = await tenant.enroll('packed-mcp');
  const client = new Client({ name: 'packed-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({
    command: path.join(app, 'node_modules', '.bin', 'agent-inbox-mcp'),
    env: { PATH: process.env.PATH ?? '', AGENT_INBOX_URL: svc.url, AGENT_INBOX_API_KEY: agentKey },
    stderr: 'pipe',
  }));
  after(() => client.close());
  const { tools } = await client.listTools();
  for (const name of ['send_email', 'wait_for_email', 'wait_for_review_event']) assert.ok(tools.some((t) => t.name === name), name);
  const me: any = await client.callTool({ name: 'whoami', arguments: {} });
  assert.equal(JSON.parse(me.content[0].text).agent_id, agentId);
});
