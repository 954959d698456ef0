// The shapes of support records in responses: feedback, cases and case updates.
import type { SupportCaseStatus } from '../../machines/support-case.ts';
import type { CaseRow, CaseUpdateRow, FeedbackRow } from '../../storage/support.ts';

/** Linked cases listed on a feedback record before `linked_cases_truncated`. */
export const MAX_LINKED = 10;

export function caseView(c: CaseRow, publicBaseUrl?: string) {
  return {
    id: c.id,
    number: Number(c.number),
    project_id: c.project_id,
    org_id: c.org_id,
    title: c.title,
    status: c.status as SupportCaseStatus,
    impact: c.impact,
    version: c.version,
    created_ms: c.created_at.getTime(),
    updated_ms: c.updated_at.getTime(),
    feedback_id: c.feedback_id,
    resolved_ms: c.resolved_at?.getTime() ?? null,
    customer_confirmed_ms: c.customer_confirmed_at?.getTime() ?? null,
    resolution_kind: c.resolution_kind,
    resolution_summary: c.resolution_summary,
    ...(publicBaseUrl ? { console_url: `${publicBaseUrl}/console/#/support-cases/${c.id}` } : {}),
  };
}
export type CaseView = ReturnType<typeof caseView>;

export function updateView(u: CaseUpdateRow) {
  return {
    id: u.id,
    sequence: Number(u.sequence),
    kind: u.kind,
    actor_kind: u.actor_kind,
    body: u.body,
    created_ms: u.created_at.getTime(),
    ...(u.observed_runtime ? { observed_runtime: u.observed_runtime } : {}),
  };
}

export function feedbackView(f: FeedbackRow, cases: CaseRow[]) {
  const linked = cases.filter((c) => c.feedback_id === f.id);
  return {
    id: f.id,
    project_id: f.project_id,
    evidence: f.evidence,
    repeat_count: f.repeat_count,
    created_ms: f.created_at.getTime(),
    updated_ms: f.updated_at.getTime(),
    api_build: f.api_build,
    redacted_fields: f.redacted_fields,
    diagnostics: f.diagnostics,
    observed_runtime: f.observed_runtime,
    linked_cases: linked.slice(0, MAX_LINKED).map((c) => ({ id: c.id, project_id: c.project_id, status: c.status, version: c.version })),
    linked_cases_truncated: linked.length > MAX_LINKED,
  };
}
