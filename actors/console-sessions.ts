// Sessions of the web console. A one-time sign-in link (development identity provider) or a
// pasted provider token becomes a session: the token the page's cookie carries. The page never
// sees the token itself; it only holds the cookie.
import crypto from 'node:crypto';
import { Problem } from '../machines/problems.ts';
import { InvalidSessionError, type IdentityProvider } from '../service/identity.ts';
import { insertSignInLink, spendSignInLink } from '../storage/console-sign-in.ts';
import type { Executor } from '../storage/db.ts';
import { sha256 } from '../storage/secrets.ts';
import { listProjects, membershipsByEmail, type Membership, type Project } from '../storage/tenancy.ts';
import type { Role } from '../machines/policy/console-roles.ts';

/** How long a printed sign-in link may wait to be opened. */
export const SIGN_IN_LINK_SECONDS = 15 * 60;

export type ConsoleSession = { token: string; email: string; expires_at: Date };

/** A one-time sign-in link for `email`; the code rides in the fragment, so no server log sees it. */
export async function createSignInLink(
  db: Executor,
  identity: IdentityProvider,
  opts: { email: string; baseUrl: string; now: Date },
): Promise<{ url: string; expires_at: Date }> {
  if (!identity.mint) {
    throw new Error('sign-in links come from the development identity provider; with CONSOLE_JWKS_URL, paste your provider\'s token into the console');
  }
  const code = crypto.randomBytes(32).toString('base64url');
  const expires_at = new Date(opts.now.getTime() + SIGN_IN_LINK_SECONDS * 1000);
  await insertSignInLink(db, { code_hash: sha256(code), email: opts.email, expires_at });
  return { url: `${opts.baseUrl.replace(/\/$/, '')}/console/#sign-in=${code}`, expires_at };
}

const refused = (detail: string) => new Problem('unauthorized', { detail });

/** Trades a sign-in link's code, once, for a session of its email. */
export async function signInWithCode(db: Executor, identity: IdentityProvider, code: string, now: Date): Promise<ConsoleSession> {
  if (!identity.mint) throw refused('Sign-in links are off: this service verifies tokens of an identity provider; paste one.');
  const spent = await spendSignInLink(db, sha256(code), now);
  if (!spent) throw refused('The sign-in link is not valid: it was used already, has expired, or was never issued. Print a new one.');
  return signInWithToken(identity, await identity.mint(spent.email));
}

/** A pasted session token (the development provider's, or CONSOLE_JWKS_URL's) becomes the session. */
export async function signInWithToken(identity: IdentityProvider, token: string): Promise<ConsoleSession> {
  try {
    const who = await identity.verify(token);
    return { token, email: who.email, expires_at: new Date(who.expires_at * 1000) };
  } catch (err) {
    if (err instanceof InvalidSessionError) throw refused(`The session token is not valid: ${err.message}.`);
    throw err;
  }
}

export type ConsoleOrgReach = { org: { id: string; name: string }; role: Role | null; projects: Project[] };

/**
 * The orgs a signed-in person may open, each with the projects they reach: every project for an
 * org-wide member, else those they hold a membership in.
 */
export async function consoleReach(db: Executor, email: string): Promise<ConsoleOrgReach[]> {
  const byOrg = new Map<string, Array<Membership & { org_name: string }>>();
  for (const m of await membershipsByEmail(db, email)) byOrg.set(m.org_id, [...(byOrg.get(m.org_id) ?? []), m]);
  const out: ConsoleOrgReach[] = [];
  for (const [orgId, ms] of byOrg) {
    const orgWide = ms.find((m) => m.project_id === null) ?? null;
    const projects = (await listProjects(db, orgId)).filter((p) => orgWide || ms.some((m) => m.project_id === p.id));
    out.push({ org: { id: orgId, name: ms[0]!.org_name }, role: orgWide?.role ?? null, projects });
  }
  return out;
}
