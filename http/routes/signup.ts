import { signUp, signupGateOpen, verifySignup } from '../../actors/signup.ts';
import type { RouteTable, Services } from '../context.ts';

export function signupRoutes(s: Services): RouteTable {
  return {
    signupStatus: async (ctx) => {
      ctx.body = { enabled: await signupGateOpen(s) };
    },
    signUp: async (ctx) => {
      const { email, agent_handle, display_name } = ctx.state.body;
      const r = await signUp(s, { email, agent_handle, display_name }, ctx.ip, s.now());
      ctx.status = r.created ? 201 : 200;
      ctx.body = { agent_id: r.agent_id, inbox_address: r.inbox_address, temporary_key: r.temporary_key, expires_at: r.expires_at.toISOString() };
    },
    verifySignup: async (ctx) => {
      const a = ctx.state.auth!;
      ctx.body = await verifySignup(
        s,
        { org_id: a.org_id, key_id: a.key_id, revoked: a.spent?.revoked ?? false, expired: a.spent?.expired ?? false },
        ctx.state.body.code,
        s.now(),
      );
    },
  };
}
