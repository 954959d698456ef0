// Cross-site request forgery on the console plane. The page's session rides in a cookie that the
// browser attaches by itself; SameSite=Strict keeps other sites' pages from sending it, but not
// a sibling subdomain's page, nor a browser that ignores the attribute. So a state-changing request
// that authenticates with the cookie must also say where it comes from: its `Origin` (or, when a
// browser sent none, `Sec-Fetch-Site: same-origin`) must be the console's own origin. A bearer
// token is not attached by a browser on its own, so those requests are not checked.
import { Problem } from '../machines/problems.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export type RequestOrigin = {
  method: string;
  /** The `Origin` header, '' when absent. */
  origin: string;
  /** The `Sec-Fetch-Site` header, '' when absent. */
  fetchSite: string;
  /** The request's own origin (scheme and Host), and PUBLIC_BASE_URL's: the console's. */
  own: string[];
};

/** A 403 `cross_origin_refused` for a cookie-authenticated write from elsewhere; null when it may pass. */
export function crossOriginProblem(r: RequestOrigin): Problem | null {
  if (SAFE_METHODS.has(r.method.toUpperCase())) return null;
  if (r.origin !== '' && r.origin !== 'null') {
    if (r.own.includes(r.origin.toLowerCase())) return null;
    return refused(`The request comes from ${r.origin}, not from the console's own origin.`);
  }
  if (r.origin === '' && r.fetchSite.toLowerCase() === 'same-origin') return null;
  return refused('A console session cookie is accepted on a write only from the console\'s own pages (an Origin header of this origin, or Sec-Fetch-Site: same-origin).');
}

const refused = (detail: string) =>
  new Problem('cross_origin_refused', {
    detail: `${detail} Send the session token as "Authorization: Bearer <token>" from other clients.`,
    errors: [{ field: 'Origin', code: 'cross_origin' }],
  });

/** The origin (scheme://host[:port], lower case) of a URL, or null when it has none. */
export function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.origin === 'null' ? null : u.origin.toLowerCase();
  } catch {
    return null;
  }
}
