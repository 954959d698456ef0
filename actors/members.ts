// Org members and invitations.
//
// Owners and admins invite people by email with a role; the invitation's token is shown once to
// the inviter and mailed to the invitee as system mail (the same route a sign-up code takes).
// Accepting binds to the accepting user's verified email, which must be the invited one; accepting
// again answers the same. Roles change and members leave under one rule: an org always keeps an
// owner, and only owners hand out or take away ownership.
import type pg from 'pg';
import { mayManageRole, strongerRole, type Role } from '../machines/policy/console-roles.ts';
import { Problem, notFound, quotaExceeded } from '../machines/problems.ts';
import { DEFAULT_PLANS, checkQuota, planOf, type Plans } from '../machines/policy/plans.ts';
import type { Config } from '../service/config.ts';
import type { ConsoleIdentity } from '../service/identity.ts';
import type { Queue } from '../service/queue.ts';
import { withTransaction, type Pool } from '../storage/db.ts';
import { newId } from '../storage/ids.ts';
import {
  countOwners,
  deleteMemberships,
  insertInvitation,
  lockInvitation,
  lockOrgMembers,
  markInvitationAccepted,
  orgWideRole,
  reissueInvitation,
  revokeInvitation,
  setOrgWideRole,
  type InvitationRow,
} from '../storage/members.ts';
import { matchesHash } from '../storage/secrets.ts';
import { countMembersOfOrg, findOrg, insertMembership, membershipsOf, listProjects, upsertUser } from '../storage/tenancy.ts';
import type { Executor } from '../storage/db.ts';
import { requireVerifiedEmail } from './claims.ts';
import { invitationTokenId, mintInvitationToken } from './credentials.ts';
import { SystemMailError, sendSystemMail } from './system-mail.ts';

export type MemberDeps = { db: Pool; queue: Queue; config: Config };

/** Who acts on the console, with their role in the org of the path. */
export type Actor = { email: string; role: Role };

export const DEFAULT_INVITATION_HOURS = 7 * 24;

export type InvitationStatus = 'pending' | 'accepted' | 'expired' | 'revoked';

export function invitationStatus(i: InvitationRow, now: Date): InvitationStatus {
  if (i.accepted_at) return 'accepted';
  if (i.revoked_at) return 'revoked';
  return i.expires_at <= now ? 'expired' : 'pending';
}

const mayNot = (actor: Actor, what: string) =>
  new Problem('forbidden_scope', { detail: `The role ${actor.role} may not ${what}; only an owner may.`, errors: [{ field: 'role', code: 'owner_only' }] });

// ---------------------------------------------------------------------------------------------
// Invitations

export type Invited = { row: InvitationRow; token: string; mailed: boolean };

/**
 * Creates an invitation and mails its token. The invitation commits first; a mail the relay will
 * not take leaves it in place (`mailed: false`), since the inviter holds the token to pass on.
 */
export async function inviteMember(
  deps: MemberDeps,
  actor: Actor,
  orgId: string,
  input: { email: string; role?: Role; expires_in_hours?: number },
  now: Date,
): Promise<Invited> {
  const role = input.role ?? 'member';
  if (!mayManageRole(actor.role, role)) throw mayNot(actor, 'invite an owner');
  // Refused early when the org is full already (unless the invitee is a member, whose role it
  // changes); accepting checks again, under the members lock.
  if ((await membershipsOf(deps.db, input.email.trim(), orgId)).length === 0) await checkMemberLimit(deps.db, orgId, deps.config.plans);
  const minted = mintInvitationToken();
  const row = await insertInvitation(deps.db, {
    org_id: orgId,
    id: minted.id,
    email: input.email.trim().toLowerCase(),
    role,
    token_hash: minted.hash,
    expires_at: new Date(now.getTime() + (input.expires_in_hours ?? DEFAULT_INVITATION_HOURS) * 3600_000),
    invited_by: actor.email,
  });
  const mailed = await mailInvitation(deps, row, minted.raw, now);
  return { row, token: minted.raw, mailed };
}

/**
 * Sends an invitation again: its token is stored only as a digest, so a resend mints a fresh
 * secret for the same invitation (the old token stops working), starts a new expiry, and mails it.
 * An accepted or revoked invitation is 409; an expired one is revived, since its invitee never came.
 */
export async function resendInvitation(deps: MemberDeps, actor: Actor, orgId: string, invitationId: string, now: Date): Promise<Invited> {
  const minted = await withTransaction(deps.db, async (tx) => {
    const inv = await lockInvitation(tx, invitationId);
    if (!inv || inv.org_id !== orgId) throw notFound('invitation');
    const status = invitationStatus(inv, now);
    if (status === 'accepted' || status === 'revoked') {
      throw new Problem('conflict', { detail: `This invitation is ${status}; only a pending or expired one is sent again.`, errors: [{ field: 'invitation_id', code: status }] });
    }
    if (!mayManageRole(actor.role, inv.role)) throw mayNot(actor, 'invite an owner');
    const secret = mintInvitationToken(inv.id);
    const row = await reissueInvitation(tx, orgId, inv.id, secret.hash, new Date(now.getTime() + DEFAULT_INVITATION_HOURS * 3600_000));
    return { row, raw: secret.raw };
  });
  const mailed = await mailInvitation(deps, minted.row, minted.raw, now);
  return { row: minted.row, token: minted.raw, mailed };
}

