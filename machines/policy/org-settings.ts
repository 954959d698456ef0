// Org settings (the contract's "Org settings"): their defaults, and what a PATCH may set. Pure.
//
// The record lives as the org's name plus a JSON object of the other fields; a field never set
// reads as its default here, so adding one needs no migration.

export const ONBOARDING_MODES = ['enrollment_token', 'self_signup', 'invitation_only'] as const;
export const X402_MODES = ['off', 'test', 'live'] as const;

export type OrgSettings = {
  org_name: string;
  default_domain: string;
  default_onboarding_mode: (typeof ONBOARDING_MODES)[number];
  default_mailbox_cap: number | null;
  webhook_signing_prefix: string;
  x402_mode: (typeof X402_MODES)[number];
  early_access: boolean;
};

export type StoredSettings = Partial<Omit<OrgSettings, 'org_name'>>;

/** The whole record: what was set, else the defaults (`default_domain` is the service's INBOX_DOMAIN). */
export function orgSettingsOf(name: string, stored: StoredSettings, inboxDomain: string): OrgSettings {
  return {
    org_name: name,
    default_domain: stored.default_domain ?? inboxDomain,
    default_onboarding_mode: stored.default_onboarding_mode ?? 'enrollment_token',
    default_mailbox_cap: stored.default_mailbox_cap ?? null,
    webhook_signing_prefix: stored.webhook_signing_prefix ?? 'v1',
    x402_mode: stored.x402_mode ?? 'off',
    early_access: stored.early_access ?? false,
  };
}

/**
 * Checks what the schema cannot: the default domain must be one this service hosts. Returns the
 * offending field and why, or null.
 */
export function settingsPatchProblem(patch: Partial<OrgSettings>, hostedDomains: string[]): { field: string; detail: string } | null {
  if (patch.default_domain !== undefined && !hostedDomains.includes(patch.default_domain.toLowerCase())) {
    return { field: 'default_domain', detail: `default_domain must be a domain this service hosts: ${hostedDomains.join(' or ')}.` };
  }
  return null;
}
