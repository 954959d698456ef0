import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from '../testkit/test.ts';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../service/config.ts';
import { startTestService } from '../testkit/service.ts';
import { waitFor } from '../testkit/wait.ts';
import { scratchDir } from '../testkit/scratch.ts';

const run = promisify(execFile);
const svc = await startTestService({ roles: ['api'] });
const env = { ...process.env, DATABASE_URL: svc.databaseUrl, DATA_DIR: svc.config.dataDir, LOG_LEVEL: 'silent' };
const cli = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'bin/agent-inbox.ts', ...args], { env });

test('bootstrap --json prints an org, project, owner, console token and enrollment token that the server accepts', async () => {
  const { stdout } = await cli('bootstrap', '--json', '--email', 'Ops@Example.com');
  const out = JSON.parse(stdout);
  assert.deepEqual(Object.keys(out).sort(), ['console_token', 'email', 'enrollment_token', 'org_id', 'project_id']);
  assert.equal(out.email, 'ops@example.com');
  const org = await svc.api.get(`/v1/admin/orgs/${out.org_id}`, out.console_token);
  assert.equal(org.status, 200);
  assert.equal(org.body.projects[0].id, out.project_id);
  const enrolled = await svc.api.post('/v1/enroll', { token: out.enrollment_token, agent_handle: 'cli-bot' });
  assert.equal(enrolled.status, 201);
  assert.equal(enrolled.body.project_id, out.project_id);
});

test('console-token mints a token for an email that works for that user\'s orgs', async () => {
  const boot = JSON.parse((await cli('bootstrap', '--json', '--email', 'second@example.com', '--plan', 'developer')).stdout);
  const { stdout } = await cli('console-token', '--email', 'second@example.com', '--json');
  const { console_token } = JSON.parse(stdout);
  const org = await svc.api.get(`/v1/admin/orgs/${boot.org_id}`, console_token);
  assert.equal(org.status, 200);
  assert.equal(org.body.plan_tier, 'developer');
});

test('plan --org --tier changes the plan the service enforces and prints the new limits', async () => {
  const boot = JSON.parse((await cli('bootstrap', '--json', '--email', 'planner@example.com')).stdout);
  const { stdout } = await cli('plan', '--org', boot.org_id, '--tier', 'startup', '--json');
  const out = JSON.parse(stdout);
  assert.deepEqual([out.org_id, out.plan_tier, out.inbox_limit, out.included_messages_monthly], [boot.org_id, 'startup', 150, 150000]);
  const billing = await svc.api.get(`/v1/admin/orgs/${boot.org_id}/billing`, boot.console_token);
  assert.equal(billing.body.plan_tier, 'startup');
  await assert.rejects(cli('plan', '--org', boot.org_id, '--tier', 'gold'), (err: any) => err.code === 2 && /--tier/.test(err.stderr));
  await assert.rejects(cli('plan', '--org', 'org_missing', '--tier', 'free'), (err: any) => err.code === 1 && /no org org_missing/.test(err.stderr));
});

test('console-token --link prints a one-time link to the console that signs that user in once', async () => {
  await cli('bootstrap', '--json', '--email', 'linked@example.com');
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bin/agent-inbox.ts', 'console-token', '--email', 'Linked@Example.com', '--link', '--json'], {
    env: { ...env, PUBLIC_BASE_URL: svc.url },
  });
  const out = JSON.parse(stdout);
  assert.equal(out.email, 'linked@example.com');
  const link = new URL(out.sign_in_link);
  assert.equal(`${link.origin}${link.pathname}`, `${svc.url}/console/`);
  const code = link.hash.slice('#sign-in='.length);
  const signIn = () => svc.api.post('/console/session', { code });
  const first = await signIn();
  assert.equal(first.status, 200);
  assert.equal(first.body.email, 'linked@example.com');
  assert.equal((await signIn()).status, 401);
});

test('a bad plan stops bootstrap with a message naming it', async () => {
  await assert.rejects(cli('bootstrap', '--plan', 'platinum'), (err: any) => err.code === 2 && /--plan/.test(err.stderr));
});

test('a bad environment value stops the start with a message naming the variable', async () => {
  await assert.rejects(
    run(process.execPath, ['--import', 'tsx', 'bin/agent-inbox.ts', 'start'], { env: { ...env, PORT: 'eighty' } }),
    (err: any) => err.code === 2 && /PORT/.test(err.stderr),
  );
});

// A `mktemp -d` folder (mode 0700), as DATA_DIR: started as root, the embedded server runs as its
// own system user, and must still reach its cluster there.
test('SIGTERM stops a service on its embedded PostgreSQL in order: it exits 0 and no connection is lost first', async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-inbox-stop-'));
  const { DATABASE_URL: _, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/agent-inbox.ts', 'start'], {
    env: { ...inherited, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', SMTP_HOST: '127.0.0.1', SMTP_PORT: '0', LOG_LEVEL: 'info' },
  });
  let log = '';
  child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    await waitFor(() => log.includes('"HTTP API listening"'), 'the service to start', 60_000);
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
    const warnings = log.split('\n').filter((line) => line.startsWith('{') && JSON.parse(line).level >= 40 && !/SMTP_URL/.test(line));
    assert.deepEqual(warnings, []);
    assert.match(log, /"msg":"stopped"/);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});

const launcher = path.join(PROJECT_ROOT, 'bin', 'agent-inbox.mjs');
const elsewhere = scratchDir('cwd');
/** The installed command (bin/agent-inbox.mjs), run from a folder outside the project. */
const command = (args: string[], extraEnv: Record<string, string | undefined> = {}) =>
  run(process.execPath, [launcher, ...args], { cwd: elsewhere, env: { ...env, ...extraEnv } });
const COMMAND_NAMES = ['start', 'bootstrap', 'console-token', 'snapshot', 'machines', 'outbox', 'reconcile', 'reviews', 'mcp', 'plan', 'signup'];
const { version } = JSON.parse(await fs.readFile(path.join(PROJECT_ROOT, 'package.json'), 'utf8'));

/** Runs the command expecting it to fail; its exit code and output. */
async function failing(args: string[], extraEnv: Record<string, string | undefined> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    await command(args, extraEnv);
  } catch (err: any) {
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
  throw new Error(`agent-inbox ${args.join(' ')} succeeded`);
}

test('--help exits 0 and lists every command', async () => {
  const { stdout } = await command(['--help']);
  for (const name of COMMAND_NAMES) assert.match(stdout, new RegExp(`^  ${name} `, 'm'));
});

test('every command answers --help with its usage and exits 0, without touching a database', async () => {
  for (const name of COMMAND_NAMES) {
    // An unreachable database would fail any command that opened one.
    const { stdout } = await command([name, '--help'], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    assert.match(stdout, new RegExp(`^usage: agent-inbox ${name}`), name);
  }
});

test('console-token --help lists --link and --open', async () => {
  const { stdout } = await command(['console-token', '--help']);
  assert.match(stdout, /agent-inbox console-token --email E --link/);
  assert.match(stdout, /agent-inbox console-token --email E --open/);
  assert.match(stdout, /opens it in the system browser/);
});

test('--version prints the package version', async () => {
  const { stdout } = await command(['--version']);
  assert.equal(stdout.trim(), version);
});

test('an unknown command exits 2, names the command and lists the commands', async () => {
  const { code, stderr } = await failing(['frobnicate']);
  assert.equal(code, 2);
  assert.match(stderr, /unknown command "frobnicate"/);
  for (const name of COMMAND_NAMES) assert.match(stderr, new RegExp(`^  ${name} `, 'm'));
});
