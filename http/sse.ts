// The live event stream (server-sent events). Every stream of a process wakes on the one LISTEN
// connection; on a wake it reads the log after the position of the last event it sent, so order
// and the absence of duplicates come from the table, not from notifications. Streams reading the
// same slice of the log from the same position share one query, so an event reaches a thousand
// streams with one read.
import type http from 'node:http';
import { canSeeEvent, parseTypeFilter } from '../machines/policy/event-scope.ts';
import type { Scope } from '../machines/policy/inbox-scope.ts';
import {
  EVENTS_CHANNEL,
  eventsAfter,
  newestEventPosition,
  positionOfEvent,
  type EventPosition,
} from '../storage/events.ts';
import { eventIdsFor, type OpaqueIds } from '../storage/opaque-ids.ts';
import type { ApiContext, Services } from './context.ts';
import { badRequest } from '../machines/problems.ts';
import { presentEvent } from '../actors/bodies/events.ts';

const PAGE = 500;
// How soon a stream reads again when committed events wait behind a transaction still running
// (which may never publish, and so never wake it): soon, then less often while it stays open.
const HELD_RETRY_MS = 20;
const HELD_RETRY_MAX_MS = 1_000;

type Stream = {
  scope: Scope;
  types: Set<string> | null;
  cursor: EventPosition;
  ids: OpaqueIds;
  out: http.ServerResponse;
  retry: NodeJS.Timeout | null;
  /** Reads in a row that found events held back. */
  heldReads: number;
  pumping: boolean;
  again: boolean;
  closed: boolean;
};

export type EventFeed = {
  /** Answers the request with a stream; returns once the stream is set up. */
  open(ctx: ApiContext, request: { scope: Scope; types?: string; lastEventId?: string }): Promise<void>;
};

/** Log order: by writing transaction, then id (see EventPosition). */
function isAfter(row: { tx: string; id: number }, cursor: EventPosition): boolean {
  const a = BigInt(row.tx);
  const b = BigInt(cursor.tx);
  return a > b || (a === b && row.id > cursor.id);
}

export function createEventFeed(s: Services): EventFeed {
  const streams = new Set<Stream>();
  const reads = new Map<string, ReturnType<typeof eventsAfter>>();
  let heartbeat: NodeJS.Timeout | null = null;

  /** One query for every stream reading the same slice from the same position at the same moment. */
  const readAfter = (scope: Scope, cursor: EventPosition): ReturnType<typeof eventsAfter> => {
    const key = `${scope.org_id}|${scope.project_id ?? '*'}|${cursor.tx}|${cursor.id}`;
    const shared = reads.get(key);
    if (shared) return shared;
    const read = eventsAfter(s.db, scope.org_id, scope.project_id, cursor, PAGE).finally(() => {
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
        const { rows, held } = await readAfter(st.scope, st.cursor);
        for (const row of rows) {
          if (st.closed) return;
          if (!isAfter(row, st.cursor)) continue;
          st.cursor = { tx: row.tx, id: row.id };
          if (!canSeeEvent(st.scope, row) || (st.types && !st.types.has(row.type))) continue;
          await write(st, `id: ${st.ids.encode(row.id)}\nevent: ${row.type}\ndata: ${JSON.stringify(presentEvent(row, st.ids))}\n\n`);
        }
        // A read that moved on starts the back-off again.
        st.heldReads = !held ? 0 : rows.length > 0 ? 1 : st.heldReads + 1;
        if (held && !st.retry && !st.closed) {
          st.retry = setTimeout(() => {
            st.retry = null;
            reads.clear();
            void pump(st);
          }, Math.min(HELD_RETRY_MAX_MS, HELD_RETRY_MS * 2 ** (st.heldReads - 1)));
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
    if (st.retry) clearTimeout(st.retry);
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
      const ids = await eventIdsFor(s.db);
      let after: number | null = null;
      if (request.lastEventId !== undefined && request.lastEventId !== '') {
        // Only an id this service sent resumes a stream: a made-up or altered one says nothing.
        after = ids.decode(request.lastEventId.trim());
        if (after === null) throw badRequest('last_event_id', 'Last-Event-ID must be the id of an event this stream sent.', 'invalid_format');
      }
      const org = request.scope.org_id;
      await s.listener.ready();
      const st: Stream = {
        scope: request.scope,
        types: filter.types,
        cursor: after === null ? await newestEventPosition(s.db, org) : await positionOfEvent(s.db, org, after),
        ids,
        out: ctx.res,
        retry: null,
        heldReads: 0,
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
