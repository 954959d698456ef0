// Auto-send notifications: a category on the auto_notify rung sends on its own, and the human is
// told of each such mail (`review.auto_sent` with `notify_human`). They arrive live on the
// console's event stream; "seen" is a resume point in that stream, kept by this browser per
// project, so what arrived after it is replayed on the next visit and nothing before it is.
import { get } from './api.js';
import { html, useEffect, useState } from './ui.js';

const seenKey = (base) => `agent-inbox:auto-sent-seen:${base}`;

export function AutoSendNotices({ base, onOpenReview }) {
  const [items, setItems] = useState([]);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    setItems([]);
    const names = {};
    const categoryName = async (id) => {
      if (!(id in names)) {
        const page = await get(`${base}/categories`).catch(() => ({ data: [] }));
        for (const c of page.data) names[c.id] = c.name;
      }
      return names[id] ?? id;
    };
    let stream = null;
    const listen = (after) => {
      const resume = after ? `&last_event_id=${encodeURIComponent(after)}` : '';
      stream = new EventSource(`${base}/events/stream?types=review.auto_sent${resume}`);
      stream.addEventListener('review.auto_sent', async (e) => {
        const event = JSON.parse(e.data);
        if (!event.notify_human) return;
        const review = await get(`${base}/reviews/${event.review_id}`).catch(() => null);
        const item = {
          eventId: e.lastEventId,
          reviewId: event.review_id,
          category: await categoryName(event.category_id),
          to: review ? [...review.draft.to, ...review.draft.cc].map((p) => p.email ?? p).join(', ') : '',
          subject: review?.draft.subject || '(no subject)',
        };
        setItems((list) => (list.some((i) => i.eventId === item.eventId) ? list : [...list, item]));
      });
      // A resume point this service does not know (another database) is refused: start from now.
      stream.onerror = () => {
        if (stream.readyState === EventSource.CLOSED && after) {
          localStorage.removeItem(seenKey(base));
          listen(null);
        }
      };
    };
    listen(localStorage.getItem(seenKey(base)));
    return () => stream?.close();
  }, [base]);

  const markSeen = () => {
    if (items.length) localStorage.setItem(seenKey(base), items[items.length - 1].eventId);
    setItems([]);
    setOpen(false);
  };

  return html`<div class="notices">
    <button type="button" aria-expanded=${open ? 'true' : 'false'} aria-controls="auto-sent-list" onClick=${() => setOpen((o) => !o)}>
      Auto-sent <span class=${items.length ? 'badge unseen' : 'badge'} aria-label=${`${items.length} not yet seen`}>${items.length}</span>
    </button>
    ${open &&
    html`<section id="auto-sent-list" class="notice-list" aria-labelledby="auto-sent-title">
      <h2 id="auto-sent-title">Sent on their own</h2>
      ${items.length === 0
        ? html`<p>Nothing new was sent on its own.</p>`
        : html`<ul>
            ${items.map(
              (i) => html`<li key=${i.eventId}>
                Sent on its own in category <strong>${i.category}</strong>: to ${i.to}, “${i.subject}”.
                <button type="button" class="link" onClick=${() => (setOpen(false), onOpenReview(i.reviewId))}>Open the review</button>
              </li>`,
            )}
          </ul>`}
      <button type="button" onClick=${markSeen}>Mark all seen</button>
    </section>`}
  </div>`;
}

// Sends parked with an unknown outcome: the relay took the mail after DATA and its answer was
// never recorded, so the service will neither resend nor call it sent. Only an operator who checks
// the relay's log can settle each one; the humans of the project are told they are waiting.
export function ParkedSendsNotice({ base, onOpenReview }) {
  const [parked, setParked] = useState([]);
  useEffect(() => {
    let live = true;
    get(`${base}/reviews?needs_reconciliation=true&limit=50`)
      .then((page) => live && setParked(page.data))
      .catch(() => live && setParked([]));
    return () => {
      live = false;
    };
  }, [base]);
  if (parked.length === 0) return null;
  return html`<section class="notice" role="status" aria-labelledby="parked-title">
    <h2 id="parked-title">${parked.length === 1 ? '1 send awaits' : `${parked.length} sends await`} reconciliation</h2>
    <p>The relay took ${parked.length === 1 ? 'this mail' : 'these mails'} but its answer was lost, so whether ${parked.length === 1 ? 'it' : 'they'} went out is unknown.
      Nothing is sent again until an operator checks the relay's log and runs <code>agent-inbox reconcile REVIEW_ID --delivered</code> (or <code>--failed</code>).</p>
    <ul>
      ${parked.map(
        (r) => html`<li key=${r.id}>
          <code>${r.id}</code>: to ${[...r.draft.to, ...(r.draft.cc ?? [])].map((p) => p.email ?? p).join(', ')}, “${r.draft.subject || '(no subject)'}”.
          <button type="button" class="link" onClick=${() => onOpenReview(r.id)}>Open the review</button>
        </li>`,
      )}
    </ul>
  </section>`;
}
