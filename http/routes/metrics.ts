// GET /metrics: the Prometheus scrape. Open by default, like /healthz (bind the API to a private
// address, or put it behind a proxy); with METRICS_TOKEN set it asks for that bearer token.
import crypto from 'node:crypto';
import { Problem } from '../../machines/problems.ts';
import { METRICS_CONTENT_TYPE, metricsText } from '../../service/metrics.ts';
import type { RouteTable, Services } from '../context.ts';

// Hashed first so the comparison takes the same time whatever the length of the guess.
const digest = (s: string) => crypto.createHash('sha256').update(s).digest();

function authorized(expected: string, header: string): boolean {
  const given = /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? '';
  return crypto.timingSafeEqual(digest(given), digest(expected));
}

export function metricsRoutes(s: Services): RouteTable {
  return {
    getMetrics: async (ctx) => {
      const token = s.config.metricsToken;
      if (token !== null && !authorized(token, ctx.get('authorization'))) {
        throw new Problem('unauthorized', {
          detail: 'This deployment protects /metrics: send Authorization: Bearer <METRICS_TOKEN>.',
          headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' },
        });
      }
      ctx.set('Cache-Control', 'no-store');
      ctx.type = METRICS_CONTENT_TYPE;
      ctx.body = await metricsText(s.db);
    },
  };
}
