// The SDK and MCP packages as a user gets them: `npm pack`ed, installed into a project outside
// this repository, and used with plain `node` (no tsx) against a running service.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createTenant, startTestService } from '../../../test/helpers/service.ts';

const run = promisify(execFile);
const svc = await startTestService({ roles: ['api'] });
const tenant = await createTenant(svc);

// A child with no loader of ours: what runs there runs on Node alone.
const { NODE_OPTIONS: _, ...plainEnv } = process.env;

const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-inbox-packed-'));
after(() => fs.rm(dir, { recursive: true, force: true }));
const app = path.join(dir, 'app');

test('both packages pack their JavaScript build with declarations, and no TypeScript sources', async () => {
  const { stdout } = await run('npm', ['pack', '-w', '@agent-inbox/sdk', '-w', '@agent-inbox/mcp', '--pack-destination', dir, '--json'], { env: plainEnv });
  const packs: { name: string; filename: string; files: { path: string }[] }[] = JSON.parse(stdout.slice(stdout.indexOf('[')));
  assert.deepEqual(packs.map((p) => p.name), ['@agent-inbox/sdk', '@agent-inbox/mcp']);
  // The names the README tells users to install.
  assert.deepEqual(packs.map((p) => p.filename), ['agent-inbox-sdk-0.1.0-pre.6.tgz', 'agent-inbox-mcp-0.1.0-pre.6.tgz']);
  for (const p of packs) {
    const files = p.files.map((f) => f.path);
    assert.ok(files.includes('dist/index.js') && files.includes('dist/index.d.ts'), `${p.name}: ${files.join(', ')}`);
    assert.deepEqual(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')), [], `${p.name} ships no .ts sources`);
    assert.deepEqual(files.filter((f) => f !== 'package.json' && !/^dist\/.+\.(js|d\.ts)$/.test(f)), [], `${p.name} ships only its build`);
  }
  assert.ok(packs[1]!.files.some((f) => f.path === 'dist/bin.js'));

  await fs.mkdir(app);
  await fs.writeFile(path.join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...packs.map((p) => path.join(dir, p.filename))], { cwd: app, env: plainEnv });
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

test('the installed SDK\'s declarations type-check a TypeScript consumer', async () => {
  await fs.writeFile(path.join(app, 'typed.ts'), `
import { AgentInbox, AgentInboxError, type ReviewEvent } from '@agent-inbox/sdk';
const client = new AgentInbox({ apiKey: 'pk_agent_x' });
export async function first(inboxId: string): Promise<string | undefined> {
  const inbox = await client.getInbox(inboxId);
  for await (const event of client.reviewEvents()) { const e: ReviewEvent = event; return e.type + inbox.address; }
  return undefined;
}
export const isProblem = (e: unknown) => e instanceof AgentInboxError && e.code === 'intent_required';
`);
  const tsc = path.resolve('node_modules/typescript/bin/tsc');
  await run(process.execPath, [tsc, '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--lib', 'es2022,dom', 'typed.ts'], { cwd: app, env: plainEnv });
  // And a wrong use is caught, so the check above is a real one.
  await fs.writeFile(path.join(app, 'wrong.ts'), `import { AgentInbox } from '@agent-inbox/sdk';\nawait new AgentInbox().createInbox({ display_name: 42 });\n`);
  await assert.rejects(run(process.execPath, [tsc, '--noEmit', '--module', 'nodenext', '--target', 'es2022', '--lib', 'es2022,dom', 'wrong.ts'], { cwd: app, env: plainEnv }), (err: { stdout: string }) => /wrong\.ts\(2,\d+\): error TS2322/.test(err.stdout));
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
