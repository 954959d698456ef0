// The Dockerfile and compose.yaml agree with the service. No Docker daemon is needed: the image's
// command line runs here as a process, with the image's and compose's environment, on the suite's
// PostgreSQL, and the image's HEALTHCHECK command must find it healthy.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { parseEnv, promisify } from 'node:util';
import YAML from 'yaml';
import { loadConfig } from '../../service/config.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { waitFor } from '../helpers/wait.ts';
import { configVariables } from './config-variables.ts';

const run = promisify(execFile);

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
function dockerfile(): Array<{ op: string; args: string }> {
  const text = fs.readFileSync('Dockerfile', 'utf8').replace(/\\\n/g, ' ');
  return text
    .split('\n')
    .filter((line) => line.trim() && !line.trim().startsWith('#'))
    .map((line) => {
      const [, op, args] = /^\s*(\S+)\s+(.*)$/.exec(line)!;
      return { op: op!.toUpperCase(), args: args!.trim() };
    });
}

const instructions = dockerfile();
const all = (op: string) => instructions.filter((i) => i.op === op).map((i) => i.args);
const one = (op: string) => {
  const found = all(op);
  assert.equal(found.length, 1, `one ${op} in the Dockerfile`);
  return found[0]!;
};
const entrypoint: string[] = JSON.parse(one('ENTRYPOINT'));
const cmd: string[] = JSON.parse(one('CMD'));
const healthcheck = /^(.*?)\bCMD\s+(\[.*\])$/.exec(one('HEALTHCHECK'));
const imageEnv: Record<string, string> = Object.fromEntries(
  all('ENV').flatMap((args) => [...args.matchAll(/([A-Z_][A-Z0-9_]*)=(\S+)/g)].map((m) => [m[1]!, m[2]!])),
);

/** Compose's `${NAME:-default}` interpolation with nothing set: every default. */
const interpolate = (value: string) => value.replace(/\$\{[A-Z_][A-Z0-9_]*:-([^}]*)\}/g, '$1');

const compose = YAML.parse(fs.readFileSync('compose.yaml', 'utf8'));
const app = compose.services['agent-inbox'];
const pgService = compose.services.postgres;
const appEnv: Record<string, string> = Object.fromEntries(
  Object.entries(app.environment as Record<string, string>).map(([k, v]) => [k, interpolate(String(v))]),
);
/** What the service sees under compose: the image's ENV, then .env (here its example), then `environment`. */
const composedEnv = { ...imageEnv, ...parseEnv(fs.readFileSync('.env.example', 'utf8')), ...appEnv };

test('the image is Node 20, installs without dev dependencies and runs as a user other than root', () => {
  assert.match(one('FROM'), /^node:20[-.\w]*$/);
  assert.ok(all('RUN').some((r) => /\bnpm ci --omit=dev\b/.test(r)));
  assert.ok(!['root', '0'].includes(one('USER').split(':')[0]!), 'a non-root USER');
  for (const copy of all('COPY')) {
    const sources = copy.split(/\s+/).slice(0, -1);
    for (const source of sources) assert.ok(fs.existsSync(source), `COPY source ${source} exists`);
  }
});

test('the image starts the agent-inbox command line with the start command, as npm start does', async () => {
  const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
  assert.equal(entrypoint.at(-1), pkg.bin['agent-inbox']);
  assert.ok(pkg.scripts.start.startsWith(`${entrypoint.slice(0, -1).join(' ')} `), 'the same Node flags as npm start');
  const usage = await run(process.execPath, ['--import', 'tsx', 'bin/agent-inbox.ts']).catch((err) => err);
  const commands = [...String(usage.stderr + usage.stdout).matchAll(/^ {2}([a-z][a-z-]*)/gm)].map((m) => m[1]);
  assert.ok(commands.includes(cmd[0]), `"${cmd[0]}" is one of the CLI's commands: ${commands.join(', ')}`);
  assert.deepEqual(cmd, ['start']);
});

test('compose runs the service and PostgreSQL, the service waiting for a healthy database', () => {
  assert.deepEqual(Object.keys(compose.services).sort(), ['agent-inbox', 'postgres']);
  assert.equal(app.build, '.');
  assert.match(pgService.image, /^postgres:(1[3-9]|[2-9]\d)\b/, 'PostgreSQL 13 or later');
  assert.equal(app.depends_on.postgres.condition, 'service_healthy');
  assert.match(pgService.healthcheck.test.join(' '), /pg_isready/);
});

