// The decisions of human reviewers (console, mail links, replies) and of reviewer agents.
import type pg from 'pg';
import { badRequest, notFound } from '../../machines/problems.ts';
import { editDiff } from '../../machines/policy/text-diff.ts';
import type { ReviewEvent, ReviewSnapshot } from '../../machines/review-request.ts';
import { insertDecisionChannel, type DecisionVia } from '../../storage/notifications.ts';
import { resetReviewerFailures } from '../../storage/review-links.ts';
import type { ReviewScope } from '../../storage/reviews.ts';
import { applyVerb, type ReviewServices } from './apply.ts';
import type { ReviewEventExtra } from './effects.ts';

export type DecisionInput = {
  action: 'open' | 'approve' | 'reject' | 'edit' | 'chat' | 'cancel';
  parent_revision?: number;
  feedback?: string | null;
  text?: string;
  subject?: string;
  message?: string;
};

/**
 * How a human decision arrived: the console (the default), a mail's one-time link or a reply.
 * `claim` runs in the decision's transaction first (a link is spent only with its decision).
 */
export type DecisionChannel = { via?: DecisionVia; claim?: (tx: pg.PoolClient) => Promise<void> };

const DECIDING = new Set(['approve', 'reject', 'edit', 'cancel']);

/** A human reviewer's decision, recorded with the member's email and the channel it came through. */
export function humanDecision(s: ReviewServices, at: { org_id: string; project_id: string; email: string }, id: string, d: DecisionInput, channel: DecisionChannel = {}) {
  const scope: ReviewScope = { org_id: at.org_id, project_id: at.project_id, agent_id: null, inbox_id: null };
  const common = { parent_revision: d.parent_revision, by_email: at.email };
  checkDecisionBody(d);
  return applyVerb(s, scope, id, d.action, async (row, snapshot, tx) => {
    await channel.claim?.(tx);
    if (DECIDING.has(d.action)) {
      const revision = snapshot.context.revision;
      await insertDecisionChannel(tx, { org_id: row.org_id, project_id: row.project_id, review_id: row.id, revision, action: d.action, email: at.email, via: channel.via ?? 'console' });
    }
    if (d.action === 'cancel') return { type: 'cancel', by: 'human', reason: d.feedback ?? null, by_email: at.email, parent_revision: d.parent_revision };
    return decisionEvent({ ...d, action: d.action }, snapshot, 'human', common);
  });
}

export type ReviewerDecisionInput = Omit<DecisionInput, 'action'> & { action: 'open' | 'approve' | 'reject' | 'edit' | 'chat' | 'hand_back' };

/** A reviewer agent, as its key names it. */
export type ReviewerScope = { org_id: string; project_id: string | null; agent_id: string };

/** Whether the review is routed to this reviewer agent now. */
export const routedTo = (snapshot: ReviewSnapshot, agentId: string): boolean =>
  snapshot.context.route === 'reviewer_agent' && snapshot.context.reviewer?.agent_id === agentId;

/**
 * A reviewer agent's decision. A review not routed to it is 404, as if it did not exist: a
 * reviewer sees only its own work. Any call of the reviewer shows its links are alive again.
 */
export async function reviewerDecision(s: ReviewServices, who: ReviewerScope, id: string, d: ReviewerDecisionInput) {
  await resetReviewerFailures(s.db, who.org_id, who.agent_id);
  checkDecisionBody(d);
  const scope: ReviewScope = { org_id: who.org_id, project_id: who.project_id, agent_id: null, inbox_id: null };
  const by = 'reviewer_agent' as const;
  const common = { parent_revision: d.parent_revision };
  return applyVerb(s, scope, id, d.action, (_row, snapshot) => {
    if (!routedTo(snapshot, who.agent_id)) throw notFound('review');
    if (d.action === 'hand_back') return { type: 'hand_back', feedback: d.feedback ?? null, ...common };
    return decisionEvent({ ...d, action: d.action }, snapshot, by, common);
  });
}

function checkDecisionBody(d: { action: string; text?: string; subject?: string; message?: string }): void {
  if (d.action === 'edit' && d.text === undefined && d.subject === undefined) {
    throw badRequest('text', 'An edit names the new text, subject or both.', 'required');
  }
  if (d.action === 'chat' && (d.message === undefined || d.message === '')) throw badRequest('message', 'A chat decision needs a message.', 'required');
}

/** The machine event of a reviewer's verb shared by humans and reviewer agents. */
function decisionEvent(
  d: Omit<DecisionInput, 'action'> & { action: 'open' | 'approve' | 'reject' | 'edit' | 'chat' },
  snapshot: ReviewSnapshot,
  by: 'human' | 'reviewer_agent',
  common: { parent_revision?: number; by_email?: string },
): ReviewEvent & ReviewEventExtra {
  switch (d.action) {
    case 'open':
      return { type: 'open', by, ...common };
    case 'approve':
      return { type: 'approve', by, feedback: d.feedback ?? null, ...common };
    case 'reject':
      return { type: 'reject', by, feedback: d.feedback ?? null, ...common };
    case 'edit': {
      const draft = snapshot.context.draft;
      const diff = editDiff({ subject: draft.subject ?? null, text: draft.text ?? null }, { subject: d.subject, text: d.text });
      return { type: 'edit', by, text: d.text, subject: d.subject, diff, feedback: d.feedback ?? null, ...common };
    }
    case 'chat':
      return { type: 'chat', from: 'reviewer', by, message: d.message!, ...common };
  }
}
