// Org settings: read with their defaults, and a PATCH of any subset (omitted fields unchanged).
import { orgSettingsOf, settingsPatchProblem, type OrgSettings, type StoredSettings } from '../machines/policy/org-settings.ts';
import { badRequest, notFound } from '../machines/problems.ts';
import type { Config } from '../service/config.ts';
import type { Executor } from '../storage/db.ts';
import { findOrg, updateOrgSettings } from '../storage/tenancy.ts';

/** The domains new inboxes may live on. */
export const hostedDomains = (config: Config) => [...new Set([config.inboxDomain, config.freeInboxDomain])];

export async function readOrgSettings(db: Executor, config: Config, orgId: string): Promise<OrgSettings> {
  const org = await findOrg(db, orgId);
  if (!org) throw notFound('org');
  return orgSettingsOf(org.name, org.settings as StoredSettings, config.inboxDomain);
}

export async function patchOrgSettings(db: Executor, config: Config, orgId: string, patch: Partial<OrgSettings>): Promise<OrgSettings> {
  const problem = settingsPatchProblem(patch, hostedDomains(config));
  if (problem) throw badRequest(problem.field, problem.detail);
  const { org_name, ...rest } = patch;
  if (rest.default_domain !== undefined) rest.default_domain = rest.default_domain.toLowerCase();
  const org = await updateOrgSettings(db, orgId, org_name, rest);
  if (!org) throw notFound('org');
  return orgSettingsOf(org.name, org.settings as StoredSettings, config.inboxDomain);
}
