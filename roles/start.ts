// Starts the service's roles in this process: the HTTP API, inbound SMTP and the workers, all
// on one PostgreSQL (DATABASE_URL, or an embedded one in DATA_DIR).
import { noticeInboundRefused } from '../actors/quota-notices.ts';
import { takeReport } from '../actors/delivery-reports.ts';
import { batchingIngest } from '../actors/ingest-batcher.ts';
import { replyHandler } from '../actors/notification-replies.ts';
import { jobsSwitchedOff } from '../actors/jobs.ts';
import fs from 'node:fs/promises';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { createApp } from '../http/app.ts';
import { attachReviewerSocket } from '../http/reviewer-ws.ts';
import { consoleTransport } from '../console/server.ts';
import { answerClientErrors } from '../http/client-errors.ts';
import { problemsBase } from '../http/pipeline.ts';
import type { Services } from '../http/context.ts';
import { allRoutes } from '../http/routes/index.ts';
import { startInboundSmtp } from '../mail/inbound/smtp.ts';
import { closeRelaySessions, logOutboundRoute } from '../mail/outbound/relay.ts';
import { createPool, endPool, isDatabaseUnavailable } from '../storage/db.ts';
import { openEmbedded, type EmbeddedDatabase } from '../storage/embedded.ts';
import { migrate } from '../storage/migrate.ts';
import { StartupError, type Config } from '../service/config.ts';
import { createIdentityProvider } from '../service/identity.ts';
import { createListener } from '../service/listener.ts';
import { createLogger, type Logger } from '../service/logger.ts';
import { startMetricsServer } from '../service/metrics-server.ts';
import { openJobQueue, startWorkers } from './workers.ts';

// Connections of a process's workers, apart from its API's 20: the review deliveries in flight
// (actors/workers/review-delivery.ts) and room for the other queues' jobs beside them.
const WORKER_POOL_SIZE = 20;

export const ROLES = ['api', 'smtp', 'worker'] as const;
export type Role = (typeof ROLES)[number];

export type RunningService = {
  services: Services;
  /** The bound HTTP address, when the api role runs. */
  httpUrl: string | null;
  /** The bound inbound SMTP port, when the smtp role runs. */
  smtpPort: number | null;
  /** The bound port of the metrics-only listener, when METRICS_PORT is set. */
  metricsPort: number | null;
  embedded: EmbeddedDatabase | null;
  stop(): Promise<void>;
};

/** The database URL to use: the configured one (once it answers), or an embedded server in DATA_DIR. */
export async function openDatabase(config: Config, log: Logger): Promise<{ url: string; embedded: EmbeddedDatabase | null }> {
  // DATA_DIR keeps the embedded cluster and, unless configured otherwise, the keys.
  if (!config.databaseUrl || !config.consoleJwksUrl || !config.encryptionKey) await ensureDataDir(config.dataDir);
  if (config.databaseUrl) {
    await waitForDatabase(config.databaseUrl, config.databaseConnectTimeoutSeconds, log);
    log.info({ database: describeDatabase(config.databaseUrl) }, 'using the PostgreSQL at DATABASE_URL');
    return { url: config.databaseUrl, embedded: null };
  }
  const pgLog = log.child({ component: 'postgres' });
  const embedded = await openEmbedded({ dataDir: config.dataDir, onLog: (line) => pgLog.debug(line.trim()) });
  log.info({ data_dir: config.dataDir }, 'using the embedded PostgreSQL');
  return { url: embedded.url, embedded };
}

/** Where DATABASE_URL points, without its password: for log lines and messages. */
export function describeDatabase(url: string): string {
  const u = new URL(url);
  const socket = u.searchParams.get('host');
  return `${socket ?? u.hostname}:${u.port || 5432}${u.pathname}`;
}

/**
 * A database that is starting alongside this service (a container, a restart) may refuse
 * connections for a while: retry with backoff, up to the configured time, then stop with one line.
 * Anything but "not reachable" (a wrong password, a missing database) stops at once.
 */
async function waitForDatabase(url: string, timeoutSeconds: number, log: Logger): Promise<void> {
  const deadline = Date.now() + timeoutSeconds * 1000;
  let delay = 200;
  for (;;) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    client.on('error', () => {}); // a failed connect also reports here; the rejection below says it
    try {
      await client.connect();
      await client.end();
      return;
    } catch (err) {
      await client.end().catch(() => {});
      const reason = (err as { code?: string }).code ?? (err as Error).message;
      if (!isDatabaseUnavailable(err)) {
        throw new StartupError(`DATABASE_URL (${describeDatabase(url)}) was refused: ${(err as Error).message || reason}`);
      }
      if (Date.now() + delay > deadline) {
        throw new StartupError(
          `DATABASE_URL (${describeDatabase(url)}) cannot be reached (${reason}) after ${timeoutSeconds} s of retries; ` +
            'start that PostgreSQL, correct DATABASE_URL, or raise DATABASE_CONNECT_TIMEOUT_SECONDS',
        );
      }
      log.warn({ database: describeDatabase(url), err: reason, retry_in_ms: delay }, 'the database cannot be reached yet; retrying');
      await sleep(delay);
      delay = Math.min(delay * 2, 5_000);
    }
  }
}

async function ensureDataDir(dir: string): Promise<void> {
  try {
    await fs.mkdir(dir, { recursive: true });
  } catch (err) {
    const code = (err as { code?: string }).code;
    const why = code === 'EEXIST' || code === 'ENOTDIR' ? 'is a file, or inside one' : (err as Error).message;
    throw new StartupError(`DATA_DIR must be a folder, but ${dir} ${why}; set DATA_DIR to a folder`);
  }
}

