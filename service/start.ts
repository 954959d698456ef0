// Starts the service's roles in this process: the HTTP API, inbound SMTP and the workers, all
// on one PostgreSQL (DATABASE_URL, or an embedded one in DATA_DIR).
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mcpHttpHandler } from '@agent-inbox/mcp';
import { createApp } from '../http/app.ts';
import type { Services } from '../http/context.ts';
import { allRoutes } from '../http/routes/index.ts';
import { startInboundSmtp } from '../mail/inbound/smtp.ts';
import { closeRelaySessions, logOutboundRoute } from '../mail/outbound/relay.ts';
import { createPool } from '../storage/db.ts';
import { openEmbedded, type EmbeddedDatabase } from '../storage/embedded.ts';
import { migrate } from '../storage/migrate.ts';
import type { Config } from './config.ts';
import { createIdentityProvider } from './identity.ts';
import { createListener } from './listener.ts';
import { createLogger, type Logger } from './logger.ts';
import { startMetricsServer } from './metrics-server.ts';
import { startQueue } from './queue.ts';
import { ensureQueues, startWorkers } from './workers.ts';

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

/** The database URL to use: the configured one, or an embedded server in DATA_DIR. */
export async function openDatabase(config: Config, log: Logger): Promise<{ url: string; embedded: EmbeddedDatabase | null }> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: null };
  const pgLog = log.child({ component: 'postgres' });
  const embedded = await openEmbedded({ dataDir: config.dataDir, onLog: (line) => pgLog.debug(line.trim()) });
  log.info({ data_dir: config.dataDir }, 'using the embedded PostgreSQL');
  return { url: embedded.url, embedded };
}

export async function startService(
  config: Config,
  opts: { roles?: readonly Role[]; log?: Logger; databaseUrl?: string } = {},
): Promise<RunningService> {
  const roles = new Set(opts.roles ?? ROLES);
  const log = opts.log ?? createLogger(config.logLevel);
  const { url, embedded } = opts.databaseUrl ? { url: opts.databaseUrl, embedded: null } : await openDatabase(config, log);
  const db = createPool(url, log);
  const applied = await migrate(db);
  if (applied.length) log.info({ applied }, 'migrations applied');
  const queue = await startQueue(url, log.child({ component: 'queue' }));
  await ensureQueues(queue);
  const listener = createListener(url, log.child({ component: 'listen' }));
  const identity = await createIdentityProvider(config);
  const services: Services = { db, queue, listener, config, log, identity, now: () => new Date() };
  const stops: Array<() => Promise<void> | void> = [];

  if (roles.has('worker')) {
    logOutboundRoute(config.smtpUrl, log.child({ component: 'outbound' }));
    const unlisten = await startWorkers({ db, queue, config, log: log.child({ component: 'worker' }) }, listener);
    stops.push(unlisten);
  }

  let smtpPort: number | null = null;
  if (roles.has('smtp')) {
    const smtp = await startInboundSmtp({ db, queue, config, log });
    smtpPort = smtp.address.port;
    stops.push(() => smtp.close());
  }

  let metricsPort: number | null = null;
  if (config.metricsPort !== null) {
    const metrics = await startMetricsServer({ host: config.host, port: config.metricsPort, token: config.metricsToken, db, log: log.child({ component: 'metrics' }) });
    metricsPort = metrics.port;
    stops.push(() => metrics.close());
  }

  let httpUrl: string | null = null;
  if (roles.has('api')) {
    // The mounted MCP server calls this process's own REST API through the SDK, on loopback.
    let selfUrl = '';
    const mcp = mcpHttpHandler({ apiBaseUrl: () => selfUrl });
    const app = createApp({ services, routes: allRoutes(services), mcp });
    const server: http.Server = await new Promise((resolve) => {
      const srv = app.listen(config.port, config.host, () => resolve(srv));
    });
    server.keepAliveTimeout = 65_000;
    const { port } = server.address() as AddressInfo;
    httpUrl = `http://${config.host}:${port}`;
    selfUrl = `http://${['0.0.0.0', '::'].includes(config.host) ? '127.0.0.1' : config.host}:${port}`;
    log.info({ url: httpUrl }, 'HTTP API listening');
    stops.push(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    );
  }

  return {
    services,
    httpUrl,
    smtpPort,
    metricsPort,
    embedded,
    async stop() {
      for (const stop of stops.reverse()) await stop();
      await queue.stop().catch(() => {});
      // After the workers: a delivery finishing during their stop returns its relay session.
      closeRelaySessions();
      await listener.close();
      await db.end().catch(() => {});
      if (embedded) await embedded.stop();
    },
  };
}
