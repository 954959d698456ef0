// The shapes of a writing rule and of its audit log in responses and events.
import type { AuditRow, RuleRow } from '../../storage/rules.ts';

/** The contract's writing-rule record. */
export function ruleView(r: RuleRow) {
  return {
    id: r.id,
    rule_layer: r.rule_layer,
    org_id: r.org_id,
    project_id: r.project_id,
    lineage_id: r.lineage_id,
    rev: r.rev,
    scope: r.scope,
    category_id: r.category_id,
    scope_agent_id: r.scope_agent_id,
    rule_text: r.rule_text,
    kind: r.kind,
    priority: r.priority,
    status: r.status,
    supersedes_id: r.supersedes_id,
    author_kind: r.author_kind,
    source_review_id: r.source_review_id,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}
export type RuleView = ReturnType<typeof ruleView>;

/** An entry of a rule lineage's audit log. */
export function presentAudit(a: AuditRow) {
  return {
    id: a.id,
    lineage_id: a.lineage_id,
    action: a.action,
    before: a.before,
    after: a.after,
    actor_email: a.actor_email,
    undone_at: a.undone_at?.toISOString() ?? null,
    undone_by: a.undone_by,
    created_at: a.created_at.toISOString(),
  };
}
