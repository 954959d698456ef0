// Review notifications on the console plane (each member's preference, the chat-ops channel, a
// review's notification history), and the pages behind a notification mail's one-time links.
// A link's GET only shows the draft: link scanners and mail previews follow links, so only the
// page's button (a POST) decides.
import {
  chatopsChannel,
  consoleUrl,
  decideByLink,
  notificationHistory,
  notificationPreference,
  readLink,
  setChatopsChannel,
  setNotificationPreference,
  type LinkRefusal,
} from '../../actors/notifications.ts';
import { restoreReview } from '../../actors/reviews/snapshot.ts';
import { notFound } from '../../machines/problems.ts';
import { findReview } from '../../storage/reviews.ts';
import type { ApiContext, RouteTable, Services } from '../context.ts';
import { escapeHtml, pageShell, sendPage } from '../pages.ts';

const at = (ctx: ApiContext) => ({ org_id: ctx.state.params.org_id!, project_id: ctx.state.params.project_id! });

/** The link page posts its own form back; nothing else is loaded. */
const LINK_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const WHY: Record<LinkRefusal, string> = {
  invalid: 'This link is not valid.',
  used: 'This link was used already. It works once; nothing was changed.',
  expired: 'This link has expired; nothing was changed.',
  superseded: 'The draft was revised after this link was sent, so this link decides nothing. The current revision is in the console.',
  decided: 'This review is no longer waiting for a decision; nothing was changed.',
  not_member: 'You may no longer decide on reviews of this project; nothing was changed.',
};

type Addr = { email: string; name?: string | null };
const list = (v: unknown) => escapeHtml(((v as Addr[] | undefined) ?? []).map((a) => a.email).join(', '));

/** Reads a small urlencoded form body (8 KB at most; anything else reads as empty). */
async function formFields(ctx: ApiContext): Promise<URLSearchParams> {
  if (!ctx.is('application/x-www-form-urlencoded')) return new URLSearchParams();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 8192) return new URLSearchParams();
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function refusalPage(ctx: ApiContext, s: Services, why: LinkRefusal, reviewId?: string, detail?: string): void {
  ctx.status = why === 'invalid' ? 404 : 409;
  const open = reviewId ? `<p><a href="${escapeHtml(consoleUrl(s.config, reviewId))}">Open the review in the console</a></p>` : '';
  sendPage(ctx, pageShell('Nothing was decided', `<h1>Nothing was decided</h1><p id="why" data-why="${why}">${escapeHtml(WHY[why])}</p>${detail ? `<p>${escapeHtml(detail)}</p>` : ''}${open}`), LINK_PAGE_CSP);
}

const actionOf = (v: unknown): 'approve' | 'reject' | null => (v === 'approve' || v === 'reject' ? v : null);

export function notificationRoutes(s: Services): RouteTable {
  return {
    adminGetNotificationPreferences: async (ctx) => {
      ctx.body = await notificationPreference(s.db, { ...at(ctx), email: ctx.state.console!.email });
    },
    adminSetNotificationPreferences: async (ctx) => {
      ctx.body = await setNotificationPreference(s.db, { ...at(ctx), email: ctx.state.console!.email }, ctx.state.body);
    },
    adminGetChatops: async (ctx) => {
      ctx.body = await chatopsChannel(s.db, at(ctx));
    },
    adminSetChatops: async (ctx) => {
      ctx.body = await setChatopsChannel(s, at(ctx), ctx.state.body.webhook_url ?? null);
    },
    adminReviewNotifications: async (ctx) => {
      const row = await findReview(s.db, { ...at(ctx), agent_id: null, inbox_id: null }, ctx.state.params.review_id!);
      if (!row) throw notFound('review');
      ctx.body = await notificationHistory(s.db, row.org_id, row.id);
    },
    decisionLinkPage: async (ctx) => {
      const read = await readLink(s.db, ctx.state.params.token!);
      if (!read.ok) return refusalPage(ctx, s, read.why, read.review?.id);
      const c = restoreReview(read.review).context;
      const d = c.draft;
      const only = actionOf(ctx.state.query.action);
      const approve = `<form method="post"><input type="hidden" name="action" value="approve"><button type="submit" id="approve">Approve and send</button></form>`;
      const reject =
        `<form method="post"><input type="hidden" name="action" value="reject">` +
        `<p><label>Feedback for the agent<br><textarea name="feedback" rows="4" cols="60"></textarea></label></p>` +
        `<button type="submit" id="reject">Reject</button></form>`;
      const buttons = only === 'approve' ? approve : only === 'reject' ? reject : approve + reject;
      const body =
        `<h1>Review of a draft</h1>` +
        `<p>For ${escapeHtml(read.link.email)}, revision ${read.link.revision}. Nothing is decided until you press a button.</p>` +
        `<table><tr><th>From</th><td>${escapeHtml(read.inboxAddress)}</td></tr>` +
        `<tr><th>To</th><td>${list(d.to)}</td></tr>` +
        (list(d.cc) ? `<tr><th>Cc</th><td>${list(d.cc)}</td></tr>` : '') +
        `<tr><th>Subject</th><td id="subject">${escapeHtml(d.subject ?? '')}</td></tr>` +
        `<tr><th>Intent</th><td>${escapeHtml(c.intent?.summary ?? '')}</td></tr></table>` +
        `<pre id="draft" style="white-space:pre-wrap;border:1px solid #ddd;padding:.6em">${escapeHtml(d.text ?? '')}</pre>` +
        buttons +
        `<p><a href="${escapeHtml(consoleUrl(s.config, read.review.id))}">Open in the console</a></p>`;
      sendPage(ctx, pageShell('Review of a draft', body), LINK_PAGE_CSP);
    },
    decisionLinkDecide: async (ctx) => {
      const form = await formFields(ctx);
      const action = actionOf(form.get('action')) ?? actionOf(ctx.state.query.action);
      if (!action) return refusalPage(ctx, s, 'invalid');
      const feedback = form.get('feedback')?.trim() || null;
      const outcome = await decideByLink(s, ctx.state.params.token!, action, feedback);
      if (!outcome.ok) {
        const read = await readLink(s.db, ctx.state.params.token!);
        return refusalPage(ctx, s, outcome.why, 'review' in read ? read.review?.id : undefined);
      }
      const done = action === 'approve' ? 'Approved: the mail is on its way.' : 'Rejected: the agent gets your feedback.';
      sendPage(ctx, pageShell('Decided', `<h1>Decided</h1><p id="done" data-state="${escapeHtml(outcome.state)}">${escapeHtml(done)}</p>`), LINK_PAGE_CSP);
    },
  };
}
