// The command started as a process from another folder: which database it uses, and start-up
// failures that name their cause in one line.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from '../testkit/test.ts';
import { promisify } from 'node:util';
import { loadConfig, PROJECT_ROOT } from '../service/config.ts';
import { freePort } from '../storage/embedded.ts';
import { startTestService } from '../testkit/service.ts';
import { waitFor } from '../testkit/wait.ts';
import { scratchDir } from '../testkit/scratch.ts';

const run = promisify(execFile);
const svc = await startTestService({ roles: ['api'] });
const env = { ...process.env, DATABASE_URL: svc.databaseUrl, DATA_DIR: svc.config.dataDir, LOG_LEVEL: 'silent' };

const launcher = path.join(PROJECT_ROOT, 'bin', 'agent-inbox.mjs');
const elsewhere = scratchDir('cwd');
/** The installed command (bin/agent-inbox.mjs), run from a folder outside the project. */
const command = (args: string[], extraEnv: Record<string, string | undefined> = {}) =>
  run(process.execPath, [launcher, ...args], { cwd: elsewhere, env: { ...env, ...extraEnv } });

/** Runs the command expecting it to fail; its exit code and output. */
async function failing(args: string[], extraEnv: Record<string, string | undefined> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    await command(args, extraEnv);
  } catch (err: any) {
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
  throw new Error(`agent-inbox ${args.join(' ')} succeeded`);
}

/** The error is one line on stderr, with no stack trace. */
function oneLine(stderr: string): string {
  const lines = stderr.trim().split('\n');
  assert.equal(lines.length, 1, `one line expected on stderr, got:\n${stderr}`);
  return lines[0]!;
}

test('run from another folder, a command works and says on stderr which database it used', async () => {
  const { stdout, stderr } = await command(['bootstrap', '--json']);
  assert.ok(JSON.parse(stdout).org_id);
  const u = new URL(svc.databaseUrl);
  const where = u.searchParams.get('host') ?? u.hostname; // the suite's embedded server is on its Unix socket
  assert.match(stderr, new RegExp(`using the PostgreSQL at DATABASE_URL \\(${where}:${u.port}${u.pathname}\\)`));
  assert.doesNotMatch(stderr, new RegExp(decodeURIComponent(u.password) || 'no password'));
});

test('the default DATA_DIR is .data in the project folder, whatever the current folder', async () => {
  assert.equal(loadConfig({}).dataDir, path.join(PROJECT_ROOT, '.data'));
  const { stderr } = await command(['console-token', '--email', 'ops@example.com'], { DATA_DIR: undefined });
  assert.match(stderr, new RegExp(`development key in ${path.join(PROJECT_ROOT, '.data')}\\n`));
});

test('an unreachable DATABASE_URL is retried for DATABASE_CONNECT_TIMEOUT_SECONDS, then stops the start with one line naming it', async () => {
  const port = await freePort();
  const { code, stdout, stderr } = await failing(['start'], {
    DATABASE_URL: `postgres://agent:secret@127.0.0.1:${port}/agent_inbox`,
    DATABASE_CONNECT_TIMEOUT_SECONDS: '1',
    LOG_LEVEL: 'warn',
    LOG_PRETTY: '0',
  });
  assert.equal(code, 1);
  const line = oneLine(stderr);
  assert.match(line, /^agent-inbox: DATABASE_URL \(127\.0\.0\.1:\d+\/agent_inbox\) cannot be reached \(ECONNREFUSED\) after 1 s/);
  assert.doesNotMatch(line, /secret/);
  const retries = stdout.split('\n').filter((l) => l.includes('the database cannot be reached yet; retrying'));
  assert.ok(retries.length >= 2, `retried with backoff before giving up:\n${stdout}`);
});

// With DATABASE_URL too: DATA_DIR still keeps the development signing key and the encryption key.
for (const database of ['the embedded PostgreSQL', 'DATABASE_URL'] as const) {
  test(`a DATA_DIR that is a file stops the start on ${database} with one line naming DATA_DIR`, async () => {
    const file = path.join(elsewhere, 'not-a-folder');
    await fs.writeFile(file, 'x');
    const { code, stderr } = await failing(['start'], { DATABASE_URL: database === 'DATABASE_URL' ? svc.databaseUrl : undefined, DATA_DIR: file });
    assert.equal(code, 1);
    assert.equal(oneLine(stderr), `agent-inbox: DATA_DIR must be a folder, but ${file} is a file, or inside one; set DATA_DIR to a folder`);
  });
}

