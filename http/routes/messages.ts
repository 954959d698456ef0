// Messages of an inbox: list, read, raw source, attachments, search, batch update, wait.
import contentDisposition from 'content-disposition';
import { readAttachment } from '../../actors/attachments.ts';
import { batchUpdateMessages } from '../../actors/messages.ts';
import { waitForEmail } from '../../actors/wait-for-email.ts';
import {
  findMessageSource,
  findMessageWithAttachments,
  inboxIdOfMessage,
  listMessages,
  searchMessages,
  type InboxKey,
} from '../../storage/messages.ts';
import type { ApiContext, RouteTable, Services } from '../context.ts';
import { notFound } from '../../machines/problems.ts';
import { asciiFallback, safeFilename, servedContentType } from '../../machines/policy/attachment-serving.ts';
import { callerInbox, callerScope } from '../inbox-access.ts';
import { messageIncludes, withIncluded } from '../include.ts';
import { cursorsFor, pageLimit } from '../paging.ts';
import { presentAttachment, presentDelivery, presentMessage, presentMessageSummary } from '../../actors/present/messages.ts';
import { deliveryStatusOf } from '../../storage/delivery-reports.ts';

const keyOf = (inbox: { org_id: string; id: string }): InboxKey => ({ org_id: inbox.org_id, inbox_id: inbox.id });
const isSeqCursor = (v: any): v is { seq: number } => Number.isSafeInteger(v?.seq);
const isOffsetCursor = (v: any): v is { offset: number } => Number.isSafeInteger(v?.offset) && v.offset >= 0;

/** The inbox of the path and the message in it; a message of another inbox is not found. */
async function pathMessage(s: Services, ctx: ApiContext) {
  const inbox = await callerInbox(s, ctx);
  const id = ctx.state.params.message_id!;
  if (inboxIdOfMessage(id) !== inbox.id) throw notFound('message');
  return { inbox, at: keyOf(inbox), id };
}

