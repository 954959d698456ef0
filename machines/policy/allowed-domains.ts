// An enrollment key's allowed_domains: the recipient domains its agents may send to and the
// domains of the inboxes they may create. Null or empty: any domain. A listed domain also covers
// its subdomains (example.com allows mail.example.com), as a mail domain owner would expect.
import { Problem } from '../problems.ts';

export function domainAllowed(domain: string, allowed: readonly string[] | null): boolean {
  if (!allowed || allowed.length === 0) return true;
  const d = domain.toLowerCase();
  return allowed.some((a) => d === a || d.endsWith(`.${a}`));
}

/** The first address whose domain the list leaves out, or null when every one is allowed. */
export function firstDisallowed(addresses: readonly string[], allowed: readonly string[] | null): string | null {
  return addresses.find((a) => !domainAllowed(a.slice(a.lastIndexOf('@') + 1), allowed)) ?? null;
}

export const domainNotAllowed = (field: string, domain: string, allowed: readonly string[]): Problem =>
  new Problem('domain_not_allowed', {
    detail: `${domain} is outside the domains this agent's enrollment key allows (${allowed.join(', ')}). Nothing was written.`,
    errors: [{ field, code: 'domain_not_allowed', detail: domain }],
    extra: { error: 'domain_not_allowed', message: `${domain} is not an allowed domain`, allowed_domains: allowed },
  });
