// The console's addresses: a page registers a route (a path pattern with :params) in main.js's one
// table; the address bar, reload, back and forward follow it. Pure matching, plus a hook that
// re-renders on history changes.
import { useEffect, useState } from './ui.js';

const NAVIGATED = 'console:navigated';

/** `/console/reviews/:id` against `/console/reviews/rr_1` gives `{ id: 'rr_1' }`; no match gives null. */
export function matchPath(pattern, pathname) {
  const want = pattern.split('/').filter(Boolean);
  const have = pathname.split('/').filter(Boolean);
  if (want.length !== have.length) return null;
  const params = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(':')) params[want[i].slice(1)] = decodeURIComponent(have[i]);
    else if (want[i] !== have[i]) return null;
  }
  return params;
}

/** The first route of the table the path matches, with its params. */
export function matchRoute(routes, pathname) {
  for (const route of routes) {
    const params = matchPath(route.path, pathname);
    if (params) return { route, params };
  }
  return null;
}

/** Fills a pattern's params: `hrefOf('/console/reviews/:id', { id })`. */
export const hrefOf = (pattern, params = {}) => pattern.replace(/:(\w+)/g, (_, k) => encodeURIComponent(params[k]));

/** Goes to an address of the console, as a link would, without reloading the page. */
export function navigate(href, { replace = false } = {}) {
  if (href === location.pathname + location.search) return;
  history[replace ? 'replaceState' : 'pushState'](null, '', href);
  dispatchEvent(new Event(NAVIGATED));
}

/** The current address; re-renders on navigate, back and forward. */
export function useLocation() {
  const read = () => ({ pathname: location.pathname, search: location.search });
  const [loc, setLoc] = useState(read);
  useEffect(() => {
    const on = () => setLoc(read());
    addEventListener('popstate', on);
    addEventListener(NAVIGATED, on);
    return () => (removeEventListener('popstate', on), removeEventListener(NAVIGATED, on));
  }, []);
  return loc;
}

/** A same-page link: a real href (open in a new tab works), a plain click navigates in place. */
export function onLinkClick(e) {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  navigate(e.currentTarget.getAttribute('href'));
}
