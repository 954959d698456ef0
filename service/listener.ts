// One LISTEN connection per process, fanned out in memory: many waiters (long polls, SSE
// streams, workers) cost one database connection, not one each. Reconnects after an outage.
import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { Logger } from './logger.ts';

export type Listener = {
  /** Subscribes to a channel; returns the function that unsubscribes. */
  on(channel: string, fn: (payload: string) => void): () => void;
  /** Resolves once LISTEN is active on every channel subscribed so far. */
  ready(): Promise<void>;
  close(): Promise<void>;
};

export function createListener(url: string, log: Logger): Listener {
  const bus = new EventEmitter();
  bus.setMaxListeners(0);
  const channels = new Set<string>();
  let client: pg.Client | null = null;
  let connecting: Promise<void> | null = null;
  let closed = false;
  let retryTimer: NodeJS.Timeout | null = null;
  // LISTEN commands sent on the live connection and not yet answered; ready() waits for them.
  const pending = new Set<Promise<void>>();

  const connect = (): Promise<void> => {
    connecting ??= (async () => {
      const c = new pg.Client({ connectionString: url, application_name: 'agent-inbox-listen' });
      c.on('notification', (msg) => bus.emit(msg.channel, msg.payload ?? ''));
      c.on('error', (err) => {
        log.warn({ err: err.message }, 'listen connection lost');
        drop(c);
      });
      c.on('end', () => drop(c));
      await c.connect();
      for (const ch of channels) await c.query(`LISTEN ${c.escapeIdentifier(ch)}`);
      // Closed while connecting: this connection must not outlive close().
      if (closed) {
        await c.end().catch(() => {});
        return;
      }
      client = c;
      // Wake everyone once after a reconnect: notifications sent while down were lost.
      for (const ch of channels) bus.emit(ch, '');
    })().finally(() => {
      connecting = null;
    });
    return connecting;
  };

  const drop = (c: pg.Client) => {
    if (client === c) client = null;
    c.end().catch(() => {});
    scheduleReconnect();
  };

  const scheduleReconnect = () => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      if (!client && !closed) connect().catch(() => scheduleReconnect());
    }, 500);
    retryTimer.unref();
  };

  return {
    on(channel, fn) {
      bus.on(channel, fn);
      if (!channels.has(channel)) {
        channels.add(channel);
        if (client) {
          const listening = client.query(`LISTEN ${client.escapeIdentifier(channel)}`).then(() => {}, () => {});
          pending.add(listening);
          void listening.finally(() => pending.delete(listening));
        } else connect().catch(() => scheduleReconnect());
      }
      return () => bus.off(channel, fn);
    },
    async ready() {
      if (connecting) await connecting.catch(() => {});
      if (pending.size) await Promise.all(pending);
      if (!client && !closed) await connect();
    },
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      // A connection still being made is ended by connect() itself; wait for it, or it would
      // outlive the close and see the database stop under it.
      if (connecting) await connecting.catch(() => {});
      await client?.end().catch(() => {});
      client = null;
    },
  };
}
