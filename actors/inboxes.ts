// Creating an inbox: an address on the service's domain or a verified custom domain, under the org's plan inbox limit and,
// for an agent enrolled with a token, the token's lifetime allowance. The org row lock makes
// the count and the insert one step, so concurrent creations cannot pass a limit together.
import { addressOf, checkUsername, generatedLocalPart } from '../machines/policy/inbox-address.ts';
import { DEFAULT_PLANS, checkQuota, planOf, type Plans, type QuotaCheck } from '../machines/policy/plans.ts';
import { domainAllowed, domainNotAllowed } from '../machines/policy/allowed-domains.ts';
import { findAgentInOrg } from '../storage/agents.ts';
import { withTransaction, type Executor, type Pool } from '../storage/db.ts';
import { findDomain } from '../storage/domains.ts';
import { countMailboxCreated, lockEnrollmentToken } from '../storage/enrollment-tokens.ts';
import { newId, randomToken } from '../storage/ids.ts';
import { countInboxesOfOrg, insertInbox, lockOrgForInboxes, type InboxWithPolicy } from '../storage/inboxes.ts';
import { Problem, badRequest, notFound, quotaExceeded } from '../machines/problems.ts';
import { webhookTargetProblem } from './webhook-transport.ts';

export type CreateInboxInput = {
  org_id: string;
  /** The project asked for; null: the agent's own (an org key without X-Project-Id). */
  project_id: string | null;
  agent_id: string;
  created_by: 'agent' | 'console';
  /** The ceiling of the agent key creating it. */
  key_ceiling?: 'org' | 'project' | 'inbox';
  display_name?: string | null;
  username?: string;
  domain?: string;
  domain_id?: string;
  webhook_url?: string | null;
};

// Generated addresses carry a random suffix; a collision is retried with a new one.
const GENERATE_ATTEMPTS = 5;

export async function createInbox(
  pool: Pool,
  inboxDomain: string,
  input: CreateInboxInput,
  now: Date,
  plans: Plans = DEFAULT_PLANS,
  opts: { webhookAllowPrivate: boolean } = { webhookAllowPrivate: false },
): Promise<InboxWithPolicy> {
  if (input.key_ceiling === 'inbox') {
    throw new Problem('forbidden_scope', { detail: 'An inbox key reaches one inbox and cannot create another.' });
  }
  const chosen = input.username === undefined ? null : checkUsername(input.username);
  if (chosen && !chosen.ok) throw badRequest('username', `The username is not usable: ${chosen.reason}.`);
  // Checked as a webhook's url is: a target the service would refuse to post to is not stored.
  if (input.webhook_url) {
    const problem = await webhookTargetProblem(input.webhook_url, opts.webhookAllowPrivate);
    if (problem) throw badRequest('webhook_url', `webhook_url ${problem}.`, 'target_refused');
  }

  return withTransaction(pool, async (tx) => {
    const org = await lockOrgForInboxes(tx, input.org_id);
    if (!org) throw notFound('org');
    const agent = await findAgentInOrg(tx, input.org_id, input.agent_id);
    if (input.created_by === 'console' && (!agent || agent.status !== 'active' || agent.project_id !== input.project_id)) {
      throw badRequest('agent_id', 'No active agent with this id in the project.', 'not_found');
    }
    if (!agent) throw notFound('agent');
    if (input.project_id !== null && agent.project_id !== input.project_id) {
      throw badRequest('X-Project-Id', `An inbox is created in its agent's project, ${agent.project_id}.`, 'mismatch');
    }
    const domain = await chooseDomain(tx, inboxDomain, org.default_domain, input, agent.project_id);

    const plan = planOf(org.plan_tier, plans);
    const inboxes = checkQuota(await countInboxesOfOrg(tx, input.org_id), plan.inbox_limit);
    if (!inboxes.allowed) {
      throw inboxQuotaExceeded('inbox_limit_exceeded', inboxes, true,
        `The ${plan.name} plan includes ${plan.inbox_limit} inboxes and all are in use; delete one or upgrade the plan.`);
    }

    // Only an agent's own creations draw on the allowance of the token that enrolled it.
    const tokenId = input.created_by === 'agent' ? agent.enrollment_token_id : null;
    if (tokenId) {
      const token = await lockEnrollmentToken(tx, tokenId);
      if (token && !domainAllowed(domain, token.allowed_domains)) throw domainNotAllowed('domain', domain, token.allowed_domains!);
      if (token && token.max_mailboxes !== null) {
        const budget = checkQuota(token.mailboxes_created, token.max_mailboxes);
        if (!budget.allowed) {
          throw inboxQuotaExceeded('enrollment_token_mailbox_budget_exhausted', budget, false,
            `The enrollment token of this agent allows ${token.max_mailboxes} inboxes over its lifetime, and all were created.`);
        }
      }
      if (token) await countMailboxCreated(tx, token.org_id, token.id);
    }

    for (let attempt = 0; attempt < GENERATE_ATTEMPTS; attempt++) {
      const local = chosen?.ok ? chosen.local : generatedLocalPart(input.display_name, randomToken(6));
      const row = await insertInbox(tx, {
        org_id: input.org_id,
        project_id: agent.project_id,
        id: newId('inb'),
        agent_id: agent.id,
        address: addressOf(local, domain),
        domain,
        display_name: input.display_name ?? null,
        webhook_url: input.webhook_url ?? null,
        created_by: input.created_by,
        enrollment_token_id: tokenId,
      });
      if (row) return { ...row, default_review_policy: org.default_review_policy };
      if (chosen) {
        throw new Problem('conflict', {
          detail: `The address ${addressOf(chosen.ok ? chosen.local : '', domain)} is taken; choose another username.`,
          errors: [{ field: 'username', code: 'taken' }],
        });
      }
    }
    throw new Problem('conflict', { detail: 'No free address was found; retry the request.' });
  });
}

