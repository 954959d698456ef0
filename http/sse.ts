// The live event stream (server-sent events). Every stream of a process wakes on the one LISTEN
// connection; on a wake it reads the log after the last id it sent, so order and the absence of
// duplicates come from the table, not from notifications. Streams reading the same slice of the
// log from the same id share one query, so an event reaches a thousand streams with one read.
import type http from 'node:http';
import { canSeeEvent, parseTypeFilter } from '../machines/policy/event-scope.ts';
import type { Scope } from '../machines/policy/inbox-scope.ts';
import { EVENTS_CHANNEL, eventSequence, eventsAfter, lastEventId, publicEventId, type ScopedEventRow } from '../storage/events.ts';
import type { ApiContext, Services } from './context.ts';
import { badRequest } from './errors.ts';
import { presentEvent } from './present/events.ts';

const PAGE = 500;

type Stream = {
  scope: Scope;
  types: Set<string> | null;
  cursor: number;
  out: http.ServerResponse;
  pumping: boolean;
  again: boolean;
  closed: boolean;
};

export type EventFeed = {
  /** Answers the request with a stream; returns once the stream is set up. */
  open(ctx: ApiContext, request: { scope: Scope; types?: string; lastEventId?: string }): Promise<void>;
};

export function createEventFeed(s: Services): EventFeed {
  const streams = new Set<Stream>();
  const reads = new Map<string, Promise<ScopedEventRow[]>>();
  let heartbeat: NodeJS.Timeout | null = null;

  /** One query for every stream reading the same slice from the same id at the same moment. */
  const readAfter = (scope: Scope, cursor: number): Promise<ScopedEventRow[]> => {
    const key = `${scope.org_id}|${scope.project_id ?? '*'}|${cursor}`;
    const shared = reads.get(key);
    if (shared) return shared;
    const read: Promise<ScopedEventRow[]> = eventsAfter(s.db, scope.org_id, scope.project_id, cursor, PAGE).finally(() => {
      if (reads.get(key) === read) reads.delete(key);
    });
    reads.set(key, read);
    return read;
  };

  const write = async (st: Stream, text: string): Promise<void> => {
    if (st.closed || st.out.destroyed || st.out.write(text)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        st.out.off('drain', done);
        st.out.off('close', done);
        resolve();
      };
      st.out.on('drain', done);
      st.out.on('close', done);
    });
  };

  const pump = async (st: Stream): Promise<void> => {
    if (st.pumping) {
      st.again = true;
      return;
    }
    st.pumping = true;
    try {
      for (;;) {
        st.again = false;
        const rows = await readAfter(st.scope, st.cursor);
        for (const row of rows) {
          if (st.closed) return;
          if (row.id <= st.cursor) continue;
          st.cursor = row.id;
          if (!canSeeEvent(st.scope, row) || (st.types && !st.types.has(row.type))) continue;
          await write(st, `id: ${publicEventId(row.id)}\nevent: ${row.type}\ndata: ${JSON.stringify(presentEvent(row))}\n\n`);
        }
        if (rows.length < PAGE && !st.again) return;
      }
    } catch (err) {
      s.log.warn({ err: (err as Error).message }, 'event stream read failed; the stream ends and the client resumes');
      st.out.end();
    } finally {
      st.pumping = false;
    }
  };

  s.listener.on(EVENTS_CHANNEL, (payload) => {
    let note: { org_id?: string; project_id?: string } = {};
    try {
      note = payload ? JSON.parse(payload) : {};
    } catch {
      // an unreadable note wakes every stream
    }
    // A read begun before this commit may miss its event: later pumps start fresh reads.
    reads.clear();
    for (const st of streams) {
      if (note.org_id && note.org_id !== st.scope.org_id) continue;
      if (note.project_id && st.scope.project_id && note.project_id !== st.scope.project_id) continue;
      void pump(st);
    }
  });

  const startHeartbeat = () => {
    if (heartbeat) return;
    heartbeat = setInterval(() => {
      for (const st of streams) {
        if (!st.out.destroyed) st.out.write(': heartbeat\n\n');
        // Also a safety net for a notification lost while the LISTEN connection was down.
        void pump(st);
      }
    }, s.config.sseHeartbeatSeconds * 1000);
    heartbeat.unref();
  };

  const close = (st: Stream) => {
    st.closed = true;
    streams.delete(st);
    st.out.end();
    if (streams.size === 0 && heartbeat) {
      clearInterval(heartbeat);
      heartbeat = null;
    }
  };

  return {
    async open(ctx, request) {
      const filter = parseTypeFilter(request.types);
      if (filter.unknown.length) throw badRequest('types', `Unknown event types: ${filter.unknown.join(', ')}.`, 'invalid_value');
      let after: number | null = null;
      if (request.lastEventId !== undefined && request.lastEventId !== '') {
        after = eventSequence(request.lastEventId);
        if (after === null) throw badRequest('last_event_id', 'Last-Event-ID must be an event id such as evt_123.', 'invalid_format');
      }
      await s.listener.ready();
      const st: Stream = {
        scope: request.scope,
        types: filter.types,
        cursor: after ?? (await lastEventId(s.db, request.scope.org_id)),
        out: ctx.res,
        pumping: false,
        again: false,
        closed: false,
      };
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
      ctx.res.on('error', () => {});
      ctx.res.on('close', () => close(st));
      st.out.write(': stream open\n\n');
      streams.add(st);
      startHeartbeat();
      void pump(st);
    },
  };
}
