// The live part of every stream read from an append-only log ordered by (writing transaction, id):
// the event stream (SSE) and the reviewer's work (SSE and WebSocket). Every stream of a process
// wakes on the one LISTEN connection; on a wake it reads the log after the position of the last
// row it sent, so order and the absence of duplicates come from the table, not from
// notifications. Streams reading the same slice of the log from the same position share one
// query, so a row reaches a thousand streams with one read. What a row becomes on the wire, and
// the wire itself, belong to the source.
import type { Services } from './context.ts';
import type { EventPosition } from '../storage/events.ts';

const PAGE = 500;
// How soon a stream reads again when committed rows wait behind a transaction still running
// (which may never publish, and so never wake it): soon, then less often while it stays open.
const HELD_RETRY_MS = 20;
const HELD_RETRY_MAX_MS = 1_000;

export type LogRow = { tx: string; id: number };

/** One kind of stream: where its rows come from and how one subscriber receives them. */
export type FeedSource<Row extends LogRow, Sub> = {
  /** The NOTIFY channel whose notes say new rows were committed. */
  channel: string;
  /** Whether a notification's note (its parsed payload, or {} when unreadable) may concern this subscriber. */
  wakes(note: Record<string, unknown>, sub: Sub): boolean;
  /** Subscribers with the same key read the same slice of the log: one query serves them all. */
  sliceKey(sub: Sub): string;
  read(sub: Sub, after: EventPosition, limit: number): Promise<{ rows: Row[]; held: boolean }>;
  /** Sends the row if this subscriber should have it; resolves once the wire took it (back-pressure). */
  send(sub: Sub, row: Row): Promise<void>;
  /** Keeps an idle connection open (a comment line, a ping). */
  beat(sub: Sub): void;
  /** Closes the subscriber's connection (a failed read ends the stream; the client resumes). */
  end(sub: Sub): void;
};

export type Feed<Sub> = {
  /** Starts pumping the log to `sub` after `cursor`; returns the function that stops it. */
  add(sub: Sub, cursor: EventPosition): () => void;
};

type Stream<Sub> = {
  sub: Sub;
  cursor: EventPosition;
  retry: NodeJS.Timeout | null;
  /** Reads in a row that found rows held back. */
  heldReads: number;
  pumping: boolean;
  again: boolean;
  closed: boolean;
};

/** Log order: by writing transaction, then id (see EventPosition). */
function isAfter(row: LogRow, cursor: EventPosition): boolean {
  const a = BigInt(row.tx);
  const b = BigInt(cursor.tx);
  return a > b || (a === b && row.id > cursor.id);
}

export function createLogFeed<Row extends LogRow, Sub>(s: Services, source: FeedSource<Row, Sub>): Feed<Sub> {
  const streams = new Set<Stream<Sub>>();
  const reads = new Map<string, Promise<{ rows: Row[]; held: boolean }>>();
  let heartbeat: NodeJS.Timeout | null = null;

  /** One query for every stream reading the same slice from the same position at the same moment. */
  const readAfter = (st: Stream<Sub>): Promise<{ rows: Row[]; held: boolean }> => {
    const key = `${source.sliceKey(st.sub)}|${st.cursor.tx}|${st.cursor.id}`;
    const shared = reads.get(key);
    if (shared) return shared;
    const read = source.read(st.sub, st.cursor, PAGE).finally(() => {
      if (reads.get(key) === read) reads.delete(key);
    });
    reads.set(key, read);
    return read;
  };

  const pump = async (st: Stream<Sub>): Promise<void> => {
    if (st.pumping) {
      st.again = true;
      return;
    }
    st.pumping = true;
    try {
      for (;;) {
        st.again = false;
        const { rows, held } = await readAfter(st);
        for (const row of rows) {
          if (st.closed) return;
          if (!isAfter(row, st.cursor)) continue;
          st.cursor = { tx: row.tx, id: row.id };
          await source.send(st.sub, row);
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
      s.log.warn({ err: (err as Error).message, channel: source.channel }, 'stream read failed; the stream ends and the client resumes');
      source.end(st.sub);
    } finally {
      st.pumping = false;
    }
  };

  s.listener.on(source.channel, (payload) => {
    let note: Record<string, unknown> = {};
    try {
      note = payload ? JSON.parse(payload) : {};
    } catch {
      // an unreadable note wakes every stream
    }
    // A read begun before this commit may miss its row: later pumps start fresh reads.
    reads.clear();
    for (const st of streams) if (source.wakes(note, st.sub)) void pump(st);
  });

  const startHeartbeat = () => {
    if (heartbeat) return;
    heartbeat = setInterval(() => {
      for (const st of streams) {
        source.beat(st.sub);
        // Also a safety net for a notification lost while the LISTEN connection was down.
        void pump(st);
      }
    }, s.config.sseHeartbeatSeconds * 1000);
    heartbeat.unref();
  };

  return {
    add(sub, cursor) {
      const st: Stream<Sub> = { sub, cursor, retry: null, heldReads: 0, pumping: false, again: false, closed: false };
      streams.add(st);
      startHeartbeat();
      void pump(st);
      return () => {
        if (st.closed) return;
        st.closed = true;
        if (st.retry) clearTimeout(st.retry);
        streams.delete(st);
        if (streams.size === 0 && heartbeat) {
          clearInterval(heartbeat);
          heartbeat = null;
        }
      };
    },
  };
}
