// The console's entry: trade a one-time sign-in link for a session, or take a pasted token; then
// pick an org and project and open the review queue, the mail viewer or the settings.
import { ApiError, call, get, projectPath } from './api.js';
import { Mail } from './mail.js';
import { AutoSendNotices, ParkedSendsNotice } from './notices.js';
import { Queue } from './queue.js';
import { Settings } from './settings.js';
import { html, render, useEffect, useState } from './ui.js';

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

const VIEWS = { queue: Queue, mail: Mail, settings: Settings };

function Shell({ me, onSignOut }) {
  const choices = me.orgs.flatMap((o) => o.projects.map((p) => ({ key: `${o.id}/${p.id}`, label: `${o.name} / ${p.name}`, org: o.id, project: p.id })));
  const [pick, setPick] = useState(choices[0]?.key ?? '');
  const [view, setView] = useState('queue');
  // A review opened from elsewhere (a notification) rather than from the queue's list.
  const [focusReview, setFocusReview] = useState(null);
  const chosen = choices.find((c) => c.key === pick);
  const openReview = (id) => (setFocusReview(id), setView('queue'));
  return html`<header class="bar">
      <strong>agent-inbox</strong>
      ${choices.length > 1 &&
      html`<label>Project <select value=${pick} onChange=${(e) => setPick(e.target.value)}>
        ${choices.map((c) => html`<option value=${c.key}>${c.label}</option>`)}
      </select></label>`}
      ${choices.length === 1 && html`<span>${choices[0].label}</span>`}
      <nav aria-label="Views">
        <button type="button" aria-pressed=${view === 'queue' ? 'true' : 'false'} onClick=${() => setView('queue')}>Review queue</button>
        <button type="button" aria-pressed=${view === 'mail' ? 'true' : 'false'} onClick=${() => setView('mail')}>Mail</button>
        <button type="button" aria-pressed=${view === 'settings' ? 'true' : 'false'} onClick=${() => setView('settings')}>Settings</button>
      </nav>
      ${chosen && html`<${AutoSendNotices} key=${chosen.key} base=${projectPath(chosen.org, chosen.project)} onOpenReview=${openReview} />`}
      <span class="who">${me.email}</span>
      <button type="button" onClick=${onSignOut}>Sign out</button>
    </header>
    ${chosen && html`<${ParkedSendsNotice} key=${chosen.key} base=${projectPath(chosen.org, chosen.project)} onOpenReview=${openReview} />`}
    ${chosen
      ? view === 'queue'
        ? html`<${Queue} key=${`${chosen.key}/${focusReview}`} base=${projectPath(chosen.org, chosen.project)} initialOpen=${focusReview} />`
        : html`<${VIEWS[view]} key=${chosen.key} base=${projectPath(chosen.org, chosen.project)} />`
      : html`<main><h1>No projects</h1><p>${me.email} is not a member of any org yet.</p></main>`}`;
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
