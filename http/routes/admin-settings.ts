// Console plane: org settings.
import { patchOrgSettings, readOrgSettings } from '../../actors/org-settings.ts';
import type { RouteTable, Services } from '../context.ts';

export function adminSettingsRoutes(s: Services): RouteTable {
  return {
    adminGetOrgSettings: async (ctx) => {
      ctx.body = await readOrgSettings(s.db, s.config, ctx.state.params.org_id!);
    },
    adminUpdateOrgSettings: async (ctx) => {
      ctx.body = await patchOrgSettings(s.db, s.config, ctx.state.params.org_id!, ctx.state.body);
    },
  };
}
