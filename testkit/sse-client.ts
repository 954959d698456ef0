// A plain server-sent events client over node:http, so tests see the exact frames on the wire.
import http from 'node:http';

export type SseEvent = { id: string | null; event: string | null; data: string; at: number };

export type SseClient = {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body, when the answer was not a stream. */
  body: string;
  events: SseEvent[];
  comments: string[];
  /** Resolves once `count` events have arrived in total. */
  waitForEvents(count: number, timeoutMs?: number): Promise<SseEvent[]>;
  waitForComment(match: RegExp, timeoutMs?: number): Promise<void>;
  onEvent(fn: (e: SseEvent) => void): void;
  close(): void;
};

export function openStream(baseUrl: string, path: string, opts: { token?: string; headers?: Record<string, string> } = {}): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { accept: 'text/event-stream', ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const req = http.get(new URL(path, baseUrl), { headers, agent: false }, (res) => {
      const events: SseEvent[] = [];
      const comments: string[] = [];
      const listeners: Array<() => void> = [];
      const eventFns: Array<(e: SseEvent) => void> = [];
      let buffer = '';
      let body = '';
      const notify = () => listeners.slice().forEach((fn) => fn());
      const client: SseClient = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        get body() {
          return body;
        },
        events,
        comments,
        waitForEvents: (count, timeoutMs = 10_000) =>
          waitUntil(() => events.length >= count, listeners, timeoutMs, `${count} events (have ${events.length})`).then(() => events.slice(0, count)),
        waitForComment: (match, timeoutMs = 10_000) =>
          waitUntil(() => comments.some((c) => match.test(c)), listeners, timeoutMs, `a comment matching ${match}`),
        onEvent: (fn) => eventFns.push(fn),
        close: () => {
          req.destroy();
          res.destroy();
        },
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (!String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
          body += chunk;
          return;
        }
        buffer += chunk.replace(/\r\n/g, '\n');
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const ev: SseEvent = { id: null, event: null, data: '', at: performance.now() };
          let isEvent = false;
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else {
              const colon = line.indexOf(':');
              const field = colon < 0 ? line : line.slice(0, colon);
              const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
              if (field === 'id') ev.id = value;
              else if (field === 'event') ev.event = value;
              else if (field === 'data') data.push(value);
              else continue;
              isEvent = true;
            }
          }
          if (isEvent) {
            ev.data = data.join('\n');
            events.push(ev);
            for (const fn of eventFns) fn(ev);
          }
        }
        notify();
      });
      res.on('end', notify);
      res.on('error', () => {});
      if (String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) resolve(client);
      else res.on('end', () => resolve(client));
    });
    req.on('error', reject);
  });
}

function waitUntil(done: () => boolean, listeners: Array<() => void>, timeoutMs: number, what: string): Promise<void> {
  if (done()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!done()) return;
      cleanup();
      resolve();
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
    }, timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      listeners.splice(listeners.indexOf(check), 1);
    };
    listeners.push(check);
  });
}
