// The review queue: reviews waiting for a human, newest activity first, kept current by the
// console plane's event stream (EventSource resumes with Last-Event-ID by itself), and worked
// with the keyboard.
import { ApiError, get, post } from './api.js';
import { KeyHelp, typingIn } from './keys.js';
import { ReviewDetail } from './review.js';
import { html, useEffect, useRef, useState } from './ui.js';

const WAITING = 'needs_review,in_review,chatting';
const REVIEW_EVENTS = [
  'review.created', 'review.needs_review', 'review.in_review', 'review.chat', 'review.approved', 'review.rejected',
  'review.edited', 'review.stale', 'review.reconfirmed', 'review.sent', 'review.auto_sent', 'review.failed',
  'review.stalled', 'review.cancelled', 'review.rule_changed',
];
const PAST = { approve: 'Approved', edit: 'Edited and sent', reject: 'Rejected', chat: 'Message sent on', cancel: 'Cancelled', open: 'Opened' };

export function age(iso, now = Date.now()) {
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 86400) return `${Math.floor(s / 3600)} h`;
  return `${Math.floor(s / 86400)} d`;
}

/** What a reviewer should notice before approving, from the review's own record. */
export function flagsOf(r) {
  const flags = [];
  if (r.hops > 0) flags.push(`handed back ${r.hops}×`);
  if (r.effective_mode === 'review' && r.category_id) flags.push('category in review');
  if (r.draft.attachments?.length) flags.push(`${r.draft.attachments.length} attachment(s)`);
  if (r.intent?.meta?.urgency) flags.push(`urgency: ${r.intent.meta.urgency}`);
  if (r.send_needs_reconciliation) flags.push('needs reconciliation');
  if (r.last_error) flags.push('last send failed');
  return flags;
}

const recipients = (r) => [...r.draft.to, ...r.draft.cc].map((p) => p.email ?? p).join(', ');
const routeLabel = (r) => (r.route === 'reviewer_agent' ? 'reviewer agent' : r.hops > 0 || r.reviewer_agent_id ? 'escalated to human' : 'human');