/** One line naming the variable behind a port that cannot be bound. */
function listenError(variable: 'PORT' | 'SMTP_PORT', hostVariable: 'HOST' | 'SMTP_HOST', host: string, port: number, err: unknown): Error {
  const code = (err as { code?: string }).code;
  if (code === 'EADDRINUSE') {
    return new StartupError(`${variable} ${port} is already in use on ${host} (another agent-inbox, or another program); stop it or set ${variable} to a free port`);
  }
  if (code === 'EACCES') return new StartupError(`${variable} ${port} needs privileges this process does not have; set ${variable} to a port above 1023`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new StartupError(`${hostVariable} ${host} is not an address of this machine; set ${hostVariable}`);
  return new StartupError(`${variable} ${port} on ${host} cannot be listened on: ${(err as Error).message}`);
}

export async function startService(
  config: Config,
  opts: { roles?: readonly Role[]; log?: Logger; databaseUrl?: string } = {},
): Promise<RunningService> {
  const roles = new Set(opts.roles ?? ROLES);
  const log = opts.log ?? createLogger(config.logLevel, undefined, config.logPretty);
  const { url, embedded } = opts.databaseUrl ? { url: opts.databaseUrl, embedded: null } : await openDatabase(config, log);
  // Undone in reverse order by stop(), or by a start that fails half way (a port in use): the
  // database always goes last, after everything that holds a connection to it.
  const undo: Array<() => Promise<void> | void> = [];
  if (embedded) undo.push(() => embedded.stop());
  const stop = async () => {
    while (undo.length) await undo.pop()!();
  };
  try {
    const db = createPool(url, log);
    undo.push(() => endPool(db).catch(() => {}));
    const applied = await migrate(db);
    if (applied.length) log.info({ applied }, 'migrations applied');
    const listener = createListener(url, log.child({ component: 'listen' }));
    undo.push(() => listener.close());
    const queue = await openJobQueue(db, url, log.child({ component: 'queue' }), jobsSwitchedOff(config));
    undo.push(async () => {
      await queue.stop().catch(() => {});
      // After the workers: a delivery finishing during their stop returns its relay session.
      closeRelaySessions();
    });
    const identity = await createIdentityProvider(config);
    const services: Services = { db, queue, listener, config, log, identity, now: () => new Date() };

    if (roles.has('worker')) {
      logOutboundRoute(config.smtpUrl, log.child({ component: 'outbound' }));
      // The workers' own connections: a delivery holds one through its whole relay conversation,
      // and a backlog of deliveries must not leave the API waiting for the pool.
      const workerDb = createPool(url, log, WORKER_POOL_SIZE, 'agent-inbox-worker');
      undo.push(() => endPool(workerDb).catch(() => {}));
      undo.push(await startWorkers({ db: workerDb, queue, config, log: log.child({ component: 'worker' }) }, listener));
    }

    let smtpPort: number | null = null;
    if (roles.has('smtp')) {
      const smtp = await startInboundSmtp({
        db, config, log,
        ingest: batchingIngest({ db, queue, plans: config.plans }),
        onQuotaRefusal: (err) => noticeInboundRefused({ db, queue, config, log }, err, new Date()),
        // Replies to review notices decide (or chat) instead of landing in an inbox.
        replies: replyHandler({ db, queue, config, log: log.child({ component: 'replies' }) }),
        // Bounces and complaints of mail sent from here are recorded against their sends.
        reports: (m) => takeReport({ db, queue, config, log }, m),
      }).catch((err) => {
        throw listenError('SMTP_PORT', 'SMTP_HOST', config.smtpHost, config.smtpPort, err);
      });
      smtpPort = smtp.address.port;
      undo.push(() => smtp.close());
    }

    let metricsPort: number | null = null;
    if (config.metricsPort !== null) {
      const metrics = await startMetricsServer({ host: config.host, port: config.metricsPort, token: config.metricsToken, db, log: log.child({ component: 'metrics' }) });
      metricsPort = metrics.port;
      undo.push(() => metrics.close());
    }

    let httpUrl: string | null = null;
    if (roles.has('api')) {
      // The mounted MCP server calls this process's own REST API through the SDK, on loopback.
      let selfUrl = '';
      // The MCP server SDK takes a quarter of a second to load: the first call to /mcp loads it.
      let handler: Promise<ReturnType<typeof import('@agent-inbox/mcp').mcpHttpHandler>> | undefined;
      const mcp = async (req: http.IncomingMessage, res: http.ServerResponse) => {
        handler ??= import('@agent-inbox/mcp').then(({ mcpHttpHandler }) => mcpHttpHandler({ apiBaseUrl: () => selfUrl }));
        return (await handler)(req, res);
      };
      const app = createApp({ services, routes: allRoutes(services), mcp, console: consoleTransport(services) });
      const server: http.Server = await new Promise<http.Server>((resolve, reject) => {
        const srv = app.listen(config.port, config.host, () => {
          srv.off('error', reject);
          resolve(srv);
        });
        srv.once('error', reject);
      }).catch((err) => {
        throw listenError('PORT', 'HOST', config.host, config.port, err);
      });
      server.keepAliveTimeout = 65_000;
      answerClientErrors(server, problemsBase(services));
      const { port } = server.address() as AddressInfo;
      httpUrl = `http://${config.host}:${port}`;
      selfUrl = `http://${['0.0.0.0', '::'].includes(config.host) ? '127.0.0.1' : config.host}:${port}`;
      log.info({ url: httpUrl }, 'HTTP API listening');
      undo.push(
        () =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
          }),
      );
      // The reviewer WebSocket on the same server; its sockets close before the server's.
      const sockets = attachReviewerSocket(server, services);
      undo.push(() => sockets.close());
    }

    return { services, httpUrl, smtpPort, metricsPort, embedded, stop };
  } catch (err) {
    await stop().catch(() => {});
    throw err;
  }
}
