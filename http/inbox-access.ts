// The inbox named in a path, as the caller's key reaches it: by id, or by address within the
// scope. Anything outside the key's reach is answered as not found.
import { ALL_PROJECTS, needsBreadthPick, scopeOfKey } from '../machines/policy/inbox-scope.ts';
import { findInboxInScope, type InboxScope, type InboxWithPolicy } from '../storage/inboxes.ts';
import { findProject } from '../storage/tenancy.ts';
import type { ApiContext, Services } from './context.ts';
import { Problem, notFound } from '../machines/problems.ts';

const projectPick = (ctx: ApiContext): string | null => ctx.get('x-project-id') || null;

export function callerScope(ctx: ApiContext): InboxScope {
  return scopeOfKey(ctx.state.auth!, projectPick(ctx));
}

/** The scope of a bare list: an org key must pick a project (or `*`, every project). */
export async function listScope(s: Services, ctx: ApiContext): Promise<InboxScope> {
  const auth = ctx.state.auth!;
  const pick = projectPick(ctx);
  if (needsBreadthPick(auth, pick)) {
    throw new Problem('breadth_required', {
      detail: 'An org key lists inboxes of one project: send X-Project-Id: <project_id>, or X-Project-Id: * for every project of the org.',
      errors: [{ field: 'X-Project-Id', code: 'required', detail: 'a project id of the org, or * for all projects' }],
    });
  }
  if (auth.ceiling === 'org' && pick !== ALL_PROJECTS && !(await findProject(s.db, auth.org_id, pick!))) throw notFound('project');
  return scopeOfKey(auth, pick);
}

/** The inbox by id or address; outside the key's reach it is "no such <what>". */
export async function callerInbox(
  s: Services,
  ctx: ApiContext,
  idOrAddress = ctx.state.params.inbox_id!,
  what = 'inbox',
): Promise<InboxWithPolicy> {
  const inbox = await findInboxInScope(s.db, callerScope(ctx), idOrAddress);
  if (!inbox) throw notFound(what);
  return inbox;
}
