// Server-sent events: the response set-up every stream shares, and the live event stream, a
// feed (log-feed.ts) over the event log filtered to what the key may see.
import type http from 'node:http';
import { canSeeEvent, parseTypeFilter } from '../machines/policy/event-scope.ts';
import type { Scope } from '../machines/policy/inbox-scope.ts';
import {
  EVENTS_CHANNEL,
  eventsAfter,
  newestEventPosition,
  positionOfEvent,
  type ScopedEventRow,
} from '../storage/events.ts';
import { eventIdsFor, type OpaqueIds } from '../storage/opaque-ids.ts';
import type { ApiContext, Services } from './context.ts';
import { badRequest } from '../machines/problems.ts';
import { presentEvent } from '../actors/present/events.ts';
import { createLogFeed } from './log-feed.ts';

/** An open SSE response: write() resolves once the socket took the text (back-pressure). */
export type SseOut = {
  write(text: string | Buffer): Promise<void>;
  /** Sends one event. */
  event(id: string, type: string, data: unknown): Promise<void>;
  end(): void;
  readonly closed: boolean;
};

/**
 * Answers the request with an event stream. `onClose` runs once when the client goes away or the
 * stream is ended.
 */
export function openSse(ctx: ApiContext, onClose: () => void): SseOut {
  const res: http.ServerResponse = ctx.res;
  // A long-lived response: no socket timeout, no Nagle delay, nothing buffering in between.
  ctx.req.socket.setTimeout(0);
  ctx.req.socket.setNoDelay(true);
  ctx.req.socket.setKeepAlive(true);
  ctx.status = 200;
  ctx.set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  // Written here rather than by Koa, which would report every client that goes away as an error.
  ctx.respond = false;
  let closed = false;
  res.on('error', () => {});
  res.on('close', () => {
    closed = true;
    onClose();
  });
  const write = async (text: string | Buffer): Promise<void> => {
    if (closed || res.destroyed || res.write(text)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      res.on('drain', done);
      res.on('close', done);
    });
  };
  res.write(': stream open\n\n');
  return {
    write,
    event: (id, type, data) => write(sseFrame(id, type, data)),
    end: () => res.end(),
    get closed() {
      return closed || res.destroyed;
    },
  };
}

/** One event as the stream's wire carries it. */
export function sseFrame(id: string, type: string, data: unknown): string {
  return `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

type EventStream = { scope: Scope; types: Set<string> | null; ids: OpaqueIds; out: SseOut };

export type EventFeed = {
  /** Answers the request with a stream; returns once the stream is set up. */
  open(ctx: ApiContext, request: { scope: Scope; types?: string; lastEventId?: string }): Promise<void>;
};

export function createEventFeed(s: Services): EventFeed {
  // A row read once is sent to every stream of its slice: its frame is made (presented, encoded,
  // serialised) for the first stream that sends it, and the same bytes are written to the others.
  const frames = new WeakMap<ScopedEventRow, { ids: OpaqueIds; frame: Buffer }>();
  const frameOf = (row: ScopedEventRow, ids: OpaqueIds): Buffer => {
    const made = frames.get(row);
    if (made?.ids === ids) return made.frame;
    const frame = Buffer.from(sseFrame(ids.encode(row.id), row.type, presentEvent(row, ids)));
    frames.set(row, { ids, frame });
    return frame;
  };
  const feed = createLogFeed<ScopedEventRow, EventStream>(s, {
    channel: EVENTS_CHANNEL,
    wakes: (note, st) =>
      !(note.org_id && note.org_id !== st.scope.org_id) && !(note.project_id && st.scope.project_id && note.project_id !== st.scope.project_id),
    sliceKey: (st) => `${st.scope.org_id}|${st.scope.project_id ?? '*'}`,
    read: (st, after, limit) => eventsAfter(s.db, st.scope.org_id, st.scope.project_id, after, limit),
    async send(st, row) {
      if (!canSeeEvent(st.scope, row) || (st.types && !st.types.has(row.type))) return;
      await st.out.write(frameOf(row, st.ids));
    },
    beat: (st) => void st.out.write(': heartbeat\n\n'),
    end: (st) => st.out.end(),
  });

  return {
    async open(ctx, request) {
      const filter = parseTypeFilter(request.types);
      if (filter.unknown.length) throw badRequest('types', `Unknown event types: ${filter.unknown.join(', ')}.`, 'invalid_value');
      const ids = await eventIdsFor(s.db);
      let after: number | null = null;
      if (request.lastEventId !== undefined && request.lastEventId !== '') {
        // Only an id this service sent resumes a stream: a made-up or altered one says nothing.
        after = ids.decode(request.lastEventId.trim());
        if (after === null) throw badRequest('last_event_id', 'Last-Event-ID must be the id of an event this stream sent.', 'invalid_format');
      }
      const org = request.scope.org_id;
      await s.listener.ready();
      const cursor = after === null ? await newestEventPosition(s.db, org) : await positionOfEvent(s.db, org, after);
      let stop = () => {};
      const out = openSse(ctx, () => stop());
      stop = feed.add({ scope: request.scope, types: filter.types, ids, out }, cursor);
      if (out.closed) stop();
    },
  };
}
