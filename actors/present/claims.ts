// The shape of a self-signup a console member may claim.
import type { ClaimableSignup } from '../../storage/signups.ts';

export const presentClaimable = (s: ClaimableSignup) => ({
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
