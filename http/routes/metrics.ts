// GET /metrics: the Prometheus scrape. Open by default, like /healthz (bind the API to a private
// address, or put it behind a proxy); with METRICS_TOKEN set it asks for that bearer token.
import { Problem } from '../../machines/problems.ts';
import { METRICS_CONTENT_TYPE, metricsAuthorized, metricsText } from '../../service/metrics.ts';
import type { RouteTable, Services } from '../context.ts';

export function metricsRoutes(s: Services): RouteTable {
  return {
    getMetrics: async (ctx) => {
      if (!metricsAuthorized(s.config.metricsToken, ctx.get('authorization'))) {
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
