// The live event stream.
import type { RouteTable, Services } from '../context.ts';
import { callerScope } from '../inbox-access.ts';
import { createEventFeed } from '../sse.ts';

export function eventRoutes(s: Services): RouteTable {
  const feed = createEventFeed(s);
  return {
    streamEvents: async (ctx) => {
      await feed.open(ctx, {
        scope: callerScope(ctx),
        types: ctx.state.query.types,
        lastEventId: ctx.get('last-event-id') || ctx.state.query.last_event_id,
      });
    },
  };
}
