// Claims: the person behind a self-signup's email takes over the org its agent created.
//
// An agent that signed up on its own owns an org nobody can sign in to. A console user whose
// identity token carries that same email, verified by the identity provider, sees the verified
// sign-ups of the email and may claim one: they become an owner of its org. The email binds the
// claim, so another email (or one the provider has not verified) is refused and nothing changes.
import type { ConsoleIdentity } from '../service/identity.ts';
import { withTransaction, type Executor, type Pool } from '../storage/db.ts';
import { newId } from '../storage/ids.ts';
import { listClaimableSignups, lockSignupForClaim, markSignupClaimed, type ClaimableSignup } from '../storage/signups.ts';
import { insertMembership, upsertUser } from '../storage/tenancy.ts';
import { Problem, notFound } from '../machines/problems.ts';

export type Claim = ClaimableSignup & { role: 'owner'; claimed_at: Date };

/** Refuses an identity whose email the provider did not vouch for: nothing may bind to it. */
export function requireVerifiedEmail(who: ConsoleIdentity, what: string): void {
  if (!who.email_verified) {
    throw new Problem('forbidden_scope', {
      detail: `${what} needs a verified email: the session token must carry email_verified true.`,
      errors: [{ field: 'email_verified', code: 'not_verified' }],
    });
  }
}

export async function listClaims(db: Executor, who: ConsoleIdentity): Promise<ClaimableSignup[]> {
  requireVerifiedEmail(who, 'Listing claimable sign-ups');
  return listClaimableSignups(db, who.email);
}

/**
 * Makes the caller an owner of the sign-up's org. Claiming again (the same person: the email
 * binds it) answers the same claim; `created` says whether this call made it.
 */
export async function claimSignup(pool: Pool, who: ConsoleIdentity, signupId: string): Promise<{ claim: Claim; created: boolean }> {
  requireVerifiedEmail(who, 'A claim');
  return withTransaction(pool, async (tx) => {
    const row = await lockSignupForClaim(tx, signupId);
    if (!row) throw notFound('sign-up');
    if (row.email !== who.email.toLowerCase()) {
      throw new Problem('forbidden_scope', {
        detail: 'This sign-up was made with another email address; only the person with that verified email may claim it.',
        errors: [{ field: 'signup_id', code: 'email_mismatch' }],
      });
    }
    if (row.verified_at === null) {
      throw new Problem('conflict', {
        detail: 'The agent has not verified this sign-up yet; it can be claimed once its code is verified.',
        errors: [{ field: 'signup_id', code: 'not_verified' }],
      });
    }
    const user = await upsertUser(tx, newId('usr'), who.email);
    const { email: _email, claimed_by: _by, claimed_at, ...signup } = row;
    if (claimed_at) return { claim: { ...signup, verified_at: row.verified_at, role: 'owner', claimed_at }, created: false };
    await insertMembership(tx, { org_id: row.org_id, user_id: user.id, project_id: null, role: 'owner' });
    const at = await markSignupClaimed(tx, row.org_id, row.id, user.id);
    return { claim: { ...signup, verified_at: row.verified_at, role: 'owner', claimed_at: at }, created: true };
  });
}
