// The service on its embedded PostgreSQL, SIGKILLed: PostgreSQL outlives it. The next service
// started on the folder takes ownership of that server, so its clean stop ends PostgreSQL too,
// while a command run beside a running service still leaves the server to it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from '../../testkit/test.ts';
import { promisify } from 'node:util';
import { isRunning, postmasterPid, spawnService, until } from '../../testkit/drills.ts';

test('after a SIGKILL of the service, the restarted service owns the embedded PostgreSQL and its stop ends it', async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-inbox-owner-'));
  await fs.chmod(dataDir, 0o755); // the embedded server may run as its own system user when started as root
  const env = { DATA_DIR: dataDir, DATABASE_URL: undefined };
  const clusterDir = path.join(dataDir, 'postgres');
  let postmaster: number | null = null;
  try {
    const first = await spawnService(env);
    postmaster = await postmasterPid(clusterDir);
    assert.ok(postmaster && isRunning(postmaster));
    first.child.kill('SIGKILL');
    await first.exited;
    assert.ok(isRunning(postmaster), 'PostgreSQL outlives a SIGKILLed service');

    const second = await spawnService(env);
    assert.equal((await second.api.get('/readyz')).status, 200);
    assert.equal(await postmasterPid(clusterDir), postmaster, 'it uses the server left running');

    // A command beside the running service attaches and leaves the server to the service.
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'bin/agent-inbox.ts', 'outbox', '--json'], {
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    });
    assert.ok(isRunning(postmaster), 'a command beside the service does not stop its PostgreSQL');
    assert.equal((await second.api.get('/readyz')).status, 200);

    const stopped = await second.stop();
    assert.equal(stopped.code, 0, second.output());
    await until(() => !isRunning(postmaster!), 'PostgreSQL to stop with the service that owns it', 15_000);
  } finally {
    if (postmaster && isRunning(postmaster)) process.kill(postmaster, 'SIGKILL');
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});
