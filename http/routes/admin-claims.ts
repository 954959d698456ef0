// Console plane: self-signups the caller may claim, and claiming one.
import { claimSignup, listClaims } from '../../actors/claims.ts';
import type { ClaimableSignup } from '../../storage/signups.ts';
import type { RouteTable, Services } from '../context.ts';

const presentClaimable = (s: ClaimableSignup) => ({
  signup_id: s.id,
  org_id: s.org_id,
  project_id: s.project_id,
  agent_id: s.agent_id,
  agent_handle: s.agent_handle,
  inbox_id: s.inbox_id,
  inbox_address: s.inbox_address,
  verified_at: s.verified_at.toISOString(),
  created_at: s.created_at.toISOString(),
});

export function adminClaimRoutes(s: Services): RouteTable {
  return {
    adminListClaims: async (ctx) => {
      ctx.body = { items: (await listClaims(s.db, ctx.state.console!)).map(presentClaimable) };
    },
    adminClaimSignup: async (ctx) => {
      const { claim, created } = await claimSignup(s.db, ctx.state.console!, ctx.state.body.signup_id);
      ctx.status = created ? 201 : 200;
      ctx.body = { ...presentClaimable(claim), role: claim.role, claimed_at: claim.claimed_at.toISOString() };
    },
  };
}
