// Who may reach which support records: the project of the path, and the cases a caller sees.
import { Problem, notFound } from '../../machines/problems.ts';
import type { Executor } from '../../storage/db.ts';
import { findCase, type CaseRow } from '../../storage/support.ts';
import { listProjects } from '../../storage/tenancy.ts';
import { caseDeleted } from './kind.ts';

/** The agent asking, as its key describes it. */
export type SupportCaller = {
  org_id: string;
  project_id: string | null;
  agent_id: string;
  inbox_id: string | null;
  permissions: string[];
};

/** Where a case is looked for: an org (and project), or with null every org (staff). */
export type CaseHome = { org_id: string; project_id?: string } | null;

/**
 * The project of the path, when the key reaches it. Anything else is 404 with the projects the
 * key can reach (`projects`) and what to do (`next_action`), so the agent corrects the path at once.
 */
export async function supportProject(db: Executor, caller: SupportCaller, projectId: string): Promise<string> {
  const projects = (await listProjects(db, caller.org_id)).filter((p) => caller.project_id === null || p.id === caller.project_id);
  if (projects.some((p) => p.id === projectId)) return projectId;
  throw new Problem('not_found', {
    detail: 'No such project for this key.',
    extra: {
      reason: 'project_not_accessible',
      next_action: `Use a project this key reaches, e.g. /v1/projects/${projects[0]?.id ?? '{project_id}'}/feedback.`,
      projects: { object: 'list', data: projects.map((p) => ({ id: p.id, org_id: p.org_id, name: p.name })), has_more: false, next_cursor: null },
    },
  });
}

/** Whether the caller may see another agent's records: `support:read` on a key that is not inbox-bound. */
export const readsOthers = (c: SupportCaller) => c.inbox_id === null && c.permissions.includes('support:read');
export const writesOthers = (c: SupportCaller) => c.inbox_id === null && c.permissions.includes('support:write');

/** A live case in reach, or 404 (outside it) / 410 (deleted). */
export async function caseInReach(db: Executor, at: CaseHome, id: string, visible: (c: CaseRow) => boolean): Promise<CaseRow> {
  const found = await findCase(db, at, id);
  if (!found || !visible(found)) throw notFound('support case');
  if (found.deleted_at) throw caseDeleted();
  return found;
}
