// Reading support records: feedback, cases with their updates, and the reporting policy.
import { REOPEN_WINDOW_MS } from '../../machines/support-case.ts';
import type { Config } from '../../service/config.ts';
import type { Pool } from '../../storage/db.ts';
import { automaticFeedbackAllowed, casesOfFeedback, listCaseUpdates, listCases, listFeedbackRows, type CaseRow, type FeedbackCursor } from '../../storage/support.ts';
import { MAX_LINKED, caseView, feedbackView, updateView } from '../present/support.ts';
import { caseInReach, readsOthers, supportProject, type SupportCaller } from './reach.ts';

type Deps = { db: Pool; config: Config };

export async function listFeedback(db: Pool, caller: SupportCaller, projectId: string, q: { limit: number; after: FeedbackCursor | null }) {
  const project_id = await supportProject(db, caller, projectId);
  const rows = await listFeedbackRows(db, { org_id: caller.org_id, project_id, agent_id: readsOthers(caller) ? null : caller.agent_id, limit: q.limit, after: q.after });
  const has_more = rows.length > q.limit;
  const data = has_more ? rows.slice(0, q.limit) : rows;
  const cases = await casesOfFeedback(db, caller.org_id, data.map((r) => r.id), MAX_LINKED);
  const last = data[data.length - 1];
  return {
    object: 'list' as const,
    data: data.map((r) => feedbackView(r, cases)),
    has_more,
    /** Where the next page starts; the transport turns it into its own cursor. */
    next: has_more && last ? { t: last.created_at.toISOString(), id: last.id } : null,
  };
}

/** What an agent of the project may know of the org's reporting policy. */
export async function reportingPolicy(db: Pool, caller: SupportCaller, projectId: string) {
  await supportProject(db, caller, projectId);
  return { automatic_feedback: await automaticFeedbackAllowed(db, caller.org_id), reopen_window_days: REOPEN_WINDOW_MS / 86_400_000 };
}

/** The org's support settings, as its console shows them. */
export async function supportSettings(db: Pool, orgId: string) {
  return { automatic_feedback: await automaticFeedbackAllowed(db, orgId) };
}

const agentSees = (caller: SupportCaller) => (c: CaseRow) => c.agent_id === caller.agent_id || readsOthers(caller);

export async function agentCase(deps: Deps, caller: SupportCaller, projectId: string, id: string) {
  const project_id = await supportProject(deps.db, caller, projectId);
  const c = await caseInReach(deps.db, { org_id: caller.org_id, project_id }, id, agentSees(caller));
  return caseWithUpdates(deps, c);
}

async function caseWithUpdates(deps: Deps, c: CaseRow) {
  const updates = await listCaseUpdates(deps.db, c.org_id, c.id, { after: 0, limit: 1000 });
  return { ...caseView(c, deps.config.publicBaseUrl), updates: updates.map(updateView) };
}

/** A console member's read of a case of the project in the path. */
export async function consoleCase(deps: Deps, at: { org_id: string; project_id: string }, id: string) {
  return caseWithUpdates(deps, await caseInReach(deps.db, at, id, () => true));
}

export async function caseEvents(deps: Deps, at: { org_id: string; project_id: string }, id: string, q: { after: number; limit: number }) {
  const c = await caseInReach(deps.db, at, id, () => true);
  const rows = await listCaseUpdates(deps.db, c.org_id, c.id, q);
  const has_more = rows.length > q.limit;
  const data = has_more ? rows.slice(0, q.limit) : rows;
  const last = data[data.length - 1];
  return { object: 'list' as const, data: data.map(updateView), has_more, next_cursor: has_more && last ? String(Number(last.sequence)) : null };
}

export async function staffCase(deps: Deps, id: string) {
  return caseWithUpdates(deps, await caseInReach(deps.db, null, id, () => true));
}

/** Live cases, newest first: of one project, or with nulls every org's (staff). */
export async function listCasePage(
  deps: Deps,
  where: { org_id: string | null; project_id: string | null },
  q: { limit: number; status: string | null; before_number: string | null },
) {
  const rows = await listCases(deps.db, { ...where, agent_id: null, status: q.status, limit: q.limit, before_number: q.before_number });
  const has_more = rows.length > q.limit;
  const data = has_more ? rows.slice(0, q.limit) : rows;
  const last = data[data.length - 1];
  return {
    object: 'list' as const,
    data: data.map((c) => caseView(c, deps.config.publicBaseUrl)),
    has_more,
    /** Where the next page starts; the transport turns it into its own cursor. */
    next: has_more && last ? { n: String(last.number) } : null,
  };
}
