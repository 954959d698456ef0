// One event stream per project for every view: the console plane's review events (EventSource
// resumes with Last-Event-ID by itself), fanned out to whoever listens, so a view opened later
// misses nothing the page already had.
export const REVIEW_EVENTS = [
  'review.created', 'review.needs_review', 'review.in_review', 'review.chat', 'review.approved', 'review.rejected',
  'review.edited', 'review.stale', 'review.reconfirmed', 'review.sent', 'review.auto_sent', 'review.failed',
  'review.stalled', 'review.cancelled', 'review.rule_changed',
];

export function reviewFeed(base) {
  const listeners = new Set();
  const stream = new EventSource(`${base}/events/stream?types=${REVIEW_EVENTS.join(',')}`);
  const onEvent = (e) => {
    const event = JSON.parse(e.data);
    for (const fn of listeners) fn(event);
  };
  for (const t of REVIEW_EVENTS) stream.addEventListener(t, onEvent);
  return {
    /** `fn(event)` for every review event; returns the unsubscribe. */
    subscribe: (fn) => (listeners.add(fn), () => listeners.delete(fn)),
    close: () => stream.close(),
  };
}
