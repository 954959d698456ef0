// Review links: a human on the console names the reviewer agent of an inbox (or of the whole
// project) and how its work reaches it. Routing reads them at submit and on every revision.
import { Problem, badRequest, notFound } from '../machines/problems.ts';
import type { RouteChoice } from '../machines/review-request.ts';
import type { Config } from '../service/config.ts';
import { encryptionKey, seal } from '../service/encryption.ts';
import { findAgent } from '../storage/agents.ts';
import type { Executor, Pool } from '../storage/db.ts';
import { newId } from '../storage/ids.ts';
import { findInboxInScope } from '../storage/inboxes.ts';
import {
  agentHoldsPermission,
  coveringLink,
  deleteReviewLink,
  findReviewLink,
  insertReviewLink,
  updateReviewLink,
  type ReviewLinkChanges,
  type ReviewLinkRow,
  type RouteLink,
  type ReviewLinkView,
  type ReviewTransport,
} from '../storage/review-links.ts';
import { webhookTargetProblem } from './webhook-transport.ts';

/** The contract's defaults (Limits: review links). */
export const LINK_DEFAULTS = { escalate_after_s: 300, max_hops: 3, review_deadline_s: 86400 } as const;

export type LinkDeps = { db: Pool; config: Config };
export type ProjectAt = { org_id: string; project_id: string };

export type ReviewLinkInput = {
  inbox_address?: string | null;
  reviewer_agent_id?: string;
  transport?: ReviewTransport;
  webhook_url?: string | null;
  hmac_secret?: string;
  escalate_after_s?: number;
  max_hops?: number;
  review_deadline_s?: number;
  active?: boolean;
};

const scopeTaken = (inboxAddress: string | null) =>
  new Problem('scope_taken', {
    detail: inboxAddress
      ? `The inbox ${inboxAddress} already has a review link; change or delete that one.`
      : 'The project already has an account-wide review link; change or delete that one.',
    errors: [{ field: 'inbox_address', code: 'scope_taken', detail: inboxAddress ?? '' }],
  });

/** The reviewer must be an active agent of the project holding `review:act`. */
async function checkReviewer(deps: LinkDeps, at: ProjectAt, agentId: string): Promise<void> {
  const agent = await findAgent(deps.db, at.org_id, at.project_id, agentId);
  if (!agent) throw badRequest('reviewer_agent_id', `No agent ${agentId} in this project.`, 'not_found');
  if (agent.status !== 'active') throw badRequest('reviewer_agent_id', 'The reviewer must be an active agent.', 'inactive');
  if (!(await agentHoldsPermission(deps.db, at.org_id, agentId, 'review:act'))) {
    throw badRequest('reviewer_agent_id', 'The reviewer agent holds no live key with review:act; issue it one first.', 'missing_permission');
  }
}

/** The composing agent can never review its own draft: a link over its own inbox is refused. */
async function scopeOf(deps: LinkDeps, at: ProjectAt, address: string | null, reviewerId: string): Promise<{ id: string; address: string } | null> {
  if (!address) return null;
  const inbox = await findInboxInScope(deps.db, { ...at, agent_id: null, inbox_id: null }, address);
  if (!inbox) throw badRequest('inbox_address', `No inbox ${address} in this project.`, 'not_found');
  if (inbox.agent_id === reviewerId) {
    throw badRequest('reviewer_agent_id', `The agent ${reviewerId} composes the mail of ${inbox.address}; it cannot review its own drafts.`, 'composer_reviewer');
  }
  return { id: inbox.id, address: inbox.address };
}

async function checkUrl(deps: LinkDeps, transport: ReviewTransport, url: string | null | undefined): Promise<void> {
  if (transport !== 'webhook') return;
  if (!url) throw badRequest('webhook_url', 'A webhook link needs webhook_url.', 'required');
  const problem = await webhookTargetProblem(url, deps.config.webhookAllowPrivate);
  if (problem) throw badRequest('webhook_url', `webhook_url ${problem}.`, 'target_refused');
}

const sealSecret = (deps: LinkDeps, secret: string | undefined) => (secret === undefined ? undefined : seal(encryptionKey(deps.config), secret));

