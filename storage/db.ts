import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import pg from 'pg';

// pg's own rendering of a parameter as text (dates, arrays, JSON), for writeBeforeCommit's literals.
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue(v: unknown): unknown };

export type Pool = pg.Pool;
export type Executor = pg.Pool | pg.PoolClient | pg.ClientBase;

// bigint columns (event ids, counters) come back as JS numbers; they stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** What the pool logs through (the service's logger fits): a lost connection is a warning. */
export type PoolLog = { warn(details: object, message: string): void };

/** `settings`: planner or runtime settings every connection of the pool starts with. */
export function createPool(url: string, log: PoolLog, max = 20, applicationName?: string, settings: Record<string, string> = {}): Pool {
  const options = Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`).join(' ') || undefined;
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 30_000, application_name: applicationName, options });
  // An idle client losing its server (PostgreSQL restarted) must not crash the process.
  pool.on('error', (err) => log.warn({ err: err.message }, 'idle database connection lost'));
  // Nor one checked out (in a transaction, holding a delivery lock): out of the pool it has no
  // listener of the pool's, and PostgreSQL's exit arrives as an 'error' event between queries.
  // This one lasts the client's whole life; its next query fails, and release() discards it.
  const live = new Set<pg.Client>();
  liveClients.set(pool, live);
  pool.on('connect', (client) => {
    client.on('error', (err) => log.warn({ err: err.message }, 'database connection lost'));
    live.add(client);
    client.once('end', () => live.delete(client));
  });
  return pool;
}

const liveClients = new WeakMap<pg.Pool, Set<pg.Client>>();

/**
 * Ends the pool and waits until every one of its connections has closed. pg's own `end()`
 * resolves once it has asked its clients to end, before their sockets close: a PostgreSQL stopped
 * right after would still find them open, and each would report its connection lost.
 */
export async function endPool(pool: Pool): Promise<void> {
  await pool.end();
  // A client still in the set has not ended yet (it leaves the set on its 'end').
  const open = [...(liveClients.get(pool) ?? [])];
  await Promise.all(open.map((client) => new Promise((resolve) => client.once('end', resolve))));
}

// NOTIFYs asked for inside a withTransaction, sent right after its COMMIT in the same round trip.
const pendingNotifications = new WeakMap<pg.ClientBase, Array<[channel: string, payload: string]>>();

/**
 * Notifies `channel` once the transaction commits (never when it rolls back). Inside
 * withTransaction the NOTIFY runs after the COMMIT, in its own statement: a NOTIFY inside the
 * transaction would hold PostgreSQL's cluster-wide notification lock through the commit's WAL
 * flush, one committing transaction at a time. Elsewhere it is an ordinary NOTIFY in `tx`.
 */
export async function notifyOnCommit(tx: Executor, channel: string, payload: string): Promise<void> {
  if (Buffer.byteLength(payload) >= 8000) throw new Error(`a NOTIFY payload must be under 8000 bytes (${channel})`);
  const pending = pendingNotifications.get(tx as pg.ClientBase);
  if (pending) pending.push([channel, payload]);
  else await tx.query('SELECT pg_notify($1, $2)', [channel, payload]);
}

// What a transaction left to send ahead of its next statement, one statement each: BEGIN, writes
// whose result nobody reads (writeBeforeCommit), and reads whose result is taken later (readAhead).
type Ahead = { text: string; read?: AheadRead };
type AheadRead = { key: string; result: pg.QueryResult | null };
const pendingWrites = new WeakMap<pg.ClientBase, Ahead[]>();
// A transaction's reads started ahead, by their EXECUTE text, until taken (takeRead).
const readsAhead = new WeakMap<pg.ClientBase, Map<string, AheadRead>>();

/** A named (prepared) statement. */
export type PreparedStatement = { name: string; text: string; values: unknown[] };

/**
 * Runs a write whose result is not read ahead of the transaction's next statement, when inside
 * withTransaction and once the connection has prepared the statement: as `EXECUTE` with its values
 * as quoted literals, planned as the prepared statement is. The next statement (the COMMIT at the
 * latest) runs after it and sees it, as if it had run at once, and takes it into its round trip
 * (runWritesFirst). Elsewhere, or on a connection that has not prepared the statement yet, it runs
 * at once (and so prepares it). It fails as any statement of the transaction would, reported by
 * the statement it went with, and the transaction rolls back. A statement with no parameters
 * (`SAVEPOINT name`) is given as its text and goes ahead the same way.
 */
export async function writeBeforeCommit(tx: Executor, q: PreparedStatement | string): Promise<void> {
  const writes = pendingWrites.get(tx as pg.ClientBase);
  const ahead = writes && (typeof q === 'string' ? q : executeText(tx as pg.ClientBase, q));
  if (writes && ahead) writes.push({ text: ahead });
  else await tx.query(q);
}

/**
 * Starts a read the transaction will want later (takeRead), sent with its next statement as a
 * write left by writeBeforeCommit is, and seeing what that one would. Inside withTransaction and
 * once the connection has prepared the statement; elsewhere nothing is sent, and takeRead runs it.
 */
export function readAhead(tx: Executor, q: PreparedStatement): void {
  const writes = pendingWrites.get(tx as pg.ClientBase);
  const reads = readsAhead.get(tx as pg.ClientBase);
  const key = writes && reads ? executeText(tx as pg.ClientBase, q) : null;
  if (!key || reads!.has(key)) return;
  const read = { key, result: null };
  reads!.set(key, read);
  writes!.push({ text: key, read });
}

/**
 * The result of `q`: the one its readAhead in this transaction brought back with an earlier
 * statement, else `q` run now (a read started ahead and not sent yet is then not sent at all).
 */
export async function takeRead<R extends pg.QueryResultRow>(tx: Executor, q: PreparedStatement): Promise<pg.QueryResult<R>> {
  const reads = readsAhead.get(tx as pg.ClientBase);
  const key = reads ? executeText(tx as pg.ClientBase, q) : null;
  const read = key ? reads!.get(key) : undefined;
  if (read) {
    reads!.delete(read.key);
    if (read.result) return read.result as pg.QueryResult<R>;
    const writes = pendingWrites.get(tx as pg.ClientBase);
    const at = writes?.findIndex((w) => w.read === read) ?? -1;
    if (at >= 0) writes!.splice(at, 1);
  }
  return tx.query<R>(q);
}

/**
 * `first` (a statement given as text) and then the prepared statement `q`, outside a transaction,
 * in one round trip once the connection has prepared `q` (else in two); answers both results.
 * Each reads what committed before it began, as if run alone. The two make one implicit
 * transaction: an error in `q` undoes `first`, except what outlives a rollback (a session advisory
 * lock), which the caller then gives up with the connection.
 */
export async function queryAfter(client: pg.ClientBase, first: string, q: PreparedStatement): Promise<[pg.QueryResult, pg.QueryResult]> {
  const execute = executeText(client, q);
  if (!execute) return [await client.query(first), await client.query(q)];
  const results = (await client.query(`${first}; ${execute}`)) as unknown as pg.QueryResult[];
  return [results[0]!, results[1]!];
}

/** `EXECUTE` of a statement this connection has prepared, its values as literals; null when it has not. */
function executeText(client: pg.ClientBase, q: unknown): string | null {
  const p = q as Partial<PreparedStatement> | null;
  if (!p || typeof p !== 'object' || !p.name || !Array.isArray(p.values)) return null;
  const parsed = (client as { connection?: { parsedStatements?: Record<string, string> } }).connection?.parsedStatements;
  if (parsed?.[p.name] !== p.text) return null;
  return `EXECUTE ${client.escapeIdentifier(p.name)}(${p.values.map((v) => literal(client, v)).join(', ')})`;
}

/**
 * While `client` runs a transaction, every statement runs the writes and reads left before it
 * first: in its own round trip when it is a statement the connection has prepared (as an EXECUTE
 * after them, its result the last), else in one round trip before it. Each read left keeps its
 * result, by its place among them. The COMMIT's text takes the writes itself.
 * Answers the function putting the client back.
 */
function runWritesFirst(client: pg.ClientBase, writes: Ahead[]): () => void {
  const query = client.query as (...a: unknown[]) => Promise<unknown>;
  const own = Object.prototype.hasOwnProperty.call(client, 'query');
  const keep = (left: Ahead[], results: unknown) => {
    const each = ([] as pg.QueryResult[]).concat(results as pg.QueryResult | pg.QueryResult[]);
    left.forEach((w, i) => {
      if (w.read) w.read.result = each[i]!;
    });
  };
  client.query = function (this: pg.ClientBase, ...args: unknown[]) {
    if (writes.length === 0) return query.apply(this, args);
    const left = writes.splice(0);
    const text = left.map((w) => w.text).join('; ');
    const execute = args.length === 1 ? executeText(this, args[0]) : null;
    if (execute) return query.call(this, `${text}; ${execute}`).then((results) => (keep(left, results), (results as unknown[]).at(-1)));
    return query.call(this, text).then((results) => (keep(left, results), query.apply(this, args)));
  } as typeof client.query;
  return () => {
    if (own) client.query = query as typeof client.query;
    else delete (client as { query?: unknown }).query;
  };
}

/** A parameter as the literal pg would have sent as its text. */
function literal(client: pg.ClientBase, value: unknown): string {
  const text = prepareValue(value);
  if (text === null || text === undefined) return 'NULL';
  if (Buffer.isBuffer(text)) return client.escapeLiteral(`\\x${text.toString('hex')}`);
  return client.escapeLiteral(String(text));
}

/**
 * Runs fn in one transaction; every write inside commits or none does. BEGIN and `firstStatement`
 * (one statement, e.g. taking advisory locks) go ahead of the transaction's first statement, in its
 * round trip.
 */
export async function withTransaction<T>(pool: Pool, fn: (tx: pg.PoolClient) => Promise<T>, firstStatement?: string | null): Promise<T> {
  const client = await pool.connect();
  try {
    return await transactionOn(client, fn, { firstStatement });
  } finally {
    client.release();
  }
}

/**
 * withTransaction on a connection the caller holds (and keeps). `afterCommit` is a statement run
 * in the COMMIT's round trip once the transaction committed (e.g. releasing a session lock); it
 * has run exactly when this resolves.
 */
export async function transactionOn<T>(
  client: pg.PoolClient,
  fn: (tx: pg.PoolClient) => Promise<T>,
  opts: { firstStatement?: string | null; afterCommit?: string } = {},
): Promise<T> {
  const notifications: Array<[string, string]> = [];
  const writes: Ahead[] = [];
  pendingNotifications.set(client, notifications);
  pendingWrites.set(client, writes);
  readsAhead.set(client, new Map());
  const putBack = runWritesFirst(client, writes);
  try {
    // Sent with the transaction's first statement.
    writes.push({ text: 'BEGIN' });
    if (opts.firstStatement) writes.push({ text: opts.firstStatement });
    const result = await fn(client);
    pendingNotifications.delete(client);
    pendingWrites.delete(client);
    readsAhead.delete(client);
    // Taken out of the list here, the writes left go in the COMMIT's own text.
    await client.query(commitText(client, writes.splice(0), notifications, opts.afterCommit)).catch((err: { file?: string }) => {
      // Raised by the NOTIFY after the COMMIT (async.c): the transaction did commit and only the
      // wake-up is lost; listeners see the change at their next read (heartbeat, poll, deadline).
      if (err.file !== 'async.c') throw err;
    });
    return result;
  } catch (err) {
    // What was left goes with the transaction: the ROLLBACK must not try to send it first.
    writes.length = 0;
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    putBack();
    pendingNotifications.delete(client);
    pendingWrites.delete(client);
    readsAhead.delete(client);
  }
}

/**
 * The writes left for it (not the reads: nobody took them), COMMIT, the statement after it, then
 * the notifications (each once), in one simple-protocol round trip.
 */
function commitText(client: pg.ClientBase, writes: Ahead[], notifications: Array<[string, string]>, afterCommit?: string): string {
  const unique = [...new Set(notifications.map(([c, p]) => `${client.escapeLiteral(c)}, ${client.escapeLiteral(p)}`))];
  const notify = unique.length === 0 ? '' : `; SELECT ${unique.map((args) => `pg_notify(${args})`).join(', ')}`;
  // The NOTIFY goes last: raised there, its error (above) leaves everything before it done.
  return `${writes.filter((w) => !w.read).map((w) => `${w.text}; `).join('')}COMMIT${afterCommit ? `; ${afterCommit}` : ''}${notify}`;
}

/**
 * Runs `fn` on one connection holding a session advisory lock, so processes starting together on
 * one database take turns (migrations, creating the job queues). Released however `fn` ends.
 */
export async function withSessionLock<T>(pool: Pool, key: number, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [key]);
    return await fn(client);
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [key]).catch(() => {});
    client.release();
  }
}

/** A transaction-scoped advisory lock key for a name (the first 64 bits of its SHA-256). */
export function lockKey(name: string): bigint {
  return BigInt.asIntN(64, crypto.createHash('sha256').update(name).digest().readBigUInt64BE(0));
}

/**
 * The statement taking these advisory locks, in one global order so that two holders never
 * deadlock; it can travel with BEGIN (withTransaction's firstStatement). Only integers are
 * interpolated.
 */
export function lockStatement(locks: bigint[]): string | null {
  const sorted = [...new Set(locks)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted.length ? `SELECT ${sorted.map((l) => `pg_advisory_xact_lock(${l.toString()})`).join(', ')}` : null;
}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '08000',
  '08003',
  '08006',
  '08001',
  '08004',
]);

/** True when an error means the database could not be reached, rather than a bad query. */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: string; message?: string; syscall?: string };
  if (e.code && UNAVAILABLE_CODES.has(e.code)) return true;
  // A Unix socket whose server stopped is gone from its folder.
  if (e.code === 'ENOENT' && e.syscall === 'connect') return true;
  const msg = e.message ?? '';
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down)/i.test(msg);
}
