// A server-sent events reader over fetch that resumes after a dropped connection by sending
// the id of the last event it delivered as Last-Event-ID, so no event is missed or repeated.
import type { Transport } from './transport.ts';

export type StreamEvent = { id: string; event: string; data: unknown };

export type StreamOptions = {
  query?: Record<string, unknown> | undefined;
  lastEventId?: string | undefined;
  signal?: AbortSignal | undefined;
  /** Delay before reconnecting after the connection ends or fails. Default 1,000 ms. */
  reconnectMs?: number | undefined;
};

export async function* readEventStream(transport: Transport, path: string, o: StreamOptions = {}): AsyncGenerator<StreamEvent> {
  let lastEventId = o.lastEventId;
  for (;;) {
    try {
      const res: Response = await transport.request('GET', path, {
        query: o.query,
        signal: o.signal,
        as: 'response',
        headers: { accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
      });
      for await (const ev of parse(res.body!)) {
        if (ev.id) lastEventId = ev.id;
        yield ev;
      }
    } catch (err) {
      if (o.signal?.aborted) return;
      if ((err as { status?: number }).status !== undefined && (err as { status: number }).status < 500) throw err;
    }
    if (o.signal?.aborted) return;
    await new Promise((r) => setTimeout(r, o.reconnectMs ?? 1000));
  }
}

async function* parse(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let id = '';
  let event = 'message';
  let data: string[] = [];
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffer.search(/\r\n|\n|\r/)) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + (buffer.startsWith('\r\n', nl) ? 2 : 1));
      if (line === '') {
        if (data.length) {
          const text = data.join('\n');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON: hand over the text
          }
          yield { id, event, data: parsed };
        }
        event = 'message';
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue; // heartbeat comment
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') id = value;
      else if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
  }
}
