import type { Agent } from '../../storage/agents.ts';
import type { ApiKeyRow } from '../../storage/api-keys.ts';
import type { EnrollmentTokenRow } from '../../storage/enrollment-tokens.ts';
import type { Org, Project } from '../../storage/tenancy.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const presentProject = (p: Project) => ({ id: p.id, org_id: p.org_id, name: p.name, created_at: iso(p.created_at) });

export const presentOrg = (o: Org, projects: Project[]) => ({
  id: o.id,
  name: o.name,
  plan_tier: o.plan_tier,
  default_review_policy: o.default_review_policy,
  created_at: iso(o.created_at),
  projects: projects.map(presentProject),
});

export const presentAgent = (a: Agent) => ({
  id: a.id,
  org_id: a.org_id,
  project_id: a.project_id,
  handle: a.handle,
  display_name: a.display_name,
  status: a.status,
  created_at: iso(a.created_at),
});

export const presentApiKey = (k: ApiKeyRow) => ({
  id: k.id,
  agent_id: k.agent_id,
  prefix: k.prefix,
  ceiling: k.ceiling,
  inbox_id: k.inbox_id,
  permissions: k.permissions,
  expires_at: iso(k.expires_at),
  revoked_at: iso(k.revoked_at),
  created_at: iso(k.created_at),
});

export const presentEnrollmentToken = (t: EnrollmentTokenRow) => ({
  id: t.id,
  prefix: t.prefix,
  label: t.label,
  scopes: t.scopes,
  allowed_domains: t.allowed_domains,
  max_mailboxes: t.max_mailboxes,
  mailboxes_created: t.mailboxes_created,
  daily_send_limit: t.daily_send_limit,
  reusable: t.reusable,
  redemptions: t.redemptions,
  expires_at: iso(t.expires_at),
  revoked_at: iso(t.revoked_at),
  created_at: iso(t.created_at),
});
