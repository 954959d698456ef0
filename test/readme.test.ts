// Every fenced block of the guides (README.md, then the docs/ pages its Guides section lists) runs,
// in that order, against a started service (every
// role, as `npm start` runs them): shell blocks with bash (`npx agent-inbox`, curl), TypeScript
// blocks with tsx, JavaScript blocks with plain node, MCP client configurations by starting the
// server they describe. Everything runs twice against the same service, because a sample a newcomer
// runs a second time must work again. A block added to a guide later is picked up here by its
// language; a block that is not run must be listed in NOT_RUN with the reason and its own check.
//
// What the test changes in a sample before running it: the documented default addresses
// (127.0.0.1:8080 and :2525, also as localhost) become the test service's, and the MCP
// configuration's placeholders (`/path/to/agent-inbox`, `pk_agent_...`) become this checkout and
// the key the quick start enrolled. Samples run in a scratch folder below .test-data/, so the files
// they write (the quick start's .local/) never touch a developer's own.
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from '../testkit/test.ts';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { guides } from './helpers/guides.ts';
import { sendMail } from '../testkit/mail.ts';
import { startTestService } from '../testkit/service.ts';
import { waitFor } from '../testkit/wait.ts';

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export type Block = { lang: string; code: string; line: number; file: string };

/** The fenced code blocks of a Markdown text (``` or ~~~, indented ones too), in order. */
export function fencedBlocks(markdown: string, file = 'README.md'): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)(`{3,}|~{3,})\s*([^\s`]*)/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !(lines[j]!.trim().startsWith(fence!) && lines[j]!.trim().replace(/[`~]/g, '') === '')) {
      body.push(lines[j]!.startsWith(indent!) ? lines[j]!.slice(indent!.length) : lines[j]!.trimStart());
      j++;
    }
    assert.ok(j < lines.length, `${file} line ${i + 1}: a code fence is never closed`);
    blocks.push({ lang: lang!.toLowerCase(), code: body.join('\n'), line: i + 1, file });
    i = j;
  }
  return blocks;
}

/** Blocks that are not run, each with why and what is checked instead. Keep this list short. */
const NOT_RUN: { why: string; match: (b: Block) => boolean; check: (b: Block) => Promise<void> }[] = [
  {
    why: 'the install/start/test trio: `npm install` and `npm test` are what runs this test, and `npm start` runs until stopped, so this test starts the same service in-process instead; checked: the commands are exactly these and the scripts exist',
    match: (b) => commands(b.code).join(' | ') === 'npm install | npm start | npm test',
    check: async () => {
      const pkg = JSON.parse(await fs.readFile(path.join(ROOT, 'package.json'), 'utf8'));
      assert.match(pkg.scripts.start, /bin\/agent-inbox\.ts start$/);
      assert.match(pkg.scripts.test, /testkit\/run\.ts/);
    },
  },
  {
    why: '`npm run chaos` runs minutes of drills on its own PostgreSQL; test/crash/chaos-command.test.ts runs this very block at a tiny scale and checks its ledger; checked: the script exists and that test reads this block',
    match: (b) => commands(b.code).join(' | ') === 'npm run chaos',
    check: async () => {
      const pkg = JSON.parse(await fs.readFile(path.join(ROOT, 'package.json'), 'utf8'));
      assert.match(pkg.scripts.chaos, /chaos\/run\.ts/);
      const drill = await fs.readFile(path.join(ROOT, 'test/crash/chaos-command.test.ts'), 'utf8');
      assert.match(drill, /## Checking a deployment/);
    },
  },
];

function commands(code: string): string[] {
  return code.split('\n').map((l) => l.replace(/#.*$/, '').trim()).filter(Boolean);
}

const svc = await startTestService();
const httpPort = new URL(svc.url).port;
const work = path.join(ROOT, '.test-data', `readme-${randomUUID().slice(0, 8)}`);
await fs.mkdir(work, { recursive: true });
after(() => fs.rm(work, { recursive: true, force: true }));

/** What a user's shell has: the service's database and data folder (for `npx agent-inbox`), no loader of ours. */
const { NODE_OPTIONS: _, ...baseEnv } = process.env;
const env: Record<string, string> = {
  ...(baseEnv as Record<string, string>),
  DATABASE_URL: svc.databaseUrl,
  DATA_DIR: svc.config.dataDir,
  INBOX_DOMAIN: 'agents.test',
  PUBLIC_BASE_URL: svc.url,
  WEBHOOK_ALLOW_PRIVATE: 'true',
  LOG_LEVEL: 'warn',
};

function localize(code: string): string {
  return code
    .replace(/\b(?:localhost|127\.0\.0\.1):8080\b/g, `127.0.0.1:${httpPort}`)
    .replace(/\b(?:localhost|127\.0\.0\.1):2525\b/g, `127.0.0.1:${svc.smtpPort}`);
}

const readJson = async (file: string) => JSON.parse(await fs.readFile(path.join(work, file), 'utf8'));

/** A sample process with its output so far. */
type Running = { child: ChildProcess; out: () => string; err: () => string; exited: Promise<number | null> };

function start(command: string, args: string[], extraEnv: Record<string, string> = {}): Running {
  const child = spawn(command, args, { cwd: work, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exited };
}

async function finished(p: Running, label: string, ms = 120_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const code = await Promise.race([p.exited, new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), ms)))]);
  clearTimeout(timer);
  if (code === 'timeout') p.child.kill('SIGKILL');
  assert.equal(code, 0, `${label} ${code === 'timeout' ? 'did not finish' : `exited with ${code}`}\nstdout:\n${p.out()}\nstderr:\n${p.err()}`);
}

/** Sends `mail` every second until `done` holds: the sample may start listening after any one of them. */
async function mailUntil(done: () => boolean, mail: { to: string; subject: string; text: string }, label: string): Promise<void> {
  await waitFor(async () => {
    if (done()) return true;
    await sendMail(svc, { from: 'Sign-up <signup@service.example>', ...mail });
    await new Promise((r) => setTimeout(r, 1000));
    return done();
  }, label, 90_000);
}

async function consoleDecide(boot: Record<string, string>, reviewId: string, action: string): Promise<void> {
  const r = await svc.api.post(`/v1/admin/orgs/${boot.org_id}/projects/${boot.project_id}/reviews/${reviewId}/decision`, { action }, boot.console_token);
  assert.equal(r.status, 200, r.text);
}

// State carried between the blocks of a run and from the first run to the second, as a user's
// shell would carry it: ENROLLMENT_TOKEN is exported once, so the second run is the same agent.
const carried: { enrollmentToken?: string; bootstrap?: Record<string, string>; inboxes: string[]; reviews: string[] } = { inboxes: [], reviews: [] };

/** The SDK sample (first-agent.ts): the test plays the sign-up mail, the human reviewer and a later mail. */
async function driveFirstAgent(p: Running): Promise<void> {
  const inbox = (await waitFor(() => /^inbox (\S+)$/m.exec(p.out()) ?? (p.child.exitCode !== null && 'exited'), 'the sample prints its inbox', 60_000));
  assert.ok(Array.isArray(inbox), `the sample ended early:\n${p.out()}\n${p.err()}`);
  const address = inbox[1]!;
  carried.inboxes.push(address);
  await mailUntil(() => /^code 482913$/m.test(p.out()) || p.child.exitCode !== null, { to: address, subject: 'Verify your sign-up', text: 'Your verification code is 482913.' }, 'the sample reads the code');
  const queued = await waitFor(() => /^queued (rr_\S+)$/m.exec(p.out()) ?? (p.child.exitCode !== null && 'exited'), 'the sample queues its send', 60_000);
  assert.ok(Array.isArray(queued), `the sample ended early:\n${p.out()}\n${p.err()}`);
  const reviewId = queued[1]!;
  const earlier = [...carried.reviews];
  carried.reviews.push(reviewId);
  // The first run's send is approved and the second's rejected: the loop stops on either outcome.
  const [action, outcome] = earlier.length === 0 ? ['approve', 'review.sent'] : ['reject', 'review.rejected'];
  await consoleDecide(carried.bootstrap!, reviewId, 'open');
  await consoleDecide(carried.bootstrap!, reviewId, action);
  await waitFor(() => p.out().includes(`${reviewId} ${outcome}`) || p.child.exitCode !== null, `the review loop sees ${outcome}`, 60_000);
  await mailUntil(() => p.child.exitCode !== null, { to: address, subject: 'A later mail', text: 'Seen on the live stream.' }, 'the sample sees a live event and ends');
  await finished(p, 'first-agent.ts');
  assert.match(p.out(), new RegExp(`^${reviewId} ${outcome.replace('.', '\\.')}$`, 'm'));
  // The first run acked what it read, the event it stopped on included: none of it comes back.
  for (const id of earlier) assert.doesNotMatch(p.out(), new RegExp(id), `the second run sees none of the first run's events\n${p.out()}`);
  assert.match(p.out(), /^Verify your sign-up$/m, 'the paged listing prints the received subject');
  assert.match(p.out(), /^evt_\S+ /m, 'the live stream printed an event');
}

/** The webhook receiver: the test registers a webhook to it, mails the inbox, and checks what it printed. */
async function driveWebhookReceiver(sample: string): Promise<void> {
  const boot = await readJson('.local/bootstrap.json');
  const enrolled = await svc.api.post('/v1/enroll', { token: boot.enrollment_token, agent_handle: 'webhook-reader' });
  assert.ok(enrolled.status === 200 || enrolled.status === 201, enrolled.text);
  const key = enrolled.body.agent_key;
  const inbox = await svc.api.post('/v1/inboxes', { display_name: 'Webhooks' }, key);
  assert.equal(inbox.status, 201, inbox.text);
  const port = await freePort();
  const hook = await svc.api.post('/v1/webhooks', { url: `http://127.0.0.1:${port}/`, inbox: inbox.body.id }, key);
  assert.equal(hook.status, 201, hook.text);
  const p = start(process.execPath, [sample], { PORT: String(port), AGENT_INBOX_WEBHOOK_SECRET: hook.body.secret });
  try {
    await waitFor(() => canConnect(port), 'the webhook receiver listens', 30_000);
    const forged = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{"id":"evt_1"}', headers: { 'x-service-signature': 't=1,v1=00' } });
    assert.equal(forged.status, 400, 'a delivery with a wrong signature is refused');
    const subject = `Webhook check ${randomUUID().slice(0, 8)}`;
    await sendMail(svc, { from: 'dana@example.com', to: inbox.body.address, subject, text: 'Hello hook' });
    await waitFor(() => p.out().includes(`message.received ${subject} from`), `the receiver prints the delivery\n${p.err()}`, 60_000);
  } finally {
    p.child.kill('SIGTERM');
    await p.exited;
  }
}

/** An MCP client configuration: starts the server it describes and calls a tool through it. */
async function runMcpConfig(b: Block): Promise<void> {
  const config = JSON.parse(localize(b.code));
  assert.ok(config.mcpServers, `${b.file} line ${b.line}: a JSON block is run as an MCP client configuration (mcpServers)`);
  const enrolled = await readJson('.local/enroll.json');
  for (const [name, server] of Object.entries<any>(config.mcpServers)) {
    const serverEnv = Object.fromEntries(Object.entries<string>(server.env ?? {}).map(([k, v]) => [k, v === 'pk_agent_...' ? enrolled.agent_key : v]));
    const client = new Client({ name: 'readme-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({
      command: server.command,
      args: server.args,
      cwd: server.cwd === '/path/to/agent-inbox' ? ROOT : server.cwd,
      env: { ...env, ...serverEnv },
      stderr: 'pipe',
    }));
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'send_email'), `${name} lists send_email`);
      const me: any = await client.callTool({ name: 'whoami', arguments: {} });
      assert.equal(JSON.parse(me.content[0].text).agent_id, enrolled.agent_id, `${name} acts as the enrolled agent`);
    } finally {
      await client.close();
    }
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    }).on('error', reject);
  });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = net.connect(port, '127.0.0.1', () => {
      c.end();
      resolve(true);
    }).on('error', () => resolve(false));
  });
}

