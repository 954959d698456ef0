// Send, reply and forward. The checks run before the idempotency key is claimed (a refused send
// writes nothing); the handler then creates the review. A plain send reads its inbox and what it is
// checked against in one round trip.
import { reviewView } from '../../actors/reviews.ts';
import { plainSendRecipients, prepareSend, submitSend, type PreparedSend, type Submitted } from '../../actors/send.ts';
import type { ReviewKind } from '../../storage/reviews.ts';
import type { ApiContext, Route, RouteTable, Services } from '../context.ts';
import { callerInbox, callerInboxWithSendChecks } from '../inbox-access.ts';
import { presentSendAccepted } from '../present/reviews.ts';

export function sendRoutes(s: Services): RouteTable {
  const prepared = new WeakMap<ApiContext, PreparedSend>();
  const prepare = async (ctx: ApiContext, kind: ReviewKind) => {
    const recipients = kind === 'send' ? plainSendRecipients(ctx.state.body) : null;
    const { inbox, readAhead } = recipients
      ? await callerInboxWithSendChecks(s, ctx, recipients)
      : { inbox: await callerInbox(s, ctx), readAhead: undefined };
    return prepareSend(s, { kind, inbox, agent_id: ctx.state.auth!.agent_id, body: ctx.state.body, message_id: ctx.state.params.message_id, readAhead });
  };
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
