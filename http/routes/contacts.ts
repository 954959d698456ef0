// Contact lists (per inbox) and the project's suppression list.
import { addContact, removeContact, suppressEmail, unsuppressEmail } from '../../actors/contacts.ts';
import { listContacts, type ContactCursor } from '../../storage/contacts.ts';
import { findSuppression, listSuppressions, type SuppressionCursor } from '../../storage/suppressions.ts';
import { findProject } from '../../storage/tenancy.ts';
import type { ApiContext, RouteTable, Services } from '../context.ts';
import { Problem, notFound } from '../../machines/problems.ts';
import { callerInbox, callerScope } from '../inbox-access.ts';
import { cursorsFor, pageLimit } from '../paging.ts';
import { presentContact, presentSuppression } from '../../actors/present/reviews.ts';

const isContactCursor = (v: any): v is ContactCursor => Number.isSafeInteger(v?.created_us) && typeof v?.id === 'string';
const isSuppressionCursor = (v: any): v is SuppressionCursor => Number.isSafeInteger(v?.created_us) && typeof v?.email === 'string';

/** The project of a project-wide list: the key's own, or for an org key the one in X-Project-Id. */
async function projectOf(s: Services, ctx: ApiContext): Promise<{ org_id: string; project_id: string }> {
  const auth = ctx.state.auth!;
  if (auth.project_id) return { org_id: auth.org_id, project_id: auth.project_id };
  const pick = ctx.get('x-project-id');
  if (!pick || pick === '*') {
    throw new Problem('breadth_required', {
      detail: 'The suppression list is per project: an org key names one with X-Project-Id: <project_id>.',
      errors: [{ field: 'X-Project-Id', code: 'required', detail: 'a project id of the org' }],
    });
  }
  if (!(await findProject(s.db, auth.org_id, pick))) throw notFound('project');
  return { org_id: auth.org_id, project_id: pick };
}

export function contactRoutes(s: Services): RouteTable {
  return {
    listContacts: async (ctx) => {
      const inbox = await callerInbox(s, ctx, String(ctx.state.query.inbox_id));
      const limit = pageLimit(ctx.state.query.limit);
      const rows = await listContacts(s.db, { org_id: inbox.org_id, inbox_id: inbox.id }, {
        limit: limit + 1,
        after: cursorsFor(s.config).decode(ctx.state.query.cursor, isContactCursor),
      });
      const p = cursorsFor(s.config).page(rows, limit, (last) => ({ created_us: last.created_us, id: last.id }));
      ctx.body = { object: 'list', data: p.data.map(presentContact), has_more: p.has_more, next_cursor: p.next_cursor };
    },
    addContact: async (ctx) => {
      const b = ctx.state.body;
      const inbox = await callerInbox(s, ctx, b.inbox_id);
      const { row, created } = await addContact(s.db, { org_id: inbox.org_id, project_id: inbox.project_id, inbox_id: inbox.id }, b);
      ctx.status = created ? 201 : 200;
      ctx.body = presentContact(row);
    },
    removeContact: async (ctx) => {
      await removeContact(s.db, callerScope(ctx), ctx.state.params.contact_id!);
      ctx.status = 204;
    },
    listSuppressions: async (ctx) => {
      const at = await projectOf(s, ctx);
      const limit = pageLimit(ctx.state.query.limit);
      const rows = await listSuppressions(s.db, at, { limit: limit + 1, after: cursorsFor(s.config).decode(ctx.state.query.cursor, isSuppressionCursor) });
      const p = cursorsFor(s.config).page(rows, limit, (last) => ({ created_us: last.created_us, email: last.email }));
      ctx.body = { object: 'list', data: p.data.map(presentSuppression), has_more: p.has_more, next_cursor: p.next_cursor };
    },
    checkSuppression: async (ctx) => {
      const email = ctx.state.params.email!.trim().toLowerCase();
      const row = await findSuppression(s.db, await projectOf(s, ctx), email);
      ctx.body = row ? { suppressed: true, ...presentSuppression(row) } : { email, suppressed: false };
    },
    suppressEmail: async (ctx) => {
      const { row, created } = await suppressEmail(s.db, await projectOf(s, ctx), ctx.state.body.email, ctx.state.body.reason ?? null);
      ctx.status = created ? 201 : 200;
      ctx.body = presentSuppression(row);
    },
    unsuppressEmail: async (ctx) => {
      await unsuppressEmail(s.db, await projectOf(s, ctx), ctx.state.params.email!);
      ctx.status = 204;
    },
  };
}