for (const [variable, role] of [['PORT', 'api'], ['SMTP_PORT', 'smtp']] as const) {
  test(`a ${variable} already in use stops the start with one line naming ${variable}`, async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      const { code, stderr } = await failing(['start', '--role', role], { HOST: '127.0.0.1', SMTP_HOST: '127.0.0.1', PORT: '0', SMTP_PORT: '0', [variable]: String(port) });
      assert.equal(code, 1);
      assert.match(oneLine(stderr), new RegExp(`^agent-inbox: ${variable} ${port} is already in use on 127\\.0\\.0\\.1 .*set ${variable} to a free port$`));
    } finally {
      taken.close();
    }
  });
}

test('a DATA_DIR below a folder other users cannot enter: as root, one line naming DATA_DIR and the fix; otherwise it starts', async () => {
  const closed = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-inbox-0700-'));
  assert.equal((await fs.stat(closed)).mode & 0o777, 0o700);
  const dataDir = path.join(closed, 'data');
  try {
    const child = spawn(process.execPath, [launcher, 'start', '--role', 'api'], {
      cwd: elsewhere,
      env: { ...env, DATABASE_URL: '', DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', LOG_PRETTY: '0' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    if (process.getuid?.() === 0) {
      assert.equal(await exited, 1);
      const line = oneLine(stderr);
      assert.match(line, new RegExp(`^agent-inbox: DATA_DIR ${dataDir} is out of reach of the embedded PostgreSQL: .*cannot enter ${closed} \\(mode 0700\\); set DATA_DIR to a folder that user can reach`));
      assert.equal((await fs.stat(closed)).mode & 0o777, 0o700, 'a folder above DATA_DIR is left as it was');
    } else {
      try {
        await waitFor(() => stdout.includes('"HTTP API listening"'), 'the service to start', 60_000);
        child.kill('SIGTERM');
        assert.equal(await exited, 0);
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    }
  } finally {
    await fs.rm(closed, { recursive: true, force: true });
  }
});

test('LOG_PRETTY=1 prints log lines for people rather than JSON', async () => {
  const child = spawn(process.execPath, [launcher, 'start', '--role', 'api'], {
    cwd: elsewhere,
    env: { ...env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', LOG_PRETTY: '1' },
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const line = await waitFor(() => stdout.split('\n').find((l) => l.includes('HTTP API listening')), 'the service to start', 60_000);
    assert.doesNotMatch(line, /^\{/);
    assert.match(line, /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: HTTP API listening/);
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});

// A clone in a folder other users cannot enter (root's home, a `mktemp -d` folder): made here by
// hard-linking this checkout into a 0700 folder.
test('started from a clone in a 0700 folder: as root, one line naming the folder and the fix; otherwise it starts', async () => {
  const closed = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-inbox-clone-'));
  const clone = path.join(closed, 'agent-inbox');
  try {
    await fs.mkdir(clone);
    const entries = (await fs.readdir(PROJECT_ROOT)).filter((e) => !['.git', '.data'].includes(e));
    await run('cp', ['-al', ...entries.map((e) => path.join(PROJECT_ROOT, e)), clone]);
    const child = spawn(process.execPath, [path.join(clone, 'bin', 'agent-inbox.mjs'), 'start', '--role', 'api'], {
      cwd: elsewhere,
      env: { ...env, DATABASE_URL: '', DATA_DIR: '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', LOG_PRETTY: '0' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    if (process.getuid?.() === 0) {
      assert.equal(await exited, 1);
      assert.match(
        oneLine(stderr),
        new RegExp(`^agent-inbox: the embedded PostgreSQL runs as the system user "postgres" when started as root, and that user cannot enter ${closed} \\(mode 0700\\) to reach its server binaries in ${clone}/node_modules/.*; move agent-inbox to a folder other users can enter`),
      );
    } else {
      try {
        await waitFor(() => stdout.includes('"HTTP API listening"'), 'the service to start', 60_000);
        assert.match(stdout, new RegExp(`"data_dir":"${path.join(clone, '.data')}"`));
        child.kill('SIGTERM');
        assert.equal(await exited, 0);
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    }
  } finally {
    await fs.rm(closed, { recursive: true, force: true });
  }
});