test('compose sets only variables the service reads, and the whole environment loads', () => {
  const known = configVariables();
  for (const name of Object.keys(appEnv)) assert.ok(known.includes(name), `${name} is read by service/config.ts`);
  for (const name of Object.keys(imageEnv).filter((n) => n !== 'NODE_ENV')) assert.ok(known.includes(name), `${name} (Dockerfile ENV)`);
  const config = loadConfig(composedEnv);
  assert.equal(config.host, '0.0.0.0', 'reachable through published ports');
  assert.equal(config.smtpHost, '0.0.0.0');
  assert.equal(config.publicBaseUrl, 'http://localhost:8080');
});

test('compose points DATABASE_URL at its PostgreSQL service with that service\'s user, password and database', () => {
  const url = new URL(appEnv.DATABASE_URL!);
  const pgEnv = Object.fromEntries(Object.entries(pgService.environment as Record<string, string>).map(([k, v]) => [k, interpolate(v)]));
  assert.equal(url.hostname, 'postgres');
  assert.equal(url.port, '5432');
  assert.equal(url.username, pgEnv.POSTGRES_USER);
  assert.equal(url.password, pgEnv.POSTGRES_PASSWORD);
  assert.equal(url.pathname, `/${pgEnv.POSTGRES_DB}`);
  // The same password whatever .env says: both come from one POSTGRES_PASSWORD.
  assert.match(String(app.environment.DATABASE_URL), /\$\{POSTGRES_PASSWORD:-/);
  assert.match(String(pgService.environment.POSTGRES_PASSWORD), /^\$\{POSTGRES_PASSWORD:-/);
});

test('compose publishes the ports the service listens on and keeps DATA_DIR on a volume', () => {
  const config = loadConfig(composedEnv);
  const published = (app.ports as string[]).map((p) => Number(p.split(':').at(-1)));
  assert.deepEqual(published.sort(), [config.port, config.smtpPort].sort());
  assert.ok(exposed().every((p) => published.includes(p)), 'the image exposes the same ports');
  const mounts = (app.volumes as string[]).map((v) => v.split(':')[1]);
  assert.ok(mounts.includes(config.dataDir), `a volume at DATA_DIR (${config.dataDir})`);
  assert.equal(app.healthcheck, undefined, 'the image\'s HEALTHCHECK applies');
});

function exposed(): number[] {
  return all('EXPOSE').flatMap((args) => args.split(/\s+/).map(Number));
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test('the image\'s command, with compose\'s environment, serves the health endpoint its HEALTHCHECK probes', async () => {
  assert.ok(healthcheck, 'HEALTHCHECK ... CMD [...]');
  const probe: string[] = JSON.parse(healthcheck[2]!);
  assert.equal(probe[0], 'node');
  assert.match(probe.join(' '), /\/healthz/);

  const db = await createTestDatabase({ empty: true });
  after(() => db.drop());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-inbox-image-'));
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  // Only what differs between a container and this machine: its database, its free ports, a DATA_DIR we can write.
  const env = { PATH: process.env.PATH!, ...composedEnv, DATABASE_URL: db.url, PORT: String(await freePort()), SMTP_PORT: String(await freePort()), DATA_DIR: dataDir, LOG_LEVEL: 'info' };
  const health = () => run(process.execPath, probe.slice(1), { env }).then(() => true, () => false);

  assert.equal(await health(), false, 'unhealthy before the service runs');
  const [node, ...args] = entrypoint;
  assert.equal(node, 'node');
  const child = spawn(process.execPath, [...args, ...cmd], { env });
  let log = '';
  child.stdout.on('data', (c: Buffer) => (log += c.toString()));
  child.stderr.on('data', (c: Buffer) => (log += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    await waitFor(async () => child.exitCode === null && (await health()), `the HEALTHCHECK to pass; log:\n${log}`, 60_000);
    assert.match(log, /"msg":"HTTP API listening"/);
    assert.match(log, /"url":"http:\/\/0\.0\.0\.0:/);
    child.kill('SIGTERM');
    assert.equal(await exited, 0, log);
    assert.equal(await health(), false, 'unhealthy once stopped');
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});
