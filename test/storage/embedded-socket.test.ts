// How the service reaches its embedded PostgreSQL: over the Unix socket in its cluster folder, or
// over TCP on 127.0.0.1 when that socket's path would be too long for the system. And the shared
// buffers the server starts with.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from '../../testkit/test.ts';
import pg from 'pg';
import { openEmbedded, type EmbeddedDatabase } from '../../storage/embedded.ts';

/** The server's address as this connection sees it: null over a Unix socket. */
async function serverAddress(url: string): Promise<string | null> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<{ addr: string | null }>('SELECT host(inet_server_addr()) AS addr')).rows[0]!.addr;
  } finally {
    await c.end();
  }
}

async function withCluster(dataDir: string, check: (db: EmbeddedDatabase) => Promise<void>): Promise<void> {
  await fs.mkdir(dataDir, { recursive: true });
  await fs.chmod(dataDir, 0o755); // the server may run as its own system user when started as root
  const db = await openEmbedded({ dataDir, flags: ['-c', 'fsync=off'] });
  try {
    await check(db);
  } finally {
    await db.stop();
  }
}

test('the embedded server is reached over the Unix socket in its cluster folder, and a second opener of the folder gets the same socket', async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-inbox-sock-'));
  try {
    await withCluster(dataDir, async (db) => {
      const clusterDir = path.join(dataDir, 'postgres');
      const u = new URL(db.url);
      assert.equal(u.searchParams.get('host'), clusterDir);
      await fs.access(path.join(clusterDir, `.s.PGSQL.${u.port}`));
      assert.equal(await serverAddress(db.url), null, 'connected over the socket, not TCP');

      const beside = await openEmbedded({ dataDir });
      assert.equal(beside.url, db.url);
      assert.equal(await serverAddress(beside.url), null);
      // TCP on loopback stays open for other tools.
      u.search = '';
      assert.equal(await serverAddress(u.toString()), '127.0.0.1');
    });
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});

test('an embedded server whose socket path would be too long is reached over TCP on 127.0.0.1', async () => {
  const base = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-inbox-sock-'));
  await fs.chmod(base, 0o755);
  const dataDir = path.join(base, 'a-data-folder-deep-enough-that-a-socket-in-it-passes-the-systems-limit');
  try {
    await withCluster(dataDir, async (db) => {
      assert.equal(new URL(db.url).searchParams.get('host'), null);
      assert.equal(await serverAddress(db.url), '127.0.0.1');
    });
  } finally {
    await fs.rm(base, { recursive: true, force: true });
  }
});

test("the embedded server's shared buffers are a quarter of the machine's memory, from 128 MB to 8 GB", async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-inbox-buffers-'));
  try {
    await withCluster(dataDir, async (db) => {
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      try {
        const { rows } = await c.query<{ mb: number }>(`SELECT setting::bigint * 8 / 1024 AS mb FROM pg_settings WHERE name = 'shared_buffers'`);
        const quarter = Math.floor(os.totalmem() / 4 / 1024 / 1024);
        assert.equal(Number(rows[0]!.mb), Math.max(128, Math.min(8192, quarter)));
      } finally {
        await c.end();
      }
    });
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});
