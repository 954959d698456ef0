// The console's entry: trade a one-time sign-in link for a session, or take a pasted token; then
// pick an org and project and open the page the address names (ROUTES).
import { ApiError, call, get, projectPath } from './api.js';
import { Mail } from './mail.js';
import { AutoSendNotices, ParkedSendsNotice } from './notices.js';
import { Queue, REVIEW_PATH, ReviewPage } from './queue.js';
import { reviewFeed } from './live.js';
import { hrefOf, matchRoute, navigate, useLocation } from './router.js';
import { Settings } from './settings.js';
import { html, render, useEffect, useMemo, useState } from './ui.js';

const SIGN_IN = '#sign-in=';

async function signInFromLink() {
  if (!location.hash.startsWith(SIGN_IN)) return null;
  const code = location.hash.slice(SIGN_IN.length);
  // The code is spent by this call: take it out of the address bar and the history at once.
  history.replaceState(null, '', location.pathname);
  try {
    await call('POST', '/console/session', { code });
    return null;
  } catch (err) {
    return err instanceof ApiError ? err.message : String(err);
  }
}

function SignIn({ problem, onSignedIn }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState(problem);
  const submit = async (e) => {
    e.preventDefault();
    try {
      await call('POST', '/console/session', { token: token.trim() });
      onSignedIn();
    } catch (err) {
      setError(err.message);
    }
  };
  return html`<section class="sign-in" aria-labelledby="sign-in-title">
    <h1 id="sign-in-title">Sign in to agent-inbox</h1>
    <p>Open a sign-in link from <code>agent-inbox console-token --email you@example.com --link</code>, or paste a session token.</p>
    ${error && html`<p role="alert" class="error">${error}</p>`}
    <form onSubmit=${submit}>
      <label for="token">Session token</label>
      <textarea id="token" rows="4" value=${token} onInput=${(e) => setToken(e.target.value)} required></textarea>
      <button type="submit">Sign in</button>
    </form>
  </section>`;
}

/**
 * Every page of the console, by address: the first match wins, a reload serves the same shell
 * (console/server.ts) and lands here again. A page with `nav` is listed in the header; `section`
 * says which header entry a deeper page belongs to. A view gets `{ base, feed, inbox, announce, params }`.
 */
const ROUTES = [
  { path: '/console/', nav: 'Review queue', view: Queue },
  // `locate`: the record an address names, under a project's API path. The address names no
  // project, so on arrival the member's project that has it is the one shown.
  { path: REVIEW_PATH, section: '/console/', view: ReviewPage, locate: (p) => `/reviews/${encodeURIComponent(p.id)}` },
  { path: '/console/mail', nav: 'Mail', view: Mail },
  { path: '/console/mail/:inbox', section: '/console/mail', view: Mail, locate: (p) => `/inboxes/${encodeURIComponent(p.inbox)}/messages?limit=1` },
  { path: '/console/mail/:inbox/:message', section: '/console/mail', view: Mail, locate: (p) => `/inboxes/${encodeURIComponent(p.inbox)}/messages/${encodeURIComponent(p.message)}` },
  { path: '/console/settings', nav: 'Settings', view: Settings },
];
const PROJECT_KEY = 'agent-inbox:project';

function Shell({ me, onSignOut }) {
  const choices = me.orgs.flatMap((o) => o.projects.map((p) => ({ key: `${o.id}/${p.id}`, label: `${o.name} / ${p.name}`, org: o.id, project: p.id })));
  const remembered = localStorage.getItem(PROJECT_KEY);
  const [pick, setPick] = useState(choices.some((c) => c.key === remembered) ? remembered : (choices[0]?.key ?? ''));
  const [located, setLocated] = useState(choices.length < 2);
  useEffect(() => {
    if (located) return;
    const here = matchRoute(ROUTES, location.pathname);
    const locate = here?.route.locate;
    if (!locate) return setLocated(true);
    const order = [...choices].sort((a, b) => (b.key === pick) - (a.key === pick));
    (async () => {
      for (const c of order) {
        if (await get(projectPath(c.org, c.project) + locate(here.params)).then(() => true, () => false)) return setPick(c.key);
      }
    })().finally(() => setLocated(true));
  }, []);
  const [status, setStatus] = useState('');
  const [inboxes, setInboxes] = useState({});
  const loc = useLocation();
  const chosen = choices.find((c) => c.key === pick);
  const base = chosen && projectPath(chosen.org, chosen.project);
  // One stream of review events per project, shared by every view.
  const feed = useMemo(() => base && reviewFeed(base), [base]);
  useEffect(() => () => feed?.close(), [feed]);
  useEffect(() => {
    if (!base) return;
    localStorage.setItem(PROJECT_KEY, pick);
    get(`${base}/inboxes?limit=100`).then((p) => setInboxes(Object.fromEntries(p.data.map((i) => [i.id, i.address]))), () => {});
  }, [base]);
  const found = matchRoute(ROUTES, loc.pathname);
  const section = found && (found.route.section ?? found.route.path);
  const View = found?.route.view;
  return html`<header class="bar">
      <strong>agent-inbox</strong>
      ${choices.length > 1 &&
      html`<label>Project <select value=${pick} onChange=${(e) => setPick(e.target.value)}>
        ${choices.map((c) => html`<option value=${c.key}>${c.label}</option>`)}
      </select></label>`}
      ${choices.length === 1 && html`<span>${choices[0].label}</span>`}
      <nav aria-label="Views">
        ${ROUTES.filter((r) => r.nav).map((r) => html`<button type="button" aria-pressed=${section === r.path ? 'true' : 'false'} onClick=${() => navigate(r.path)}>${r.nav}</button>`)}
      </nav>
      ${chosen && html`<${AutoSendNotices} key=${chosen.key} base=${base} onOpenReview=${(id) => navigate(hrefOf(REVIEW_PATH, { id }))} />`}
      <span class="who">${me.email}</span>
      <button type="button" onClick=${onSignOut}>Sign out</button>
    </header>
    ${chosen && html`<${ParkedSendsNotice} key=${chosen.key} base=${base} onOpenReview=${(id) => navigate(hrefOf(REVIEW_PATH, { id }))} />`}
    <p class="status" role="status" aria-live="polite">${status}</p>
    ${!located
      ? html`<main><p>Loading…</p></main>`
      : !chosen
      ? html`<main><h1>No projects</h1><p>${me.email} is not a member of any org yet.</p></main>`
      : !View
        ? html`<main><h1>Not found</h1><p>The console has no page at ${loc.pathname}.</p></main>`
        : html`<${View} key=${`${chosen.key}${section}`} base=${base} feed=${feed} inbox=${(id) => inboxes[id] ?? id} announce=${setStatus} params=${found.params} />`}`;
}

function App() {
  const [me, setMe] = useState(undefined);
  const [problem, setProblem] = useState(null);
  const load = async () => {
    try {
      setMe(await get('/v1/admin/me'));
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) setMe(null);
      else setProblem(err.message);
    }
  };
  useEffect(() => {
    signInFromLink().then((p) => {
      if (p) setProblem(p);
      return load();
    });
  }, []);
  const signOut = async () => {
    await call('DELETE', '/console/session');
    setMe(null);
  };
  if (me === undefined) return html`<p>Loading…</p>`;
  if (me === null) return html`<main><${SignIn} problem=${problem} onSignedIn=${load} /></main>`;
  return html`<${Shell} me=${me} onSignOut=${signOut} />`;
}

const root = document.getElementById('root');
root.textContent = '';
render(html`<${App} />`, root);
