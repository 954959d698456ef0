// Commands for orgs, projects, agents and their API keys.
import { canHoldAnotherKey } from '../machines/policy/agent-keys.ts';
import { DEFAULT_PERMISSIONS } from '../machines/policy/permissions.ts';
import { findAgent, upsertAgentByHandle, type Agent } from '../storage/agents.ts';
import { insertApiKey, lockLiveKeyCount, revokeApiKey, type ApiKeyRow, type Ceiling } from '../storage/api-keys.ts';
import { withTransaction, type Executor, type Pool } from '../storage/db.ts';
import { newId } from '../storage/ids.ts';
import { findInbox } from '../storage/inboxes.ts';
import { assertMayMint, type Minter } from '../machines/policy/console-roles.ts';
import { insertMembership, insertOrg, insertProject, upsertUser, type Org, type Project } from '../storage/tenancy.ts';
import { Problem, badRequest, notFound } from '../machines/problems.ts';
import { mintAgentKey } from './credentials.ts';
import { keyLimitReached } from './enrollment.ts';

export async function createOrgWithOwner(
  pool: Pool,
  input: { name: string; project_name?: string; owner_email: string; plan_tier: string },
): Promise<{ org: Org; project: Project }> {
  return withTransaction(pool, async (tx) => {
    const org = await insertOrg(tx, { id: newId('org'), name: input.name, plan_tier: input.plan_tier });
    const project = await insertProject(tx, { org_id: org.id, id: newId('prj'), name: input.project_name ?? 'Default' });
    const user = await upsertUser(tx, newId('usr'), input.owner_email);
    await insertMembership(tx, { org_id: org.id, user_id: user.id, project_id: null, role: 'owner' });
    return { org, project };
  });
}

export async function createProject(db: Executor, orgId: string, name: string): Promise<Project> {
  return insertProject(db, { org_id: orgId, id: newId('prj'), name });
}

export async function createAgent(
  db: Executor,
  input: { org_id: string; project_id: string; handle: string; display_name?: string | null },
): Promise<Agent> {
  const { agent, created } = await upsertAgentByHandle(db, { ...input, id: newId('agt') });
  if (!created) {
    throw new Problem('conflict', {
      detail: `The handle "${input.handle}" is already used by agent ${agent.id} in this project.`,
      errors: [{ field: 'handle', code: 'taken' }],
    });
  }
  return agent;
}

export type IssuedKey = { row: ApiKeyRow; raw: string };

export async function issueAgentKey(
  pool: Pool,
  input: {
    org_id: string;
    project_id: string;
    agent_id: string;
    ceiling: Ceiling;
    inbox_id?: string;
    permissions?: string[];
    expires_in_hours?: number;
    issuer: Minter;
    now: Date;
  },
): Promise<IssuedKey> {
  const agent = await findAgent(pool, input.org_id, input.project_id, input.agent_id);
  if (!agent) throw notFound('agent');
  if (agent.status !== 'active') throw badRequest('agent_id', 'Keys are issued only for active agents.', 'inactive');
  if (input.ceiling === 'inbox') {
    if (!input.inbox_id) throw badRequest('inbox_id', 'inbox_id is required for an inbox-ceiling key.', 'required');
    const inbox = await findInbox(pool, input.org_id, input.project_id, input.inbox_id);
    if (!inbox || inbox.agent_id !== agent.id) throw badRequest('inbox_id', 'No inbox of this agent has that id.', 'not_found');
  } else if (input.inbox_id) {
    throw badRequest('inbox_id', 'inbox_id applies only to an inbox-ceiling key.', 'not_allowed');
  }
  const permissions = input.permissions ?? DEFAULT_PERMISSIONS;
  if (permissions.includes('signup:verify')) {
    throw badRequest('permissions', 'signup:verify belongs to temporary sign-up keys only.', 'not_allowed');
  }
  assertMayMint(input.issuer, input.ceiling, permissions);
  const minted = mintAgentKey(input.ceiling);
  return withTransaction(pool, async (tx) => {
    if (!canHoldAnotherKey(await lockLiveKeyCount(tx, agent.org_id, agent.id, input.now))) throw keyLimitReached(agent.handle, 'agent_id');
    const row = await insertApiKey(tx, {
      org_id: input.org_id,
      project_id: input.ceiling === 'org' ? null : input.project_id,
      id: minted.id,
      agent_id: agent.id,
      ceiling: input.ceiling,
      inbox_id: input.ceiling === 'inbox' ? input.inbox_id! : null,
      kind: 'agent',
      prefix: minted.prefix,
      key_hash: minted.hash,
      permissions: [...permissions],
      expires_at: input.expires_in_hours ? new Date(input.now.getTime() + input.expires_in_hours * 3600_000) : null,
    });
    return { row, raw: minted.raw };
  });
}

export async function revokeAgentKey(db: Executor, orgId: string, projectId: string, agentId: string, keyId: string): Promise<void> {
  if (!(await findAgent(db, orgId, projectId, agentId))) throw notFound('agent');
  if (!(await revokeApiKey(db, orgId, agentId, keyId))) throw notFound('key');
}
