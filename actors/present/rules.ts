// The shape of a writing rule in responses, events and the audit log.
import type { RuleRow } from '../../storage/rules.ts';

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
