// Console plane: an org's members and invitations.
import {
  acceptInvitation,
  changeMemberRole,
  inviteMember,
  removeMember,
  resendInvitation,
  revokePendingInvitation,
  type Actor,
} from '../../actors/members.ts';
import { presentInvitation, presentMember } from '../../actors/present/members.ts';
import { listInvitations, listMembers } from '../../storage/members.ts';
import type { ApiContext, RouteTable, Services } from '../context.ts';

const actorOf = (ctx: ApiContext): Actor => ({ email: ctx.state.console!.email, role: ctx.state.console!.role! });
const orgOf = (ctx: ApiContext) => ctx.state.params.org_id!;

export function adminMemberRoutes(s: Services): RouteTable {
  const members = async (orgId: string) => ({ items: (await listMembers(s.db, orgId)).map(presentMember) });
  return {
    adminListMembers: async (ctx) => {
      ctx.body = await members(orgOf(ctx));
    },
    adminChangeMemberRole: async (ctx) => {
      await changeMemberRole(s.db, actorOf(ctx), orgOf(ctx), ctx.state.params.user_id!, ctx.state.body.role);
      ctx.body = await members(orgOf(ctx));
    },
    adminRemoveMember: async (ctx) => {
      await removeMember(s.db, actorOf(ctx), orgOf(ctx), ctx.state.params.user_id!);
      ctx.status = 204;
    },
    adminListInvitations: async (ctx) => {
      const now = s.now();
      ctx.body = { items: (await listInvitations(s.db, orgOf(ctx))).map((i) => presentInvitation(i, now)) };
    },
    adminCreateInvitation: async (ctx) => {
      const now = s.now();
      const { row, token, mailed } = await inviteMember(s, actorOf(ctx), orgOf(ctx), ctx.state.body, now);
      ctx.status = 201;
      ctx.body = { ...presentInvitation(row, now), token, mailed };
    },
    adminResendInvitation: async (ctx) => {
      const now = s.now();
      const { row, token, mailed } = await resendInvitation(s, actorOf(ctx), orgOf(ctx), ctx.state.params.invitation_id!, now);
      ctx.body = { ...presentInvitation(row, now), token, mailed };
    },
    adminRevokeInvitation: async (ctx) => {
      await revokePendingInvitation(s.db, orgOf(ctx), ctx.state.params.invitation_id!);
      ctx.status = 204;
    },
    adminAcceptInvitation: async (ctx) => {
      const { invitation, role } = await acceptInvitation(s.db, ctx.state.console!, ctx.state.body.token, s.now(), s.config.plans);
      ctx.body = { invitation: presentInvitation(invitation, s.now()), org_id: invitation.org_id, role };
    },
  };
}
