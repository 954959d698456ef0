// CPU spent while a load runs, split by who spent it: this process (the service), the embedded
// PostgreSQL's processes (Linux /proc; null elsewhere or for an external DATABASE_URL) and the
// load generator, which reports its own. Beside it, the queries this process sent meanwhile: each
// is one round trip to PostgreSQL (a query text may hold several statements, sent together).
import fs from 'node:fs/promises';
import pg from 'pg';

export type CpuSplit = { serviceMs: number; postgresMs: number | null; queries: number };

// Every query of this process, the service's pool and pg-boss's alike, goes through Client#query.
let queriesSent = 0;
const clientQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  queriesSent++;
  return (clientQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof clientQuery;

/** Runs fn and returns its result with the CPU milliseconds this process and PostgreSQL used meanwhile, and the queries sent. */
export async function withCpu<T>(postmasterPidFile: string | null, fn: () => Promise<T>): Promise<T & CpuSplit> {
  const before = process.cpuUsage();
  const pgBefore = await postgresCpuMs(postmasterPidFile);
  const queriesBefore = queriesSent;
  const result = await fn();
  const queries = queriesSent - queriesBefore;
  const used = process.cpuUsage(before);
  const pgAfter = await postgresCpuMs(postmasterPidFile);
  return {
    ...result,
    serviceMs: (used.user + used.system) / 1000,
    postgresMs: pgBefore !== null && pgAfter !== null ? pgAfter - pgBefore : null,
    queries,
  };
}

/** Runs fn and returns its result with the CPU milliseconds another process (a peer the bench started) used meanwhile, as `serviceMs` (absent off Linux). */
export async function withProcessCpu<T extends object>(pid: number | undefined, fn: () => Promise<T>): Promise<T & { serviceMs?: number }> {
  const before = await processCpuMs(pid);
  const result = await fn();
  const after = await processCpuMs(pid);
  return before !== null && after !== null ? { ...result, serviceMs: after - before } : result;
}

async function processCpuMs(pid: number | undefined): Promise<number | null> {
  if (pid === undefined || process.platform !== 'linux') return null;
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (stat === null) return null;
  const fields = statFields(stat);
  return ticksToMs(Number(fields[11]) + Number(fields[12]));
}

/** The fields of a /proc/<pid>/stat line from the state on (the name before it may hold spaces). */
const statFields = (stat: string): string[] => stat.slice(stat.lastIndexOf(')') + 2).split(' ');

/** Clock ticks (USER_HZ, 100 on Linux) to ms. */
const ticksToMs = (ticks: number): number => (ticks * 1000) / 100;

/** "9.4 queries (round trips) a send" */
export const queriesPerUnit = (split: Pick<CpuSplit, 'queries'>, units: number, unit: string): string =>
  `${(split.queries / units).toFixed(1)} queries (round trips) a ${unit}`;

/** "load 0.20 ms, service 1.90 ms, PostgreSQL 2.70 ms" a unit of work: the parts that were measured. */
export function cpuPerUnit(split: Partial<CpuSplit> & { loadMs?: number }, units: number, loadName = 'load'): string {
  const per = (total: number) => `${(total / units).toFixed(2)} ms`;
  return [
    split.loadMs !== undefined ? `${loadName} ${per(split.loadMs)}` : null,
    split.serviceMs !== undefined ? `service ${per(split.serviceMs)}` : null,
    split.postgresMs != null ? `PostgreSQL ${per(split.postgresMs)}` : null,
  ]
    .filter(Boolean)
    .join(', ');
}

/**
 * CPU milliseconds used so far by the postmaster named in the pid file and its children: the
 * children alive now, and those that ended (a backend whose connection closed), which the
 * postmaster has reaped into its own count of its children's time. Without them, a run in which
 * connections closed could show less CPU at its end than at its start.
 */
async function postgresCpuMs(pidFile: string | null): Promise<number | null> {
  if (!pidFile || process.platform !== 'linux') return null;
  try {
    const postmaster = (await fs.readFile(pidFile, 'utf8')).split('\n')[0]!.trim();
    let ticks = 0;
    for (const entry of await fs.readdir('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
      // From the state on: utime and stime are the 12th and 13th, cutime and cstime the 14th and 15th.
      const fields = statFields(stat);
      if (entry === postmaster) ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
      else if (fields[1] === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
    }
    return ticksToMs(ticks);
  } catch {
    return null;
  }
}

/**
 * What this machine does with a fixed piece of work, printed beside a bench's figures so that
 * figures taken on different machines can be compared: a JavaScript loop (CPU speed) and a round
 * trip to PostgreSQL (what a query costs before any SQL runs: on a VM whose context switches are
 * dear, most of a send's cost).
 */
export async function machineReference(db: { query(text: string): Promise<unknown> }): Promise<string> {
  const started = performance.now();
  let sum = 0;
  for (let i = 0; i < 1e8; i++) sum += i % 7;
  const loopMs = performance.now() - started + (sum < 0 ? 1 : 0);
  const trips: number[] = [];
  for (let i = 0; i < 500; i++) {
    const t = performance.now();
    await db.query('SELECT 1');
    trips.push(performance.now() - t);
  }
  trips.sort((a, b) => a - b);
  return `machine reference: a 1e8-step JavaScript loop ${loopMs.toFixed(0)} ms, a PostgreSQL round trip p50 ${(trips[250]! * 1000).toFixed(0)} µs`;
}
