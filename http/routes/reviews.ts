// The composer's side of the Review Loop: its reviews, their verbs, and the durable event queue.
import { ackEvents, drainReviewEvents, waitForReviewEvents, type ComposerReach } from '../../actors/review-events.ts';
import { composer, type ComposerScope } from '../../actors/reviews/composer.ts';
import { reviewView } from '../../actors/present/reviews.ts';
import type { ReviewActor } from '../../machines/review-verbs.ts';
import { findReview, listFeedback, listReviews, type ReviewCursor, type ReviewScope } from '../../storage/reviews.ts';
import type { ApiContext, RouteTable, Services } from '../context.ts';
import { notFound } from '../../machines/problems.ts';
import { callerInbox } from '../inbox-access.ts';
import { cursorsFor, pageLimit } from '../paging.ts';
import { presentFeedback, presentReview, presentReviewEvent } from '../../actors/present/reviews.ts';
import { presentDelivery } from '../../actors/present/messages.ts';
import { deliveryStatusOf } from '../../storage/delivery-reports.ts';

const scopeOf = (ctx: ApiContext): ComposerScope => {
  const a = ctx.state.auth!;
  return { org_id: a.org_id, project_id: a.project_id, agent_id: a.agent_id, inbox_id: a.ceiling === 'inbox' ? a.inbox_id : null };
};

const reachOf = (ctx: ApiContext): ComposerReach => {
  const c = scopeOf(ctx);
  return { org_id: c.org_id, agent_id: c.agent_id, inbox_id: c.inbox_id };
};

const isReviewCursor = (v: any): v is ReviewCursor => Number.isSafeInteger(v?.created_us) && typeof v?.id === 'string';

/** A page of the reviews in `scope` (`state`, `limit` and `cursor` from the query), as `viewer` sees them. */
export async function reviewPage(s: Services, ctx: ApiContext, scope: ReviewScope, order: 'asc' | 'desc', viewer: ReviewActor) {
  const q = ctx.state.query;
  const limit = pageLimit(q.limit);
  const rows = await listReviews(s.db, scope, {
    states: q.state ? String(q.state).split(',') : null,
    limit: limit + 1,
    after: cursorsFor(s.config).decode(q.cursor, isReviewCursor),
    order,
    parked: q.needs_reconciliation === true || q.needs_reconciliation === 'true',
  });
  const p = cursorsFor(s.config).page(rows, limit, (last) => ({ created_us: last.created_us, id: last.id }));
  return { object: 'list', data: p.data.map((r) => presentReview(reviewView(r, viewer))), has_more: p.has_more, next_cursor: p.next_cursor };
}

const isEventCursor = (v: any): v is { after: number } => Number.isSafeInteger(v?.after);

/** An `inbox_id` filter names an inbox the key reaches (by id or address); another is 404. */
async function inboxFilter(s: Services, ctx: ApiContext): Promise<string | null> {
  const given = ctx.state.query.inbox_id;
  return given ? (await callerInbox(s, ctx, String(given))).id : null;
}

async function eventQuery(s: Services, ctx: ApiContext) {
  const q = ctx.state.query;
  return {
    review_id: q.review_id ? String(q.review_id) : null,
    inbox_id: await inboxFilter(s, ctx),
    after_id: cursorsFor(s.config).decode(q.cursor, isEventCursor)?.after ?? 0,
    limit: pageLimit(q.limit),
  };
}

function eventPage(s: Services, rows: Awaited<ReturnType<typeof drainReviewEvents>>, limit: number) {
  const has_more = rows.length > limit;
  const data = has_more ? rows.slice(0, limit) : rows;
  return {
    object: 'list',
    data: data.map(presentReviewEvent),
    has_more,
    next_cursor: has_more ? cursorsFor(s.config).encode({ after: data[data.length - 1]!.id }) : null,
  };
}

export function reviewRoutes(s: Services): RouteTable {
  const own = async (ctx: ApiContext) => {
    const row = await findReview(s.db, scopeOf(ctx), ctx.state.params.review_id!);
    if (!row) throw notFound('review');
    return row;
  };
  const body = (ctx: ApiContext) => ctx.state.body ?? {};
  const answer = (ctx: ApiContext, row: Parameters<typeof reviewView>[0]) => {
    ctx.body = presentReview(reviewView(row, 'composer'));
  };
  return {
    listReviewEvents: async (ctx) => {
      const q = await eventQuery(s, ctx);
      ctx.body = eventPage(s, await drainReviewEvents(s.db, reachOf(ctx), q), q.limit);
    },
    waitForReviewEvent: async (ctx) => {
      const q = await eventQuery(s, ctx);
      const timeout = Number(ctx.state.query.timeout_seconds ?? 30) * 1000;
      // The response closing before we answered means the client went away.
      const closed = new Promise<void>((resolve) => ctx.res.once('close', () => resolve()));
      const { rows, timed_out } = await waitForReviewEvents(s, reachOf(ctx), q, timeout, closed);
      ctx.body = { ...eventPage(s, rows, q.limit), timed_out };
    },
    ackReviewEvents: async (ctx) => {
      const cursors = await ackEvents(s.db, reachOf(ctx), body(ctx).acks ?? [], body(ctx).broadcast_ids ?? []);
      ctx.body = { cursors };
    },
    listReviews: async (ctx) => {
      const c = scopeOf(ctx);
      const inbox = await inboxFilter(s, ctx);
      ctx.body = await reviewPage(s, ctx, { ...c, inbox_id: c.inbox_id ?? inbox }, 'desc', 'composer');
    },
    getReview: async (ctx) => {
      const row = await own(ctx);
      ctx.body = { ...presentReview(reviewView(row, 'composer')), delivery: presentDelivery(await deliveryStatusOf(s.db, row.org_id, row.id)) };
    },
    getReviewFeedback: async (ctx) => {
      const row = await own(ctx);
      ctx.body = { review_id: row.id, data: (await listFeedback(s.db, row.org_id, row.id)).map(presentFeedback) };
    },
    cancelReview: async (ctx) => answer(ctx, await composer.cancel(s, scopeOf(ctx), ctx.state.params.review_id!, body(ctx).reason ?? null)),
    restampReview: async (ctx) => answer(ctx, await composer.restamp(s, scopeOf(ctx), ctx.state.params.review_id!, body(ctx).parent_revision)),
    reviseReview: async (ctx) => answer(ctx, await composer.revise(s, scopeOf(ctx), ctx.state.params.review_id!, body(ctx))),
    chatReview: async (ctx) => {
      const b = body(ctx);
      answer(ctx, await composer.chat(s, scopeOf(ctx), ctx.state.params.review_id!, b.message, b.parent_revision));
    },
  };
}
