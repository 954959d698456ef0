// The Dockerfile, .dockerignore and compose.yaml agree with the service. No Docker daemon is
// needed: the build context is computed from .dockerignore with Docker's own matching rules, the
// image's command line runs here as a process, with the image's and compose's environment, on the
// suite's PostgreSQL, and the image's HEALTHCHECK command must find it healthy.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, test } from '../../testkit/test.ts';
import { parseEnv, promisify } from 'node:util';
import YAML from 'yaml';
import { loadConfig } from '../../service/config.ts';
import { createTestDatabase } from '../../testkit/db.ts';
import { waitFor } from '../../testkit/wait.ts';
import { configVariables } from './config-variables.ts';

const run = promisify(execFile);

type Instruction = { op: string; args: string };

/** The Dockerfile's stages (FROM to FROM), instructions' continuation lines joined, comments dropped. */
function dockerfile(): Array<{ from: string; name: string | null; instructions: Instruction[] }> {
  const text = fs.readFileSync('Dockerfile', 'utf8').replace(/\\\n/g, ' ');
  const stages: Array<{ from: string; name: string | null; instructions: Instruction[] }> = [];
  for (const line of text.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'))) {
    const [, op, args] = /^\s*(\S+)\s+(.*)$/.exec(line)!;
    const i = { op: op!.toUpperCase(), args: args!.trim() };
    if (i.op === 'FROM') {
      const [, image, name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(i.args)!;
      stages.push({ from: image!, name: name ?? null, instructions: [] });
    } else {
      stages.at(-1)!.instructions.push(i);
    }
  }
  return stages;
}

const stages = dockerfile();
/** The image that runs: the last stage. */
const runtime = stages.at(-1)!;
const instructions = runtime.instructions;
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

/** What an operator's .env gives compose to interpolate: the one variable it must set. */
const operatorEnv: Record<string, string> = { METRICS_TOKEN: 'metrics-token-0123456789' };
/** Compose's `${NAME:-default}` and `${NAME:?error}` interpolation, with the operator's .env. */
const interpolate = (value: string) =>
  value
    .replace(/\$\{([A-Z_][A-Z0-9_]*):-([^}]*)\}/g, (_, name, fallback) => operatorEnv[name] ?? fallback)
    .replace(/\$\{([A-Z_][A-Z0-9_]*):\?([^}]*)\}/g, (_, name, error) => {
      if (!operatorEnv[name]) throw new Error(`compose refuses to start: ${error}`);
      return operatorEnv[name]!;
    });

const compose = YAML.parse(fs.readFileSync('compose.yaml', 'utf8'));
const app = compose.services['agent-inbox'];
const pgService = compose.services.postgres;
const appEnv: Record<string, string> = Object.fromEntries(
  Object.entries(app.environment as Record<string, string>).map(([k, v]) => [k, interpolate(String(v))]),
);
/** What the service sees under compose: the image's ENV, then .env (here its example), then `environment`. */
const composedEnv = { ...imageEnv, ...parseEnv(fs.readFileSync('.env.example', 'utf8')), ...appEnv };

test('the image is built in stages: the runtime stage is Node 20 without dev dependencies, takes only the compiled packages from the build, and runs as a user other than root', () => {
  assert.ok(stages.length >= 2, 'a build stage and a runtime stage');
  for (const stage of stages) assert.match(stage.from, /^node:20[-.\w]*$/);
  const build = stages.find((st) => st.name === 'build');
  assert.ok(build, 'a stage named build');
  assert.ok(build.instructions.some((i) => i.op === 'RUN' && /\bnpm run build\b/.test(i.args)), 'the build stage compiles the packages');
  assert.ok(all('RUN').some((r) => /\bnpm ci --omit=dev\b/.test(r)));
  assert.ok(!all('RUN').some((r) => /--include=dev|npm (i|install|ci)(?![^&]*--omit=dev)/.test(r)), 'the runtime stage never installs dev dependencies');
  assert.ok(!['root', '0'].includes(one('USER').split(':')[0]!), 'a non-root USER');
  const fromBuild = all('COPY').filter((c) => c.startsWith('--from='));
  assert.ok(fromBuild.length > 0);
  for (const copy of fromBuild) assert.match(copy, /^--from=build \/app\/packages\/(sdk|mcp)\/dist packages\/\1\/dist$/);
  // Every source copied from the context exists and is in the context.
  const context = new Set(buildContext());
  for (const copy of stages.flatMap((st) => st.instructions).filter((i) => i.op === 'COPY' && !i.args.startsWith('--from='))) {
    const sources = copy.args.split(/\s+/).slice(0, -1);
    for (const source of sources.filter((x) => x !== '.')) {
      assert.ok(fs.existsSync(source), `COPY source ${source} exists`);
      assert.ok(context.has(source), `COPY source ${source} is in the build context`);
    }
  }
});

