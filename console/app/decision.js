// The integrity rule of the page, in one pure module (no imports, no DOM): a decision carries the
// revision of the review object the view drew, and nothing else. When a newer read of the review
// arrives (a revision, a chat message, a hand-back, a cancel), it replaces what is shown, the change
// is described against what was on screen, and the next decision key only acknowledges it: the
// human must look again and press once more. A 409 shows the current review the same way.
//
// The state is a plain object: { shown, change, held, inFlight }. `shown` is the one review object
// the view renders; every decision body is built from it.

const DRAFT_FIELDS = ['subject', 'text'];
const who = (list) => (list ?? []).map((p) => (typeof p === 'string' ? p : p.email)).join(', ');

export const initialDecisionState = (review = null) => ({ shown: review, change: null, held: false, inFlight: false, later: null });

/** What differs between the review that was on screen and a newer read of it, for the human to look at. */
export function describeChange(before, after) {
  const out = { from_revision: before.revision, to_revision: after.revision, fields: [], state: null, notes: [] };
  for (const f of DRAFT_FIELDS) {
    if ((before.draft?.[f] ?? '') !== (after.draft?.[f] ?? '')) out.fields.push({ field: f, before: before.draft?.[f] ?? '', after: after.draft?.[f] ?? '' });
  }
  for (const f of ['to', 'cc']) {
    const a = who(before.draft?.[f]);
    const b = who(after.draft?.[f]);
    if (a !== b) out.fields.push({ field: f, before: a, after: b });
  }
  if (before.state !== after.state) out.state = { before: before.state, after: after.state };
  // Feedback, chat messages and hand-backs are appended: what is new is what follows the last one seen.
  const seen = new Set((before.feedback_history ?? []).map((f) => f.seq));
  out.notes = (after.feedback_history ?? []).filter((f) => !seen.has(f.seq));
  return out;
}

/**
 * A read of the review (after a live event, or a reload). An older or equal version changes
 * nothing; a newer one is shown at once, with what changed, and holds the decision keys.
 */
export function reviewArrived(state, review) {
  if (!review) return state;
  if (!state.shown || state.shown.id !== review.id) return { ...initialDecisionState(review) };
  // While a decision is on its way the read may hold that very decision, or someone else's change
  // after it: it is judged once the answer is in (see settle).
  if (state.inFlight) return { ...state, later: review };
  if (review.version < state.shown.version) return state;
  // The same version read again (the full record after a decision's short answer) is the same review.
  if (review.version === state.shown.version) return { ...state, shown: review };
  // Changes not yet looked at add up: the diff stays against what the human last looked at.
  const base = state.held && state.change ? state.change.base : state.shown;
  return { ...state, shown: review, held: true, change: { ...describeChange(base, review), base } };
}

/**
 * A decision asked for (a key, a button, a form's Ctrl+Enter). Returns the next state and the body
 * to send, or `send: null` with why nothing is sent: a change is waiting to be looked at (this
 * press acknowledges it), a decision is already on its way, or the verb is not legal now.
 */
export function requestDecision(state, action, fields = {}) {
  if (!state.shown) return { state, send: null, why: 'loading' };
  if (state.inFlight) return { state, send: null, why: 'in_flight' };
  if (state.held) return { state: { ...state, held: false }, send: null, why: 'look_again' };
  if (!legal(state.shown, action)) return { state, send: null, why: 'not_allowed' };
  return { state: { ...state, inFlight: true }, send: decisionBody(state.shown, action, fields), why: null };
}

/** A chat on a waiting review opens it first: the machine allows chat only once it is open. */
export const legal = (review, action) => review.allowed_actions.includes(action) || (action === 'chat' && review.allowed_actions.includes('open'));

/** The body sent: the verb, its fields, and the revision of the review object on screen. Always. */
export function decisionBody(shown, action, fields = {}) {
  if (!Number.isInteger(shown?.revision)) throw new Error('A decision needs the revision on screen.');
  const { action: _a, parent_revision: _p, ...rest } = fields;
  return { ...rest, action, parent_revision: shown.revision };
}

/**
 * The review read again just before a decision is sent. Some changes publish no event the page can
 * follow (a composer's chat message goes to the reviewer, not onto the stream), and a chat keeps
 * the revision, so the server's parent_revision check cannot see it: a newer version here stops
 * the decision and shows the change, as a 409 would. `fresh` is null when the read failed: then
 * nothing is sent either, since what is on screen could not be checked.
 */
export function checkedBeforeSend(state, fresh) {
  // A read that failed proves nothing: the decision waits, as for any other failure.
  if (!fresh) return { state: decisionFailed(state), go: false };
  if (!state.shown || fresh.version <= state.shown.version) return { state, go: true };
  // As after a 409: the press was spent on what was there before, so the next one decides.
  return { state: { ...reviewArrived({ ...state, inFlight: false, later: null }, fresh), held: false }, go: false };
}

/** A read that arrived while a decision was on its way, judged now against what is shown. */
const settle = (state) => (state.later ? reviewArrived({ ...state, later: null }, state.later) : state);

/**
 * The decision was applied: its answer is the review as the human's own decision left it, so it
 * replaces what is shown without a hold (the answer carries no feedback history; the last one stays
 * until the full record is read again).
 */
export const decisionApplied = (state, review) =>
  settle({
    ...state,
    inFlight: false,
    shown: review ? { feedback_history: state.shown?.feedback_history ?? [], ...review } : state.shown,
    change: null,
    held: false,
  });

/**
 * The decision was refused because the review moved on (409): the current review replaces the
 * stale one on screen, with what changed. The press was spent on the stale one, so the next
 * press decides on what is now shown.
 */
export function decisionRefused(state, current) {
  if (!current || !state.shown) return settle({ ...state, inFlight: false });
  const base = state.held && state.change ? state.change.base : state.shown;
  const moved = current.version !== state.shown.version;
  return settle({
    ...state,
    inFlight: false,
    held: false,
    shown: current,
    change: moved || state.change ? { ...describeChange(base, current), base } : null,
  });
}

/** Any other failure: nothing changed on screen, the human may try again. */
export const decisionFailed = (state) => settle({ ...state, inFlight: false });

/** The human looked at the change and put it away (Escape on the notice, or a decision made). */
export const changeSeen = (state) => ({ ...state, held: false, change: null });