export async function createReviewLink(deps: LinkDeps, at: ProjectAt, input: ReviewLinkInput): Promise<ReviewLinkView> {
  const transport = input.transport ?? 'webhook';
  const reviewer = input.reviewer_agent_id!;
  await checkReviewer(deps, at, reviewer);
  const inbox = await scopeOf(deps, at, input.inbox_address ?? null, reviewer);
  await checkUrl(deps, transport, input.webhook_url);
  if (transport === 'webhook' && !input.hmac_secret) {
    throw badRequest('hmac_secret', 'A webhook link needs hmac_secret: every push is signed with it.', 'required');
  }
  const row = await insertReviewLink(deps.db, {
    ...at,
    id: newId('rvl'),
    inbox_id: inbox?.id ?? null,
    reviewer_agent_id: reviewer,
    transport,
    webhook_url: input.webhook_url ?? null,
    secret_sealed: sealSecret(deps, input.hmac_secret) ?? null,
    escalate_after_s: input.escalate_after_s ?? LINK_DEFAULTS.escalate_after_s,
    max_hops: input.max_hops ?? LINK_DEFAULTS.max_hops,
    review_deadline_s: input.review_deadline_s ?? LINK_DEFAULTS.review_deadline_s,
  });
  if (!row) throw scopeTaken(inbox?.address ?? null);
  return { ...row, inbox_address: inbox?.address ?? null };
}

export async function changeReviewLink(deps: LinkDeps, at: ProjectAt, id: string, input: ReviewLinkInput): Promise<ReviewLinkView> {
  const current = await findReviewLink(deps.db, at, id);
  if (!current) throw notFound('review link');
  const reviewer = input.reviewer_agent_id ?? current.reviewer_agent_id;
  if (input.reviewer_agent_id !== undefined) await checkReviewer(deps, at, reviewer);
  const address = input.inbox_address !== undefined ? input.inbox_address : current.inbox_address;
  const inbox = await scopeOf(deps, at, address, reviewer);
  const transport = input.transport ?? current.transport;
  const url = input.webhook_url !== undefined ? input.webhook_url : current.webhook_url;
  if (input.transport !== undefined || input.webhook_url !== undefined) await checkUrl(deps, transport, url);
  if (transport === 'webhook' && !current.secret_sealed && !input.hmac_secret) {
    throw badRequest('hmac_secret', 'A webhook link needs hmac_secret: every push is signed with it.', 'required');
  }
  const changes: ReviewLinkChanges = {
    inbox_id: inbox?.id ?? null,
    reviewer_agent_id: reviewer,
    transport,
    webhook_url: url,
    secret_sealed: sealSecret(deps, input.hmac_secret),
    escalate_after_s: input.escalate_after_s,
    max_hops: input.max_hops,
    review_deadline_s: input.review_deadline_s,
    active: input.active,
  };
  const row = await updateReviewLink(deps.db, at.org_id, id, changes);
  if (row === 'scope_taken') throw scopeTaken(inbox?.address ?? null);
  if (!row) throw notFound('review link');
  return { ...row, inbox_address: inbox?.address ?? null };
}

export async function removeReviewLink(deps: LinkDeps, at: ProjectAt, id: string): Promise<void> {
  if (!(await deleteReviewLink(deps.db, at, id))) throw notFound('review link');
}

// ---- Routing

/** Skipped by routing: its pushes failed too often in a row. */
export const isUnhealthy = (link: Pick<ReviewLinkRow, 'consec_failures'>, config: Pick<Config, 'reviewLinkUnhealthyAfter'>): boolean =>
  link.consec_failures >= config.reviewLinkUnhealthyAfter;

export type Routing = { choice: RouteChoice; link: RouteLink | null };

/**
 * Where a review of this inbox goes now: the reviewer agent of the active link covering it, unless
 * that link is unhealthy or names the composer; otherwise the human. `covering` is that link when
 * the caller read it already (a send reads it with its inbox).
 */
export async function chooseRoute(
  db: Executor,
  config: Pick<Config, 'reviewLinkUnhealthyAfter'>,
  at: { org_id: string; project_id: string; inbox_id: string; composer_agent_id: string },
  covering?: RouteLink | null,
): Promise<Routing> {
  const link = covering !== undefined ? covering : await coveringLink(db, at);
  if (!link || isUnhealthy(link, config) || link.reviewer_agent_id === at.composer_agent_id) return { choice: { route: 'human' }, link: null };
  return {
    link,
    choice: {
      route: 'reviewer_agent',
      reviewer: { agent_id: link.reviewer_agent_id, link_id: link.id },
      max_hops: link.max_hops,
      escalate_after_s: link.escalate_after_s,
    },
  };
}