// Docker's own matching rules (a port of its Go matcher); CommonJS, whose typings claim a default export.
const dockerignore = createRequire(import.meta.url)('@balena/dockerignore') as typeof import('@balena/dockerignore').default;
const ignoreRules = dockerignore({ ignorecase: false }).add(fs.readFileSync('.dockerignore', 'utf8'));

/**
 * The files `docker build .` sends: every file under the project folder that .dockerignore does
 * not exclude, matched as Docker matches (`test` is the top-level folder, `**` any depth, `!` an
 * exception). A folder excluded with no exception below it is not entered, as Docker skips it.
 */
function buildContext(root = '.'): string[] {
  const exceptions = fs.readFileSync('.dockerignore', 'utf8').split('\n').some((l) => l.trim().startsWith('!'));
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (ignoreRules.ignores(p) && (!exceptions || entry.name === 'node_modules' || entry.name === '.git')) continue;
        walk(p);
      } else if (!ignoreRules.ignores(p)) {
        out.push(p);
      }
    }
  };
  walk('');
  return out;
}

test('.dockerignore keeps local state, secrets, tarballs, tests, benchmarks and chaos drills out of the build context', () => {
  for (const p of [
    '.local/notes.md', '.local/tokens/console.jwt', '.env', '.env.production', 'agent-inbox-0.1.0.tgz', 'packages/sdk/agent-inbox-sdk-0.1.0.tgz',
    'backup.tar.gz', 'testkit/run.ts', 'test/ship/container.test.ts', 'bench/run.ts', 'chaos/run.ts', '.data/pg/PG_VERSION', 'node_modules/pg/package.json',
    'packages/sdk/node_modules/x/index.js', '.git/HEAD', 'packages/sdk/dist/index.js',
  ]) {
    assert.equal(ignoreRules.ignores(p), true, `${p} is left out`);
  }
  for (const p of ['.env.example', 'package.json', 'package-lock.json', 'bin/agent-inbox.mjs', 'roles/start.ts', 'packages/sdk/src/index.ts', 'console/index.html', 'http/openapi/openapi.yaml']) {
    assert.equal(ignoreRules.ignores(p), false, `${p} is sent`);
  }
});

test('the build context computed from this folder holds no .local/, .env, tarball, test, bench or chaos file, and every file the image runs', () => {
  // A .local/ folder (notes, tokens) as a developer's checkout has one, whether or not this one does.
  const made = !fs.existsSync('.local');
  const probe = path.join('.local', `context-probe-${process.pid}.txt`);
  fs.mkdirSync('.local', { recursive: true });
  fs.writeFileSync(probe, 'a console token');
  try {
    const context = buildContext();
    const leaked = context.filter((p) => /^(\.local|test|bench|chaos|\.git|\.data)\//.test(p) || /(^|\/)\.env$/.test(p) || /\.(tgz|tar|tar\.gz)$/.test(p) || p.includes('node_modules/'));
    assert.deepEqual(leaked, []);
    for (const needed of ['package.json', 'package-lock.json', 'bin/agent-inbox.mjs', 'bin/agent-inbox.ts', 'packages/sdk/package.json', 'packages/mcp/package.json', 'tsconfig.json']) {
      assert.ok(context.includes(needed), `${needed} is in the context`);
    }
  } finally {
    fs.rmSync(made ? '.local' : probe, { recursive: true, force: true });
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

test('compose sets a metrics token and refuses to start without one', () => {
  assert.match(String(app.environment.METRICS_TOKEN), /^\$\{METRICS_TOKEN:\?[^}]+\}$/);
  assert.equal(loadConfig(composedEnv).metricsToken, operatorEnv.METRICS_TOKEN);
  const saved = operatorEnv.METRICS_TOKEN;
  delete operatorEnv.METRICS_TOKEN;
  try {
    assert.throws(() => interpolate(String(app.environment.METRICS_TOKEN)), /compose refuses to start: set METRICS_TOKEN/);
  } finally {
    operatorEnv.METRICS_TOKEN = saved!;
  }
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

test('compose publishes the API on 127.0.0.1 unless API_BIND_ADDRESS says otherwise, SMTP on every interface, and keeps DATA_DIR on a volume', () => {
  const config = loadConfig(composedEnv);
  const ports = (app.ports as string[]).map((p) => interpolate(p));
  const published = ports.map((p) => Number(p.split(':').at(-1)));
  assert.deepEqual(ports.find((p) => p.endsWith(`:${config.port}`)), `127.0.0.1:${config.port}:${config.port}`);
  assert.match(String((app.ports as string[]).find((p) => p.endsWith(`:${config.port}`))), /^\$\{API_BIND_ADDRESS:-127\.0\.0\.1\}:/);
  assert.deepEqual(ports.find((p) => p.endsWith(`:${config.smtpPort}`)), `${config.smtpPort}:${config.smtpPort}`);
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
  assert.match(probe.join(' '), /\/readyz/, 'ready, not only alive: the database reachable and migrations applied');

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