const SHELL_PRELUDE = [
  'set -eo pipefail',
  // An HTTP error from the service fails the block (curl -s alone would exit 0 on a 4xx).
  'curl() { command curl --fail-with-body --show-error "$@"; }',
  '',
].join('\n');

async function runBlock(b: Block, runNo: number): Promise<void> {
  const label = `${b.file} line ${b.line} (\`\`\`${b.lang})`;
  const code = localize(b.code);
  if (['sh', 'bash', 'shell'].includes(b.lang)) {
    const p = start('bash', ['-c', SHELL_PRELUDE + code]);
    await finished(p, label);
    if (/bootstrap --json > \.local\/bootstrap\.json/.test(code)) {
      carried.bootstrap ??= await readJson('.local/bootstrap.json');
      carried.enrollmentToken ??= carried.bootstrap!.enrollment_token;
      // Step 3 of the quick start printed who the agent is.
      assert.match(p.out(), new RegExp(`"agent_id":"${(await readJson('.local/enroll.json')).agent_id}"`), `${label} prints whoami`);
    }
    return;
  }
  if (['ts', 'typescript'].includes(b.lang)) {
    const file = path.join(work, `sample-${path.basename(b.file, '.md')}-${b.line}-${runNo}.ts`);
    await fs.writeFile(file, code);
    const p = start(process.execPath, ['--import', 'tsx', file], { ENROLLMENT_TOKEN: carried.enrollmentToken ?? '' });
    if (code.includes('waitForEmail') && code.includes('reviewEvents')) return driveFirstAgent(p);
    return finished(p, label);
  }
  if (['js', 'javascript', 'mjs'].includes(b.lang)) {
    const file = path.join(work, `sample-${path.basename(b.file, '.md')}-${b.line}-${runNo}.mjs`);
    await fs.writeFile(file, code);
    if (code.includes('verifyWebhook') && code.includes('createServer')) return driveWebhookReceiver(file);
    return finished(start(process.execPath, [file]), label);
  }
  if (b.lang === 'json') return runMcpConfig(b);
  assert.fail(`${label} is neither run (sh, ts, js, json) nor listed in NOT_RUN with a reason`);
}

