// What may be done to a review now, read off the machine itself. The 409 `allowed_action` hints
// come from here, so they can never offer a verb the machine would refuse.
import type { ReviewEvent, ReviewSnapshot, ReviewState } from './review-request.ts';

/** The verbs of composers, humans and reviewer agents (the machine's other events come from workers). */
export const REVIEW_VERBS = [
  'open',
  'approve',
  'edit',
  'reject',
  'chat',
  'hand_back',
  'revise',
  'restamp',
  'cancel',
] as const;
export type ReviewVerb = (typeof REVIEW_VERBS)[number];

export type ReviewActor = 'composer' | 'reviewer_agent' | 'human';
const ACTORS: readonly ReviewActor[] = ['composer', 'reviewer_agent', 'human'];

export type Rejection = 'terminal' | 'wrong_state' | 'stale';

const TERMINAL: readonly ReviewState[] = ['sent', 'auto_sent', 'cancelled'];

export function stateOf(snapshot: ReviewSnapshot): ReviewState {
  return snapshot.value as ReviewState;
}

export function isTerminal(snapshot: ReviewSnapshot): boolean {
  return snapshot.status === 'done' || TERMINAL.includes(stateOf(snapshot));
}

/** Submitted and not finished. `failed` is live: absorbing, but still open to the composer's cancel. */
export function isLive(snapshot: ReviewSnapshot): boolean {
  return stateOf(snapshot) !== 'new' && !isTerminal(snapshot);
}

/**
 * One event per way an actor can say `verb`, naming the current revision. Payload details that no
 * guard reads (texts, diffs) are placeholders: `can()` only asks whether the verb would be taken.
 */
export function representativeEvents(snapshot: ReviewSnapshot, verb: ReviewVerb, actor: ReviewActor): ReviewEvent[] {
  const parent_revision = snapshot.context.revision;
  const reviewer = actor === 'composer' ? null : actor;
  switch (verb) {
    case 'open':
    case 'approve':
    case 'reject':
      return reviewer ? [{ type: verb, by: reviewer, parent_revision }] : [];
    case 'edit':
      return reviewer ? [{ type: 'edit', by: reviewer, parent_revision, text: '', diff: null }] : [];
    case 'chat':
      return [
        reviewer
          ? { type: 'chat', from: 'reviewer', by: reviewer, message: '', parent_revision }
          : { type: 'chat', from: 'composer', message: '', parent_revision },
      ];
    case 'hand_back':
      return actor === 'reviewer_agent' ? [{ type: 'hand_back', parent_revision }] : [];
    case 'revise':
      return actor === 'composer' ? [{ type: 'revise', parent_revision }] : [];
    case 'restamp':
      return actor === 'composer'
        ? [{ type: 'restamp', parent_revision, rules_version: snapshot.context.rules_version }]
        : [];
    case 'cancel':
      return actor === 'reviewer_agent' ? [] : [{ type: 'cancel', by: actor }];
  }
}

/**
 * The verbs legal now, in a fixed order: for one actor, or for anyone when no actor is given.
 * Derived only from `snapshot.can()`, never from a per-state list.
 */
export function allowedActions(snapshot: ReviewSnapshot, actor?: ReviewActor): ReviewVerb[] {
  const actors = actor ? [actor] : ACTORS;
  return REVIEW_VERBS.filter((verb) =>
    actors.some((who) => representativeEvents(snapshot, verb, who).some((event) => snapshot.can(event))),
  );
}

/**
 * Why the machine refuses `event`, or null when it accepts it. `stale` means the same verb would be
 * accepted against the current revision; anything else refused on a live review is `wrong_state`.
 */
export function classifyRejection(snapshot: ReviewSnapshot, event: ReviewEvent): Rejection | null {
  if (isTerminal(snapshot)) return 'terminal';
  if (snapshot.can(event)) return null;
  const current = snapshot.context.revision;
  if ('parent_revision' in event && event.parent_revision != null && event.parent_revision !== current) {
    if (snapshot.can({ ...event, parent_revision: current })) return 'stale';
  }
  return 'wrong_state';
}
