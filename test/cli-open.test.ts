// `agent-inbox console-token --open`: the one-time sign-in link printed and handed to the
// system's opener. The opener here is a real process: a script on PATH that records its argument.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { test } from '../testkit/test.ts';
import { promisify } from 'node:util';
import { startTestService } from '../testkit/service.ts';
import { scratchDir } from '../testkit/scratch.ts';

const run = promisify(execFile);
const svc = await startTestService({ roles: ['api'] });
const env = { ...process.env, DATABASE_URL: svc.databaseUrl, DATA_DIR: svc.config.dataDir, LOG_LEVEL: 'silent' };
const cli = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'bin/agent-inbox.ts', ...args], { env });

/** A folder on PATH holding a fake `xdg-open` that records the URL it was given (a real process). */
async function fakeOpener(exitCode = 0): Promise<{ dir: string; recorded: () => Promise<string> }> {
  const dir = scratchDir('opener');
  const script = path.join(dir, 'xdg-open');
  await fs.writeFile(script, `#!/bin/sh\nprintf '%s' "$1" > "${dir}/opened"\nexit ${exitCode}\n`, { mode: 0o755 });
  return { dir, recorded: () => fs.readFile(path.join(dir, 'opened'), 'utf8') };
}

const openLink = (PATH: string) =>
  run(process.execPath, ['--import', 'tsx', 'bin/agent-inbox.ts', 'console-token', '--email', 'opener@example.com', '--open', '--json'], {
    env: { ...env, PUBLIC_BASE_URL: svc.url, PATH },
  });

test('console-token --open prints the one-time link and hands it to the system opener, and the link signs in', async () => {
  await cli('bootstrap', '--json', '--email', 'opener@example.com');
  const opener = await fakeOpener();
  const { stdout, stderr } = await openLink(opener.dir);
  const out = JSON.parse(stdout);
  assert.equal(await opener.recorded(), out.sign_in_link);
  assert.match(stderr, /opened the sign-in link with xdg-open/);
  const code = new URL(out.sign_in_link).hash.slice('#sign-in='.length);
  const first = await svc.api.post('/console/session', { code });
  assert.equal(first.status, 200, first.text);
  assert.equal(first.body.email, 'opener@example.com');
});

test('console-token --open with no opener to run says so, still prints a working link and exits 0', async () => {
  const empty = scratchDir('no-opener');
  // node is run by its path, so PATH may hold nothing at all.
  const { stdout, stderr } = await openLink(empty);
  const out = JSON.parse(stdout);
  assert.match(stderr, /could not open a browser \(no xdg-open to run\); open the sign-in link above yourself/);
  const code = new URL(out.sign_in_link).hash.slice('#sign-in='.length);
  assert.equal((await svc.api.post('/console/session', { code })).status, 200);
});

test('console-token --open says so when the opener fails, and exits 0 with the link printed', async () => {
  const opener = await fakeOpener(3);
  const { stdout, stderr } = await openLink(opener.dir);
  assert.equal(await opener.recorded(), JSON.parse(stdout).sign_in_link);
  assert.match(stderr, /could not open a browser \(xdg-open exited with code 3\)/);
});