const blocks = guides().flatMap((g) => fencedBlocks(g.text, g.file));

async function runAll(runNo: number): Promise<void> {
  for (const b of blocks) {
    const exception = NOT_RUN.find((e) => e.match(b));
    if (exception) await exception.check(b);
    else await runBlock(b, runNo);
  }
}

test('every page under docs/ is a guide the README lists, so its samples run here', async () => {
  const pages = (await fs.readdir(path.join(ROOT, 'docs'))).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`).sort();
  assert.deepEqual(guides().slice(1).map((g) => g.file).sort(), pages);
});

test('the README is a front page: under 12 KB, the details in the guides', async () => {
  assert.ok((await fs.stat(path.join(ROOT, 'README.md'))).size < 12 * 1024);
});

test('the guides have runnable samples, and every block that is not run is a listed exception', () => {
  assert.ok(blocks.some((b) => b.lang === 'sh') && blocks.some((b) => b.lang === 'ts'));
  for (const e of NOT_RUN) assert.ok(blocks.some(e.match), `NOT_RUN names a block the guides no longer have: ${e.why}`);
});

test('every sample of the guides runs against the service', async () => {
  await runAll(1);
  assert.equal(carried.inboxes.length, 1);
});

test('every sample of the guides runs a second time, as the same agent', async () => {
  await runAll(2);
  assert.equal(carried.inboxes[1], carried.inboxes[0], 'the SDK sample reuses its inbox');
  assert.notEqual(carried.reviews[1], carried.reviews[0], 'the second run sends anew instead of replaying the first send');
});

test('the files the samples wrote are covered by .gitignore', async () => {
  const written = (await fs.readdir(work, { recursive: true, withFileTypes: true }))
    .filter((d) => d.isFile() && !d.name.startsWith('sample-'))
    .map((d) => path.relative(work, path.join(d.parentPath, d.name)));
  assert.ok(written.includes(path.join('.local', 'bootstrap.json')), written.join(', '));
  for (const f of written) {
    await assert.doesNotReject(run('git', ['check-ignore', '--no-index', '-q', f], { cwd: ROOT }), `${f} is not git-ignored`);
  }
});

test('the TypeScript samples type-check', async () => {
  await fs.writeFile(path.join(work, 'tsconfig.json'), JSON.stringify({ extends: '../../tsconfig.json', include: ['sample-*.ts'], compilerOptions: { noUnusedLocals: false } }));
  await run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', work], { cwd: work }).catch((err) => {
    assert.fail(`${err.stdout}${err.stderr}`);
  });
});
