// Threads of an inbox: list and read with messages oldest first.
import { findThreadWithMessages, listThreads, type ThreadCursor } from '../../storage/threads.ts';
import type { RouteTable, Services } from '../context.ts';
import { notFound } from '../../machines/problems.ts';
import { callerInbox, callerScope } from '../inbox-access.ts';
import { includedInbox, withIncluded } from '../include.ts';
import { cursorsFor, pageLimit } from '../paging.ts';
import { presentMessage, presentThread } from '../../actors/present/messages.ts';

const isThreadCursor = (v: any): v is ThreadCursor => Number.isSafeInteger(v?.last_seq) && typeof v?.id === 'string';

export function threadRoutes(s: Services): RouteTable {
  return {
    listThreads: async (ctx) => {
      const inbox = await callerInbox(s, ctx);
      const limit = pageLimit(ctx.state.query.limit);
      const before = cursorsFor(s.config).decode(ctx.state.query.cursor, isThreadCursor);
      const rows = await listThreads(s.db, { org_id: inbox.org_id, inbox_id: inbox.id }, { limit: limit + 1, before });
      const { data, has_more, next_cursor } = cursorsFor(s.config).page(rows, limit, (last) => ({ last_seq: last.last_seq, id: last.id }));
      const included = ctx.state.include.has('inbox') ? { inbox: await includedInbox(s, callerScope(ctx), inbox, ctx.state.include) } : undefined;
      ctx.body = { object: 'list', data: data.map((t) => withIncluded(presentThread(t), included)), has_more, next_cursor };
    },
    getThread: async (ctx) => {
      const inbox = await callerInbox(s, ctx);
      const found = await findThreadWithMessages(s.db, { org_id: inbox.org_id, inbox_id: inbox.id }, ctx.state.params.thread_id!);
      if (!found) throw notFound('thread');
      const included = ctx.state.include.has('inbox') ? { inbox: await includedInbox(s, callerScope(ctx), inbox, ctx.state.include) } : undefined;
      ctx.body = withIncluded(
        {
          ...presentThread(found.thread),
          messages: found.messages.map(({ message, attachments }) => presentMessage(inbox.address, message, attachments)),
        },
        included,
      );
    },
  };
}
