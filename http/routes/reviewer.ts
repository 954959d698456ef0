// Reviewer agents: review links on the console plane, and the reviewer plane (decisions, queue,
// stream; the WebSocket itself is answered at the upgrade, see reviewer-ws.ts).
import { changeReviewLink, createReviewLink, removeReviewLink } from '../../actors/review-links.ts';
import { reviewerQueuePage } from '../../actors/reviewer.ts';
import { reviewView } from '../../actors/present/reviews.ts';
import { reviewerDecision, type ReviewerScope } from '../../actors/reviews/decisions.ts';
import { listReviewLinks, type QueueCursor, type ReviewLinkCursor } from '../../storage/review-links.ts';
import { badRequest } from '../../machines/problems.ts';
import type { ApiContext, RouteTable, Services } from '../context.ts';
import { cursorsFor, pageLimit } from '../paging.ts';
import { presentReviewLink } from '../../actors/present/review-links.ts';
import { presentReview } from '../../actors/present/reviews.ts';
import { createReviewerFeed } from '../reviewer-feed.ts';
import { openSse } from '../sse.ts';

const at = (ctx: ApiContext) => ({ org_id: ctx.state.params.org_id!, project_id: ctx.state.params.project_id! });

const reviewerOf = (ctx: ApiContext): ReviewerScope => {
  const a = ctx.state.auth!;
  return { org_id: a.org_id, project_id: a.project_id, agent_id: a.agent_id };
};

const isLinkCursor = (v: any): v is ReviewLinkCursor => typeof v?.created_at === 'string' && typeof v?.id === 'string';
const isQueueCursor = (v: any): v is QueueCursor => Number.isSafeInteger(v?.routed_us) && typeof v?.review_id === 'string';

export function reviewerRoutes(s: Services): RouteTable {
  const stream = createReviewerFeed(s, 'sse');
  return {
    adminCreateReviewLink: async (ctx) => {
      ctx.status = 201;
      ctx.body = presentReviewLink(await createReviewLink(s, at(ctx), ctx.state.body));
    },
    adminListReviewLinks: async (ctx) => {
      const limit = pageLimit(ctx.state.query.limit);
      const rows = await listReviewLinks(s.db, at(ctx), { limit: limit + 1, after: cursorsFor(s.config).decode(ctx.state.query.cursor, isLinkCursor) });
      const has_more = rows.length > limit;
      const data = rows.slice(0, limit);
      const last = data[data.length - 1];
      ctx.body = {
        object: 'list',
        data: data.map(presentReviewLink),
        has_more,
        next_cursor: has_more && last ? cursorsFor(s.config).encode({ created_at: new Date(last.created_at).toISOString(), id: last.id }) : null,
      };
    },
    adminUpdateReviewLink: async (ctx) => {
      ctx.body = presentReviewLink(await changeReviewLink(s, at(ctx), ctx.state.params.link_id!, ctx.state.body));
    },
    adminDeleteReviewLink: async (ctx) => {
      await removeReviewLink(s, at(ctx), ctx.state.params.link_id!);
      ctx.status = 204;
    },
    decideReview: async (ctx) => {
      const row = await reviewerDecision(s, reviewerOf(ctx), ctx.state.params.review_id!, ctx.state.body);
      ctx.body = presentReview(reviewView(row, 'reviewer_agent'));
    },
    getReviewerQueue: async (ctx) => {
      const limit = pageLimit(ctx.state.query.limit);
      const items = await reviewerQueuePage(s.db, reviewerOf(ctx), { limit, after: cursorsFor(s.config).decode(ctx.state.query.cursor, isQueueCursor) });
      const has_more = items.length > limit;
      const data = items.slice(0, limit);
      const last = data[data.length - 1];
      ctx.body = { object: 'list', data: data.map((i) => i.item), has_more, next_cursor: has_more && last ? cursorsFor(s.config).encode(last.cursor) : null };
    },
    streamReviewerWork: async (ctx) => {
      const feed = await stream.prepare(reviewerOf(ctx), ctx.get('last-event-id') || ctx.state.query.last_event_id);
      let stop = () => {};
      const out = openSse(ctx, () => stop());
      stop = feed.connect({
        send: (id, item) => out.event(id, 'reviewer.work', item),
        beat: () => void out.write(': heartbeat\n\n'),
        end: () => out.end(),
      });
      if (out.closed) stop();
    },
    // Reached only without an upgrade: the upgrade is taken by the WebSocket server before Koa.
    reviewerSocket: async () => {
      throw badRequest('Upgrade', 'GET /v1/reviewer/ws is a WebSocket: send "Connection: Upgrade" and "Upgrade: websocket".', 'required');
    },
  };
}
