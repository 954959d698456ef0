// Send, reply and forward. The checks run before the idempotency key is claimed (a refused send
// writes nothing); the handler then creates the review.
import { prepareSendInScope, submitSend, type PreparedSend, type Submitted } from '../../actors/send.ts';
import { presentSendAccepted, reviewView } from '../../actors/present/reviews.ts';
import type { ReviewKind } from '../../storage/reviews.ts';
import type { ApiContext, Route, RouteTable, Services } from '../context.ts';
import { callerScope } from '../inbox-access.ts';

export function sendRoutes(s: Services): RouteTable {
  const prepared = new WeakMap<ApiContext, PreparedSend>();
  const prepare = (ctx: ApiContext, kind: ReviewKind) =>
    prepareSendInScope(s, {
      kind,
      scope: callerScope(ctx),
      inbox_id: ctx.state.params.inbox_id!,
      agent_id: ctx.state.auth!.agent_id,
      body: ctx.state.body,
      message_id: ctx.state.params.message_id,
    });
  const route = (kind: ReviewKind): Route => ({
    precheck: async (ctx) => {
      prepared.set(ctx, await prepare(ctx, kind));
    },
    handler: async (ctx) => {
      const p = prepared.get(ctx) ?? (await prepare(ctx, kind));
      const accepted = (submitted: Submitted) => ({
        status: 202,
        headers: { Location: `/v1/reviews/${submitted.review.id}` },
        body: presentSendAccepted(reviewView(submitted.review, 'composer'), submitted.released, submitted.policy),
      });
      // With an Idempotency-Key, its replay commits together with the review.
      const submitted = await submitSend(s, p, s.now(), ctx.state.idempotency && ((tx, sub) => ctx.state.idempotency!.completeIn(tx, accepted(sub))));
      const response = accepted(submitted);
      ctx.status = response.status;
      ctx.set('Location', response.headers.Location);
      ctx.body = response.body;
    },
  });
  return { sendEmail: route('send'), replyEmail: route('reply'), forwardEmail: route('forward') };
}
