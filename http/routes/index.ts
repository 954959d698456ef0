// Every route table, merged; createApp checks it against the operations of the OpenAPI document.
import type { RouteTable, Services } from '../context.ts';
import { adminRoutes } from './admin.ts';
import { enrollmentRoutes } from './enrollment.ts';
import { healthRoutes } from './health.ts';

const TABLES = [healthRoutes, enrollmentRoutes, adminRoutes];

export function allRoutes(s: Services): RouteTable {
  const merged: RouteTable = {};
  for (const table of TABLES) {
    for (const [id, route] of Object.entries(table(s))) {
      if (merged[id]) throw new Error(`operation ${id} is routed twice`);
      merged[id] = route;
    }
  }
  return merged;
}
