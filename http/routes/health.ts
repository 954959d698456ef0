import { databaseReadiness } from '../../storage/health.ts';
import type { RouteTable, Services } from '../context.ts';
import { loadApiDocument } from '../openapi.ts';

async function readiness(s: Services): Promise<{ database: boolean; migrations: boolean; queue: boolean }> {
  return { ...(await databaseReadiness(s.db)), queue: s.queue.started() };
}

export function healthRoutes(s: Services): RouteTable {
  return {
    getHealth: async (ctx) => {
      ctx.body = { status: 'ok' };
    },
    getReadiness: async (ctx) => {
      const checks = await readiness(s);
      const ready = checks.database && checks.migrations && checks.queue;
      ctx.status = ready ? 200 : 503;
      if (!ready) ctx.set('Retry-After', '5');
      ctx.body = { status: ready ? 'ready' : 'unavailable', checks };
    },
    getOpenApiYaml: async (ctx) => {
      ctx.type = 'application/yaml';
      ctx.body = loadApiDocument().yaml;
    },
    getOpenApiJson: async (ctx) => {
      ctx.type = 'application/json';
      ctx.body = loadApiDocument().json;
    },
  };
}
