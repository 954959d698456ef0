// Which events a key's scope (see inbox-scope.ts) reaches. An org key: its org (or the picked
// project); a project key: its project's events about its own agent's inboxes, plus the project's
// events about no inbox that are its agent's or nobody's; an inbox key: events about its inbox only.
import type { Scope } from './inbox-scope.ts';

export const EVENT_TYPES = [
  'message.received',
  // What became of a sent mail (actors/delivery-reports.ts).
  'message.delivered',
  'message.bounced',
  'message.complained',
  'message.delayed',
  'review.created',
  'review.needs_review',
  'review.in_review',
  'review.chat',
  'review.approved',
  'review.rejected',
  'review.edited',
  'review.stale',
  'review.reconfirmed',
  'review.sent',
  'review.auto_sent',
  'review.failed',
  'review.stalled',
  'review.cancelled',
  'review.front_run_next',
  'review.recheck_category',
  'review.rule_changed',
  'category.graduated',
  'category.demoted',
  'rule.created',
  'rule.superseded',
  'rule.undone',
  // About the org's usage (filed under its first project, about no inbox).
  'usage.quota_exceeded',
  'usage.period_closed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * The types a webhook may subscribe to: the contract's `message.received`, and the delivery
 * outcomes of the inbox's sent mail, which agent-inbox adds.
 */
export const WEBHOOK_EVENT_TYPES: readonly string[] = ['message.received', 'message.delivered', 'message.bounced', 'message.complained', 'message.delayed'];

export type ScopedEvent = {
  org_id: string;
  project_id: string;
  inbox_id: string | null;
  agent_id: string | null;
  /** The agent owning `inbox_id`, when there is one. */
  inbox_agent_id: string | null;
};

export function canSeeEvent(scope: Scope, e: ScopedEvent): boolean {
  if (e.org_id !== scope.org_id) return false;
  if (scope.project_id !== null && e.project_id !== scope.project_id) return false;
  if (scope.inbox_id !== null) return e.inbox_id === scope.inbox_id;
  if (scope.agent_id === null) return true;
  // A deleted inbox has no owner to look up: its events (the cancellations of its reviews) go by
  // the agent they name.
  if (e.inbox_id !== null) return (e.inbox_agent_id ?? e.agent_id) === scope.agent_id;
  return e.agent_id === null || e.agent_id === scope.agent_id;
}

/** Parses a `types` filter (comma-separated); null means every type. */
export function parseTypeFilter(raw: string | undefined): { types: Set<string> | null; unknown: string[] } {
  if (raw === undefined || raw.trim() === '') return { types: null, unknown: [] };
  const list = raw.split(',').map((t) => t.trim()).filter(Boolean);
  const known = new Set<string>(EVENT_TYPES);
  return { types: new Set(list), unknown: list.filter((t) => !known.has(t)) };
}