async function mailInvitation(deps: MemberDeps, row: InvitationRow, token: string, now: Date): Promise<boolean> {
  const org = (await findOrg(deps.db, row.org_id))!;
  // An outbox copy is filed under the org's first project; it belongs to no inbox.
  const [project] = await listProjects(deps.db, row.org_id);
  const base = deps.config.publicBaseUrl.replace(/\/$/, '');
  const text =
    `${row.invited_by} invited you to the agent-inbox org "${org.name}" as ${row.role}.\n\n` +
    `Sign in to the console with this email address (${row.email}) and accept with this token:\n\n${token}\n\n` +
    `(POST ${base}/v1/admin/invitations/accept with {"token": "..."}). It works until ${row.expires_at.toISOString()}.\n\n` +
    `If you did not expect this, ignore this mail.\n`;
  try {
    await withTransaction(deps.db, (tx) =>
      sendSystemMail(deps, tx as pg.PoolClient, { org_id: row.org_id, project_id: project!.id, inbox_id: null }, { to: row.email, subject: `You are invited to ${org.name} on agent-inbox`, text, kind: 'invitation' }, now),
    );
    return true;
  } catch (err) {
    if (err instanceof SystemMailError) return false;
    throw err;
  }
}

export type Accepted = { invitation: InvitationRow; role: Role };

/** Accepts an invitation for the signed-in user, whose verified email must be the invited one. */
export async function acceptInvitation(pool: Pool, who: ConsoleIdentity, token: string, now: Date, plans: Plans = DEFAULT_PLANS): Promise<Accepted> {
  requireVerifiedEmail(who, 'Accepting an invitation');
  const id = invitationTokenId(token);
  const unknown = () => new Problem('not_found', { detail: 'No invitation has this token.', errors: [{ field: 'token', code: 'invalid' }] });
  if (!id) throw unknown();
  return withTransaction(pool, async (tx) => {
    const inv = await lockInvitation(tx, id);
    if (!inv || !matchesHash(token, inv.token_hash)) throw unknown();
    if (inv.email !== who.email.toLowerCase()) {
      throw new Problem('forbidden_scope', {
        detail: 'This invitation is for another email address; sign in with the invited address to accept it.',
        errors: [{ field: 'token', code: 'email_mismatch' }],
      });
    }
    const user = await upsertUser(tx, newId('usr'), who.email);
    await lockOrgMembers(tx, inv.org_id);
    if (inv.accepted_at) {
      // The same person again (the email binds it): the same answer, nothing more granted.
      return { invitation: inv, role: (await orgWideRole(tx, inv.org_id, user.id)) ?? inv.role };
    }
    const status = invitationStatus(inv, now);
    if (status !== 'pending') {
      throw new Problem('conflict', { detail: `This invitation is ${status}; ask for a new one.`, errors: [{ field: 'token', code: status }] });
    }
    const held = await orgWideRole(tx, inv.org_id, user.id);
    if (!held) await checkMemberLimit(tx, inv.org_id, plans);
    const role = held ? strongerRole(held, inv.role) : inv.role;
    await insertMembership(tx, { org_id: inv.org_id, user_id: user.id, project_id: null, role });
    return { invitation: await markInvitationAccepted(tx, inv.org_id, inv.id, user.id), role };
  });
}

/** The plan's member limit: one more member past it is 403 quota_exceeded. */
async function checkMemberLimit(db: Executor, orgId: string, plans: Plans): Promise<void> {
  const org = await findOrg(db, orgId);
  if (!org) throw notFound('org');
  const plan = planOf(org.plan_tier, plans);
  const members = checkQuota(await countMembersOfOrg(db, orgId), plan.member_limit);
  if (members.allowed) return;
  throw quotaExceeded(`The ${plan.name} plan includes ${plan.member_limit} members and all are taken; remove one or upgrade the plan.`, {
    reason: 'member_limit_exceeded', used: members.used, delta: 1, limit: members.limit, remaining: members.remaining,
    consumed: members.used, reserved: 0, upgrade_required: true,
  });
}

// ---------------------------------------------------------------------------------------------
// Members

const lastOwner = () =>
  new Problem('conflict', {
    detail: 'This is the org\'s last owner; make another member owner first.',
    errors: [{ field: 'user_id', code: 'last_owner' }],
  });

export async function changeMemberRole(pool: Pool, actor: Actor, orgId: string, userId: string, role: Role): Promise<void> {
  await withTransaction(pool, async (tx) => {
    await lockOrgMembers(tx, orgId);
    const current = await orgWideRole(tx, orgId, userId);
    if (!current) throw notFound('org-wide member');
    if (!mayManageRole(actor.role, current) || !mayManageRole(actor.role, role)) throw mayNot(actor, 'give or take the owner role');
    if (current === 'owner' && role !== 'owner' && (await countOwners(tx, orgId)) <= 1) throw lastOwner();
    await setOrgWideRole(tx, orgId, userId, role);
  });
}

export async function removeMember(pool: Pool, actor: Actor, orgId: string, userId: string): Promise<void> {
  await withTransaction(pool, async (tx) => {
    await lockOrgMembers(tx, orgId);
    const current = await orgWideRole(tx, orgId, userId);
    if (current === 'owner') {
      if (!mayManageRole(actor.role, 'owner')) throw mayNot(actor, 'remove an owner');
      if ((await countOwners(tx, orgId)) <= 1) throw lastOwner();
    }
    if ((await deleteMemberships(tx, orgId, userId)) === 0) throw notFound('member');
  });
}

/** Revokes a pending invitation of the org; none pending by that id is 404. */
export async function revokePendingInvitation(pool: Pool, orgId: string, invitationId: string): Promise<void> {
  if (!(await revokeInvitation(pool, orgId, invitationId))) throw notFound('pending invitation');
}
