import { redeemEnrollment } from '../../actors/enrollment.ts';
import { enrollmentTokenId } from '../../actors/credentials.ts';
import { sendingRemaining } from '../../actors/billing.ts';
import { findAgentInOrg } from '../../storage/agents.ts';
import { findEnrollmentTokenById } from '../../storage/enrollment-tokens.ts';
import type { RouteTable, Services } from '../context.ts';

export function enrollmentRoutes(s: Services): RouteTable {
  return {
    redeemEnrollment: {
      handler: async (ctx) => {
        const { token, agent_handle, display_name } = ctx.state.body;
        const r = await redeemEnrollment(s.db, { token, agent_handle, display_name }, s.now(), { perMinute: s.config.enrollRateLimitPerMinute });
        ctx.status = r.created ? 201 : 200;
        ctx.body = {
          agent_key: r.raw,
          key_id: r.key.id,
          org_id: r.key.org_id,
          project_id: r.key.project_id,
          agent_id: r.agent.id,
          agent_handle: r.agent.handle,
          permissions: r.key.permissions,
          created: r.created,
        };
      },
      // Unauthenticated: a retry is recognised within the tenant of the token it redeems.
      idempotencyScope: async (ctx, key) => {
        const id = typeof ctx.state.body?.token === 'string' ? enrollmentTokenId(ctx.state.body.token) : null;
        const token = id ? await findEnrollmentTokenById(s.db, id) : null;
        return token ? { org_id: token.org_id, scope: `enroll:${token.id}`, key } : null;
      },
    },
    whoami: async (ctx) => {
      const a = ctx.state.auth!;
      const agent = await findAgentInOrg(s.db, a.org_id, a.agent_id);
      ctx.body = {
        org_id: a.org_id,
        project_id: a.project_id,
        agent_id: a.agent_id,
        ...(agent ? { agent_handle: agent.handle } : {}),
        key_id: a.key_id,
        ceiling: a.ceiling,
        inbox_id: a.inbox_id,
        permissions: a.permissions,
        expires_at: a.expires_at ? a.expires_at.toISOString() : null,
        sending: await sendingRemaining(s.db, s.config, a.org_id, a.agent_id),
      };
    },
  };
}
