// The shapes of an org's members and invitations in responses.
import type { InvitationRow, MemberRow } from '../../storage/members.ts';
import { invitationStatus } from '../members.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const presentMember = (m: MemberRow) => ({ user_id: m.user_id, email: m.email, role: m.role, project_id: m.project_id, created_at: iso(m.created_at) });

export const presentInvitation = (i: InvitationRow, now: Date) => ({
  id: i.id,
  org_id: i.org_id,
  email: i.email,
  role: i.role,
  status: invitationStatus(i, now),
  expires_at: iso(i.expires_at),
  invited_by: i.invited_by,
  accepted_at: iso(i.accepted_at),
  created_at: iso(i.created_at),
});