/**
 * The domain of a new inbox: the one asked for, else the org's `default_domain` setting, else the
 * service's domain (INBOX_DOMAIN). Those two are open to every org; any other must be a custom
 * domain of the project (named by id or by name) that is verified, so mail to the address arrives.
 */
async function chooseDomain(tx: Executor, inboxDomain: string, orgDefault: string | null, input: CreateInboxInput, projectId: string): Promise<string> {
  const field = input.domain_id !== undefined ? 'domain_id' : 'domain';
  const wanted = input.domain_id ?? input.domain;
  const open = [...new Set([orgDefault ?? inboxDomain, inboxDomain])];
  if (wanted === undefined) return open[0]!;
  if (field === 'domain' && open.includes(wanted.toLowerCase())) return wanted.toLowerCase();
  const custom = await findDomain(tx, input.org_id, projectId, wanted);
  if (!custom || (field === 'domain_id' && custom.id !== wanted)) {
    throw badRequest(field, `Inboxes can be created on ${open.join(' or ')} or on a verified custom domain; ${wanted} is not onboarded in this project.`, 'not_found');
  }
  if (custom.status !== 'verified') {
    throw badRequest(field, `The domain ${custom.name} is ${custom.status}: publish its DNS records and verify it (POST .../domains/${custom.name}/verify) before creating inboxes on it.`, 'not_verified');
  }
  return custom.name;
}

function inboxQuotaExceeded(reason: string, q: QuotaCheck, upgradeRequired: boolean, message: string): Problem {
  return quotaExceeded(message, {
    reason,
    used: q.used,
    delta: 1,
    limit: q.limit,
    remaining: q.remaining,
    consumed: q.used,
    reserved: 0,
    // A count (the plan's inboxes, a key's lifetime budget): no reset frees a slot, a deletion does.
    upgrade_required: upgradeRequired,
  });
}
