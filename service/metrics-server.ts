// /metrics for processes that run no API (`--role smtp`, `--role worker`): their SMTP and job
// counters live in their own memory, so each serves them on METRICS_PORT. Only GET /metrics,
// with the same METRICS_TOKEN rule as the API's /metrics.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Executor } from '../storage/db.ts';
import type { Logger } from './logger.ts';
import { METRICS_CONTENT_TYPE, metricsAuthorized, metricsText } from './metrics.ts';

export type MetricsServer = { port: number; close(): Promise<void> };

export async function startMetricsServer(opts: { host: string; port: number; token: string | null; db: Executor; log: Logger }): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Only GET /metrics is served here.\n');
      return;
    }
    if (!metricsAuthorized(opts.token, req.headers.authorization)) {
      res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer realm="metrics"' }).end('Send Authorization: Bearer <METRICS_TOKEN>.\n');
      return;
    }
    metricsText(opts.db).then(
      (text) => res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE, 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : text),
      (err: Error) => {
        opts.log.error({ err }, 'metrics scrape failed');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('The metrics could not be collected.\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  opts.log.info({ host: opts.host, port }, 'metrics listening');
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
