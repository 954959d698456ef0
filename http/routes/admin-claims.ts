// Console plane: self-signups the caller may claim, and claiming one.
import { claimSignup, listClaims } from '../../actors/claims.ts';
import { presentClaimable } from '../../actors/present/claims.ts';
import type { RouteTable, Services } from '../context.ts';

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
