// Where a bench's service runs: a throwaway embedded PostgreSQL (reached over its Unix socket, as
// the service reaches its own) or DATABASE_URL when set, a scratch data folder, and the
// environment every bench starts the service with.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openScratchEmbedded } from '../storage/embedded.ts';

export type BenchDatabase = {
  url: string;
  dataDir: string;
  /** The embedded server's postmaster.pid (for its CPU figures); null for DATABASE_URL. */
  pidFile: string | null;
  close(): Promise<void>;
};

export async function benchDatabase(): Promise<BenchDatabase> {
  if (process.env.DATABASE_URL) {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-inbox-bench-'));
    return { url: process.env.DATABASE_URL, dataDir, pidFile: null, close: () => fs.rm(dataDir, { recursive: true, force: true }) };
  }
  const scratch = await openScratchEmbedded({ database: 'bench' });
  return {
    url: scratch.url,
    dataDir: scratch.dir,
    pidFile: path.join(scratch.dir, 'postgres', 'postmaster.pid'),
    close: () => scratch.close(),
  };
}

/** The service's environment on loopback with ephemeral ports, quiet, with `extra` on top. */
export function benchEnv(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    HOST: '127.0.0.1',
    PORT: '0',
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: '0',
    DATA_DIR: dataDir,
    INBOX_DOMAIN: 'bench.test',
    LOG_LEVEL: 'silent',
    ...extra,
  };
}
