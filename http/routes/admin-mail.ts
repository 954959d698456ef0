// Console plane: a member reads the project's mail. The same storage reads as the agent plane's,
// within the path's org and project; the html is served as an inert document of its own.
import { readAttachment } from '../../actors/attachments.ts';
import { findMessageSource, findMessageWithAttachments, inboxIdOfMessage, searchMessages } from '../../storage/messages.ts';
import { findInboxInScope } from '../../storage/inboxes.ts';
import { findThreadWithMessages } from '../../storage/threads.ts';
import { notFound } from '../../machines/problems.ts';
import { servedContentType } from '../../machines/policy/attachment-serving.ts';
import type { ApiContext, RouteTable, Services } from '../context.ts';
import { cursorsFor, pageLimit } from '../paging.ts';
import { presentMessage, presentMessageSummary, presentThread } from '../../actors/present/messages.ts';
import { setDownloadHeaders } from './messages.ts';

const isOffsetCursor = (v: any): v is { offset: number } => Number.isSafeInteger(v?.offset) && v.offset >= 0;

/**
 * The mail's html may hold anything: no script may run (sandbox without allow-scripts), nothing may
 * load (default-src 'none'; images only when asked), links open outside (allow-popups, and the
 * base target), and only the console may frame it.
 */
export function mailHtmlCsp(remoteImages: boolean): string {
  return [
    'sandbox allow-popups allow-popups-to-escape-sandbox',
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    `img-src data:${remoteImages ? ' http: https:' : ''}`,
    "form-action 'none'",
    "base-uri 'none'",
    "frame-ancestors 'self'",
  ].join('; ');
}

async function pathInbox(s: Services, ctx: ApiContext) {
  const scope = { org_id: ctx.state.params.org_id!, project_id: ctx.state.params.project_id!, agent_id: null, inbox_id: null };
  const inbox = await findInboxInScope(s.db, scope, ctx.state.params.inbox_id!);
  if (!inbox) throw notFound('inbox');
  return inbox;
}

async function pathMessage(s: Services, ctx: ApiContext) {
  const inbox = await pathInbox(s, ctx);
  const id = ctx.state.params.message_id!;
  if (inboxIdOfMessage(id) !== inbox.id) throw notFound('message');
  return { inbox, at: { org_id: inbox.org_id, inbox_id: inbox.id }, id };
}

export function adminMailRoutes(s: Services): RouteTable {
  return {
    adminListMessages: async (ctx) => {
      const inbox = await pathInbox(s, ctx);
      const q = ctx.state.query;
      const limit = pageLimit(q.limit);
      const offset = cursorsFor(s.config).decode(q.cursor, isOffsetCursor)?.offset ?? 0;
      const rows = await searchMessages(s.db, { org_id: inbox.org_id, inbox_id: inbox.id }, {
        q: typeof q.q === 'string' && q.q.trim() !== '' ? q.q : null,
        from: null,
        to: null,
        subject: null,
        authenticated: null,
        folder: q.folder ?? null,
        after: null,
        before: null,
        has_attachment: null,
        limit: limit + 1,
        offset,
      });
      const { data, has_more, next_cursor } = cursorsFor(s.config).page(rows, limit, () => ({ offset: offset + limit }));
      ctx.body = { object: 'list', data: data.map((m) => presentMessageSummary(inbox.address, m)), has_more, next_cursor };
    },
    adminGetMessage: async (ctx) => {
      const { inbox, at, id } = await pathMessage(s, ctx);
      const found = await findMessageWithAttachments(s.db, at, id);
      if (!found) throw notFound('message');
      ctx.body = presentMessage(inbox.address, found.message, found.attachments);
    },
    adminGetThread: async (ctx) => {
      const inbox = await pathInbox(s, ctx);
      const found = await findThreadWithMessages(s.db, { org_id: inbox.org_id, inbox_id: inbox.id }, ctx.state.params.thread_id!);
      if (!found) throw notFound('thread');
      ctx.body = {
        ...presentThread(found.thread),
        messages: found.messages.map(({ message, attachments }) => presentMessage(inbox.address, message, attachments)),
      };
    },
    adminGetMessageHtml: async (ctx) => {
      const { at, id } = await pathMessage(s, ctx);
      const found = await findMessageWithAttachments(s.db, at, id);
      if (!found || found.message.html === null) throw notFound('html part');
      ctx.set('Content-Security-Policy', mailHtmlCsp(ctx.state.query.remote_images === true));
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Referrer-Policy', 'no-referrer');
      ctx.set('Cache-Control', 'private, no-store');
      ctx.type = 'text/html; charset=utf-8';
      // A base target before the mail's own markup: its links open in a new window, outside the frame.
      ctx.body = `<!doctype html><base target="_blank">${found.message.html}`;
    },
    adminGetMessageRaw: async (ctx) => {
      const { at, id } = await pathMessage(s, ctx);
      const raw = await findMessageSource(s.db, at, id);
      if (!raw) throw notFound('message');
      setDownloadHeaders(ctx, 'message/rfc822', `${id}.eml`);
      ctx.body = raw;
    },
    adminGetAttachment: async (ctx) => {
      const { at, id } = await pathMessage(s, ctx);
      const part = await readAttachment(s.db, at, id, ctx.state.params.attachment_id!);
      if (!part) throw notFound('attachment');
      setDownloadHeaders(ctx, servedContentType(part.content_type), part.filename);
      ctx.body = part.content;
    },
  };
}