export function messageRoutes(s: Services): RouteTable {
  return {
    listMessages: async (ctx) => {
      const inbox = await callerInbox(s, ctx);
      const limit = pageLimit(ctx.state.query.limit);
      const before = cursorsFor(s.config).decode(ctx.state.query.cursor, isSeqCursor);
      const rows = await listMessages(s.db, keyOf(inbox), { folder: ctx.state.query.folder ?? 'INBOX', limit: limit + 1, before: before?.seq ?? null });
      const { data, has_more, next_cursor } = cursorsFor(s.config).page(rows, limit, (last) => ({ seq: last.seq }));
      const included = await messageIncludes(s, callerScope(ctx), inbox, data, ctx.state.include);
      ctx.body = { object: 'list', data: data.map((m) => withIncluded(presentMessageSummary(inbox.address, m), included.get(m.id))), has_more, next_cursor };
    },

    getMessage: async (ctx) => {
      const id = ctx.state.params.message_id!;
      const inboxId = inboxIdOfMessage(id);
      if (!inboxId) throw notFound('message');
      const inbox = await callerInbox(s, ctx, inboxId, 'message');
      const found = await findMessageWithAttachments(s.db, keyOf(inbox), id);
      if (!found) throw notFound('message');
      const included = await messageIncludes(s, callerScope(ctx), inbox, [found.message], ctx.state.include);
      const message = presentMessage(inbox.address, found.message, found.attachments, {
        format: ctx.state.query.format,
        variant: ctx.state.query.variant,
      });
      // A sent copy says what became of the mail, per recipient.
      const delivery = found.message.review_id && found.message.direction === 'outbound'
        ? { delivery: presentDelivery(await deliveryStatusOf(s.db, inbox.org_id, found.message.review_id)) }
        : {};
      ctx.body = withIncluded({ ...message, ...delivery }, included.get(found.message.id));
    },

    getMessageRaw: async (ctx) => {
      const { at, id } = await pathMessage(s, ctx);
      const raw = await findMessageSource(s.db, at, id);
      if (!raw) throw notFound('message');
      setDownloadHeaders(ctx, 'message/rfc822', `${id}.eml`);
      ctx.body = raw;
    },

    listAttachments: async (ctx) => {
      const { at, id } = await pathMessage(s, ctx);
      const found = await findMessageWithAttachments(s.db, at, id);
      if (!found) throw notFound('message');
      ctx.body = { object: 'list', data: found.attachments.map(presentAttachment), has_more: false, next_cursor: null };
    },

    getAttachment: async (ctx) => {
      const { at, id } = await pathMessage(s, ctx);
      const part = await readAttachment(s.db, at, id, ctx.state.params.attachment_id!);
      if (!part) throw notFound('attachment');
      setDownloadHeaders(ctx, servedContentType(part.content_type), part.filename);
      ctx.body = part.content;
    },

    searchMessages: async (ctx) => {
      const inbox = await callerInbox(s, ctx);
      const q = ctx.state.query;
      const limit = pageLimit(q.limit);
      const offset = cursorsFor(s.config).decode(q.cursor, isOffsetCursor)?.offset ?? 0;
      const rows = await searchMessages(s.db, keyOf(inbox), {
        q: typeof q.q === 'string' && q.q.trim() !== '' ? q.q : null,
        from: q.from ?? null,
        to: q.to ?? null,
        subject: q.subject ?? null,
        folder: q.folder ?? null,
        after: q.after ? new Date(q.after) : null,
        before: q.before ? new Date(q.before) : null,
        has_attachment: q.has_attachment ?? null,
        authenticated: q.authenticated ?? null,
        limit: limit + 1,
        offset,
      });
      const { data, has_more, next_cursor } = cursorsFor(s.config).page(rows, limit, () => ({ offset: offset + limit }));
      const included = await messageIncludes(s, callerScope(ctx), inbox, data, ctx.state.include);
      ctx.body = {
        object: 'list',
        data: data.map((m) => withIncluded({ ...presentMessageSummary(inbox.address, m), rank: m.rank }, included.get(m.id))),
        has_more,
        next_cursor,
      };
    },

    batchUpdateMessages: async (ctx) => {
      const inbox = await callerInbox(s, ctx);
      const updated = await batchUpdateMessages(s.db, keyOf(inbox), ctx.state.body.updates);
      ctx.body = { object: 'list', data: updated.map((m) => presentMessageSummary(inbox.address, m)), has_more: false, next_cursor: null };
    },

    waitForEmail: async (ctx) => {
      const inbox = await callerInbox(s, ctx);
      const b = ctx.state.body ?? {};
      const gone = new AbortController();
      const onClose = () => {
        if (!ctx.res.writableFinished) gone.abort();
      };
      ctx.res.once('close', onClose);
      try {
        const result = await waitForEmail(s, keyOf(inbox), { ...b, timeout_seconds: b.timeout_seconds ?? 30 }, gone.signal);
        ctx.body = result.timed_out
          ? { message: null, timed_out: true }
          : {
              message: presentMessage(inbox.address, result.message, result.attachments),
              ...(result.code ? { code: result.code } : {}),
              ...(result.link ? { link: result.link } : {}),
            };
      } finally {
        ctx.res.off('close', onClose);
      }
    },
  };
}

/**
 * Every download: never rendered as a page of this origin (a sandbox CSP, no type sniffing), always
 * saved as a file, named by RFC 6266 with `filename*` for names beyond ASCII.
 */
export function setDownloadHeaders(ctx: ApiContext, type: string, filename: string | null): void {
  ctx.type = type;
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Content-Security-Policy', 'sandbox');
  const name = safeFilename(filename);
  ctx.set('Content-Disposition', name ? contentDisposition(name, { fallback: asciiFallback(name) }) : 'attachment');
}
