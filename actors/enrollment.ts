// Enrollment tokens: issued on the console plane, redeemed by an agent for a project key.
import { MAX_LIVE_KEYS_PER_AGENT, canHoldAnotherKey } from '../machines/policy/agent-keys.ts';
import { assertMayMint, type Minter } from '../machines/policy/console-roles.ts';
import { DEFAULT_PERMISSIONS } from '../machines/policy/permissions.ts';
import { decideRate } from '../machines/policy/rate-limit.ts';
import { upsertAgentByHandle, type Agent } from '../storage/agents.ts';
import { insertApiKey, lockLiveKeyCount, type ApiKeyRow } from '../storage/api-keys.ts';
import { withTransaction, type Pool } from '../storage/db.ts';
import {
  countRedemption,
  countRedemptionAttempt,
  findEnrollmentTokenById,
  insertEnrollmentToken,
  lockEnrollmentToken,
  revokeEnrollmentToken,
  type EnrollmentTokenRow,
} from '../storage/enrollment-tokens.ts';
import { newId } from '../storage/ids.ts';
import { findOrg } from '../storage/tenancy.ts';
import type { StoredSettings } from '../machines/policy/org-settings.ts';
import { matchesHash } from '../storage/secrets.ts';
import { Problem, badRequest, notFound } from '../machines/problems.ts';
import { enrollmentTokenId, mintAgentKey, mintEnrollmentToken } from './credentials.ts';

export type TokenRequest = {
  label?: string;
  scopes?: string[];
  allowed_domains?: string[];
  max_mailboxes?: number;
  daily_send_limit?: number;
  reusable?: boolean;
  expires_in_hours?: number;
};

export async function issueEnrollmentToken(
  pool: Pool,
  input: TokenRequest & { org_id: string; project_id: string; created_by: string; issuer: Minter; now: Date },
): Promise<{ row: EnrollmentTokenRow; raw: string }> {
  if (input.scopes?.includes('signup:verify')) {
    throw badRequest('scopes', 'signup:verify belongs to temporary sign-up keys only.', 'not_allowed');
  }
  // Its redemptions mint project keys with these scopes (or the defaults), so it is minted as one.
  assertMayMint(input.issuer, 'project', input.scopes ?? DEFAULT_PERMISSIONS);
  // A token issued without a cap takes the org's `default_mailbox_cap` setting.
  const org = await findOrg(pool, input.org_id);
  const defaultCap = (org?.settings as StoredSettings | undefined)?.default_mailbox_cap ?? null;
  const minted = mintEnrollmentToken();
  const row = await insertEnrollmentToken(pool, {
    org_id: input.org_id,
    project_id: input.project_id,
    id: minted.id,
    label: input.label ?? null,
    secret_hash: minted.hash,
    prefix: minted.prefix,
    scopes: input.scopes ?? null,
    allowed_domains: input.allowed_domains?.map((d) => d.toLowerCase()) ?? null,
    max_mailboxes: input.max_mailboxes ?? defaultCap,
    daily_send_limit: input.daily_send_limit ?? null,
    reusable: input.reusable ?? false,
    expires_at: input.expires_in_hours ? new Date(input.now.getTime() + input.expires_in_hours * 3600_000) : null,
    created_by: input.created_by,
  });
  return { row, raw: minted.raw };
}

export type Redemption = { agent: Agent; created: boolean; key: ApiKeyRow; raw: string };

const refused = (detail: string) => new Problem('unauthorized', { detail, errors: [{ field: 'token', code: 'invalid', detail }] });

/**
 * Redeems a token for an agent key. The handle names either a new agent or one this same token
 * enrolled before (a retry); any other agent of the project, made on the console or by another
 * token, is refused with 409, so a token cannot mint keys for agents it does not own.
 */
export async function redeemEnrollment(
  pool: Pool,
  input: { token: string; agent_handle: string; display_name?: string },
  now: Date,
  limits: { perMinute: number },
): Promise<Redemption> {
  const tokenId = enrollmentTokenId(input.token);
  if (!tokenId) throw badRequest('token', 'The token must have the form pk_enroll_<id>_<secret>.', 'invalid_format');
  // Only attempts that hold the secret are counted, so nobody can exhaust a token they do not have.
  const known = await findEnrollmentTokenById(pool, tokenId);
  if (known && matchesHash(input.token, known.secret_hash)) {
    const decision = decideRate(await countRedemptionAttempt(pool, tokenId), limits.perMinute);
    if (!decision.allowed) {
      throw new Problem('rate_limited', {
        detail: `Over ${limits.perMinute} redemptions a minute for this enrollment token; retry in ${decision.retryAfterSeconds} s.`,
        headers: { 'Retry-After': String(decision.retryAfterSeconds) },
      });
    }
  }
  return withTransaction(pool, async (tx) => {
    const token = await lockEnrollmentToken(tx, tokenId);
    if (!token || !matchesHash(input.token, token.secret_hash)) throw refused('The enrollment token is not valid.');
    if (token.revoked_at) throw refused('The enrollment token was revoked.');
    if (token.expires_at && token.expires_at <= now) throw refused('The enrollment token has expired.');
    const { agent, created } = await upsertAgentByHandle(tx, {
      org_id: token.org_id,
      project_id: token.project_id,
      id: newId('agt'),
      handle: input.agent_handle,
      display_name: input.display_name ?? null,
      enrollment_token_id: token.id,
    });
    if (!created && agent.enrollment_token_id !== token.id) {
      throw new Problem('conflict', {
        detail: `The handle "${agent.handle}" belongs to an agent this token did not enroll; choose another handle.`,
        errors: [{ field: 'agent_handle', code: 'taken' }],
      });
    }
    // A single-use token enrolls one agent; redeeming it again for that same handle is a retry.
    if (!token.reusable && token.redemptions > 0 && created) {
      throw refused('The single-use enrollment token was already redeemed.');
    }
    if (agent.status !== 'active') {
      throw new Problem('forbidden_scope', { detail: `The agent with handle "${agent.handle}" is disabled.` });
    }
    if (!canHoldAnotherKey(await lockLiveKeyCount(tx, agent.org_id, agent.id, now))) throw keyLimitReached(agent.handle);
    const minted = mintAgentKey('project');
    const key = await insertApiKey(tx, {
      org_id: token.org_id,
      project_id: token.project_id,
      id: minted.id,
      agent_id: agent.id,
      ceiling: 'project',
      inbox_id: null,
      kind: 'agent',
      prefix: minted.prefix,
      key_hash: minted.hash,
      permissions: token.scopes ?? [...DEFAULT_PERMISSIONS],
      expires_at: null,
    });
    await countRedemption(tx, token.org_id, token.id);
    return { agent, created, key, raw: minted.raw };
  });
}

export const keyLimitReached = (handle: string, field = 'agent_handle'): Problem =>
  new Problem('conflict', {
    detail: `The agent "${handle}" already holds ${MAX_LIVE_KEYS_PER_AGENT} working keys, the most one agent may hold; revoke one on the console first.`,
    errors: [{ field, code: 'key_limit' }],
  });

/** Revokes an enrollment token of the project; none by that id is 404. */
export async function revokeEnrollment(pool: Pool, at: { org_id: string; project_id: string }, tokenId: string): Promise<void> {
  if (!(await revokeEnrollmentToken(pool, at.org_id, at.project_id, tokenId))) throw notFound('enrollment token');
}
