// The review queue: reviews waiting for a human, newest activity first, kept current by the
// project's event stream; the list on one side and the selected review, whole, on the other. Decision
// keys act on that preview pane, which is the review on screen; Enter opens its own page.
import { get } from './api.js';
import { KeyHelp, typingIn } from './keys.js';
import { FINISHING, ReviewPane } from './review.js';
import { hrefOf, navigate, onLinkClick } from './router.js';
import { whoList } from './thread.js';
import { When } from './time.js';
import { html, useEffect, useRef, useState } from './ui.js';

const WAITING = 'needs_review,in_review,chatting';
export const REVIEW_PATH = '/console/reviews/:id';
const PAST = { approve: 'Approved', edit: 'Edited and sent', reject: 'Rejected', chat: 'Message sent on', cancel: 'Cancelled' };

/** What a reviewer should notice before approving, from the review's own record. */
export function flagsOf(r) {
  const flags = [];
  if (r.hops > 0) flags.push(`handed back ${r.hops}×`);
  if (r.effective_mode === 'review' && r.category_id) flags.push('category in review');
  if (r.draft.attachments?.length) flags.push(`${r.draft.attachments.length} attachment(s)`);
  if (r.intent?.meta?.urgency) flags.push(`urgency: ${r.intent.meta.urgency}`);
  if (r.send_needs_reconciliation) flags.push('needs reconciliation');
  if (r.last_error) flags.push('last send failed');
  // Held for a human whatever the policy: say why, so the human looks at the reason first.
  if (r.mode_reason === 'loop_suspected') flags.push('held: mail loop suspected');
  if (r.mode_reason === 'sender_health') flags.push("held: the inbox's bounces or complaints are past their limit");
  return flags;
}

const routeLabel = (r) => (r.route === 'reviewer_agent' ? 'reviewer agent' : r.hops > 0 || r.reviewer_agent_id ? 'escalated to human' : 'human');

/** The announcement after a decision the service applied. */
export const decidedText = (action, review) => `${PAST[action]} ${review.draft.subject ?? review.id}.`;

/** The `?` list and Escape, for every view that has decision keys. */
export function useHelpKey(onEscape) {
  const [help, setHelp] = useState(false);
  const ref = useRef();
  ref.current = { help, onEscape };
  useEffect(() => {
    const onKey = (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === 'Escape' && ref.current.help) return setHelp(false);
      if (typingIn(e.target) || e.target.closest?.('form')) return;
      if (e.key === 'Escape') return ref.current.onEscape?.();
      if (e.key === '?') return setHelp((h) => !h), e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return help && html`<${KeyHelp} onClose=${() => setHelp(false)} />`;
}

export function Queue({ base, feed, inbox, announce }) {
  const [reviews, setReviews] = useState(null);
  // The selection is a review, not a place in the list: the list reorders as reviews change.
  const [selId, setSelId] = useState(null);
  const [loadError, setLoadError] = useState(null);
  const help = useHelpKey(null);

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
    return feed.subscribe(() => reload());
  }, [feed]);

  const list = reviews ?? [];
  const sel = selId ?? list[0]?.id ?? null;
  const state = useRef({});
  state.current = { list, sel };
  useEffect(() => {
    const onKey = (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey || typingIn(e.target) || e.target.closest?.('form') || document.querySelector('[role="dialog"]')) return;
      const { list: l, sel: id } = state.current;
      const i = l.findIndex((r) => r.id === id);
      const move = { j: 1, k: -1 }[e.key];
      if (move && l.length) {
        e.preventDefault();
        setSelId(l[Math.max(0, Math.min(l.length - 1, (i < 0 ? 0 : i + move)))].id);
      } else if (e.key === 'Enter' && id && !(e.target instanceof HTMLButtonElement || e.target instanceof HTMLAnchorElement)) {
        e.preventDefault();
        navigate(hrefOf(REVIEW_PATH, { id }));
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const onDecided = (action, review) => {
    announce(decidedText(action, review));
    if (!FINISHING.includes(action)) return;
    // The next review in the list takes the pane: the human moves on, and sees it whole first.
    const l = state.current.list;
    const i = l.findIndex((r) => r.id === review.id);
    const next = l.filter((r) => r.id !== review.id)[Math.max(0, Math.min(i, l.length - 2))];
    setSelId(next?.id ?? null);
    reload();
  };

  return html`<main class="queue-page">
    ${help}
    <div class="queue-list">
      <h1>Review queue</h1>
      <p class="hint">Press <kbd>?</kbd> for the keys.</p>
      ${loadError && html`<p role="alert" class="error">${loadError}</p>`}
      ${reviews === null
        ? html`<p>Loading…</p>`
        : list.length === 0
          ? html`<p>Nothing waits for review.</p>`
          : html`<table class="queue">
              <caption class="visually-hidden">Reviews waiting for a human, newest activity first</caption>
              <thead><tr><th scope="col">Subject</th><th scope="col">To</th><th scope="col">Updated</th><th scope="col">Category</th><th scope="col">Route</th><th scope="col">Flags</th></tr></thead>
              <tbody>
                ${list.map(
                  (r) => html`<tr key=${r.id} data-review=${r.id} class=${r.id === sel ? 'selected' : ''} aria-current=${r.id === sel ? 'true' : undefined}>
                    <td><button type="button" class="link" aria-pressed=${r.id === sel ? 'true' : 'false'} onClick=${() => setSelId(r.id)}>${r.draft.subject || '(no subject)'}</button>
                      <div class="hint">${r.intent?.summary ?? ''}</div></td>
                    <td>${whoList(r.draft.to)}</td>
                    <td><${When} at=${r.updated_at} /></td>
                    <td>${r.category_id ?? '—'}</td>
                    <td>${routeLabel(r)}</td>
                    <td>${flagsOf(r).join('; ')}</td>
                  </tr>`,
                )}
              </tbody>
            </table>`}
    </div>
    <section class="queue-preview" aria-label="Selected review">
      ${sel
        ? html`<p><a href=${hrefOf(REVIEW_PATH, { id: sel })} onClick=${onLinkClick}>Open the review, with its conversation <kbd>Enter</kbd></a></p>
          <${ReviewPane} key=${sel} base=${base} id=${sel} feed=${feed} full=${false} inbox=${inbox} onDecided=${onDecided} announce=${announce} />`
        : html`<p>Select a review to see it here.</p>`}
    </section>
  </main>`;
}

/** One review on its own page, `/console/reviews/rr_...`: Escape goes back to the queue. */
export function ReviewPage({ base, feed, inbox, announce, params }) {
  const help = useHelpKey(() => navigate('/console/'));
  const onDecided = (action, review) => {
    announce(decidedText(action, review));
    if (FINISHING.includes(action)) navigate('/console/');
  };
  return html`<main>
    ${help}
    <p><a href="/console/" onClick=${onLinkClick}>Back to the queue <kbd>Esc</kbd></a></p>
    <${ReviewPane} key=${params.id} base=${base} id=${params.id} feed=${feed} full=${true} inbox=${inbox} onDecided=${onDecided} announce=${announce} />
  </main>`;
}