export function Queue({ base, initialOpen = null }) {
  const [reviews, setReviews] = useState(null);
  const [inboxes, setInboxes] = useState({});
  const [sel, setSel] = useState(0);
  const [openId, setOpenId] = useState(initialOpen);
  const [mode, setMode] = useState(null);
  const [help, setHelp] = useState(false);
  const [status, setStatus] = useState('');
  const [conflict, setConflict] = useState(null);
  const [changedIds, setChangedIds] = useState(new Set());
  const [loadError, setLoadError] = useState(null);
  // Bumped to read the open review again after a decision that leaves it open (chat, open).
  const [readAgain, setReadAgain] = useState(0);
  const state = useRef({});

  const reload = async () => {
    try {
      const page = await get(`${base}/reviews?state=${WAITING}&limit=100`);
      setReviews([...page.data].sort((a, b) => Date.parse(b.updated_at) - Date.parse(a.updated_at)));
    } catch (err) {
      setLoadError(err.message);
    }
  };

  useEffect(() => {
    reload();
    get(`${base}/inboxes?limit=100`).then((p) => setInboxes(Object.fromEntries(p.data.map((i) => [i.id, i.address]))), () => {});
    const stream = new EventSource(`${base}/events/stream?types=${REVIEW_EVENTS.join(',')}`);
    const onEvent = (e) => {
      const id = JSON.parse(e.data).review_id;
      if (id) setChangedIds((s) => new Set(s).add(id));
      reload();
    };
    for (const t of REVIEW_EVENTS) stream.addEventListener(t, onEvent);
    return () => stream.close();
  }, [base]);

  const list = reviews ?? [];
  const current = () => (openId ? list.find((r) => r.id === openId) ?? state.current.detail : list[Math.min(sel, list.length - 1)]);

  const open = (id, m = null) => {
    setChangedIds((s) => {
      const next = new Set(s);
      next.delete(id);
      return next;
    });
    setConflict(null);
    setOpenId(id);
    setMode(m);
  };
  const close = () => {
    setOpenId(null);
    setMode(null);
  };

  /** Sends a decision on the revision the reviewer saw; a review that moved on shows why, and what is legal now. */
  const decide = async (review, body) => {
    try {
      // A human chats on an open review: one still waiting is opened first, as the machine asks.
      if (body.action === 'chat' && review.state === 'needs_review') {
        await post(`${base}/reviews/${review.id}/decision`, { parent_revision: review.revision, action: 'open' });
      }
      await post(`${base}/reviews/${review.id}/decision`, { parent_revision: review.revision, ...body });
      setStatus(`${PAST[body.action]} ${review.draft.subject ?? review.id}.`);
      setConflict(null);
      if (body.action !== 'chat' && body.action !== 'open') close();
      else setMode(null), setReadAgain((n) => n + 1);
      await reload();
      return true;
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 409) {
        setStatus(`Could not ${body.action}: ${err.message}`);
        return false;
      }
      const now = await get(`${base}/reviews/${review.id}`).catch(() => null);
      setConflict({ error: err, action: body.action, review: now });
      return false;
    }
  };

  // One key handler for the page; keys typed into fields belong to the field.
  state.current = { ...state.current, list, sel, openId, help, conflict, current, decide, open, close };
  useEffect(() => {
    const onKey = (e) => {
      const s = state.current;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === 'Escape') {
        if (s.help) setHelp(false);
        else if (typingIn(e.target)) setMode(null);
        else if (s.openId) s.close();
        return;
      }
      if (typingIn(e.target)) return;
      if (e.key === '?') return setHelp((h) => !h), e.preventDefault();
      if (s.help) return;
      const r = s.current();
      const handled = {
        j: () => !s.openId && (setSel((i) => Math.min(i + 1, s.list.length - 1)), true),
        k: () => !s.openId && (setSel((i) => Math.max(i - 1, 0)), true),
        // Enter on a button is the button's own.
        Enter: () => !s.openId && r && !(e.target instanceof HTMLButtonElement) && (s.open(r.id), true),
        a: () => r && (s.decide(r, { action: 'approve' }), true),
        x: () => r && (s.decide(r, { action: 'cancel' }), true),
        e: () => r && (s.open(r.id, 'edit'), true),
        r: () => r && (s.open(r.id, 'reject'), true),
        c: () => r && (s.open(r.id, 'chat'), true),
      }[e.key]?.();
      if (!handled) return;
      e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const conflictView = conflict &&
    html`<section class="conflict" role="alert" aria-labelledby="conflict-title">
      <h2 id="conflict-title">This review moved on: ${conflict.action} was not applied</h2>
      <p>${conflict.error.message} <code>${conflict.error.code}</code></p>
      ${conflict.review && html`<p>It is now <strong>${conflict.review.state}</strong>, revision ${conflict.review.revision}.</p>`}
      <p>Legal now: ${conflict.error.allowedActions.length ? conflict.error.allowedActions.join(', ') : 'nothing; it is finished'}</p>
      <div class="actions">
        ${conflict.review &&
        conflict.review.allowed_actions.map((verb) =>
          ['edit', 'reject', 'chat'].includes(verb)
            ? html`<button type="button" onClick=${() => open(conflict.review.id, verb)}>${verb}</button>`
            : html`<button type="button" onClick=${() => decide(conflict.review, { action: verb })}>${verb}</button>`,
        )}
        <button type="button" onClick=${() => setConflict(null)}>Dismiss</button>
      </div>
    </section>`;

  return html`<main>
    <p class="status" role="status" aria-live="polite">${status}</p>
    ${conflictView}
    ${help && html`<${KeyHelp} onClose=${() => setHelp(false)} />`}
    ${openId
      ? html`<${ReviewDetail} key=${`${openId}/${readAgain}`} base=${base} id=${openId} mode=${mode} setMode=${setMode} decide=${decide}
          changed=${changedIds.has(openId)} inbox=${(id) => inboxes[id] ?? id} onLoaded=${(r) => (state.current.detail = r)} onClose=${close} />`
      : html`<h1>Review queue</h1>
        <p class="hint">Press <kbd>?</kbd> for the keys.</p>
        ${loadError && html`<p role="alert" class="error">${loadError}</p>`}
        ${reviews === null
          ? html`<p>Loading…</p>`
          : list.length === 0
            ? html`<p>Nothing waits for review.</p>`
            : html`<table class="queue">
                <caption class="visually-hidden">Reviews waiting for a human, newest activity first</caption>
                <thead><tr><th scope="col">Inbox</th><th scope="col">To</th><th scope="col">Subject</th><th scope="col">Intent</th><th scope="col">Age</th><th scope="col">Category</th><th scope="col">Route</th><th scope="col">Flags</th></tr></thead>
                <tbody>
                  ${list.map(
                    (r, i) => html`<tr key=${r.id} data-review=${r.id} class=${i === Math.min(sel, list.length - 1) ? 'selected' : ''} aria-current=${i === Math.min(sel, list.length - 1) ? 'true' : undefined}>
                      <td>${inboxes[r.inbox_id] ?? r.inbox_id}</td>
                      <td>${recipients(r)}</td>
                      <td><button type="button" class="link" onClick=${() => (setSel(i), open(r.id))}>${r.draft.subject || '(no subject)'}</button></td>
                      <td>${r.intent?.summary ?? ''}</td>
                      <td>${age(r.updated_at)}</td>
                      <td>${r.category_id ?? '—'}</td>
                      <td>${routeLabel(r)}</td>
                      <td>${flagsOf(r).join('; ')}</td>
                    </tr>`,
                  )}
                </tbody>
              </table>`}`}
  </main>`;
}
