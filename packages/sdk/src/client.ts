// The agent-plane client: one method per operation (generated from the OpenAPI document), plus
// iterators for cursor paging, the live event stream, the reviewer's work stream and the durable
// review event queue.
import { AutomaticFeedback, type AutomaticFeedbackOptions } from './auto-feedback.ts';
import { GeneratedMethods } from './generated/methods.ts';
import { OPERATIONS, type OperationId } from './generated/operations.ts';
import { readEventStream, type StreamEvent, type StreamOptions } from './sse.ts';
import { Transport, type TransportOptions } from './transport.ts';
import type { components } from './generated/schema.ts';
import type { CallOptions, ResponseOf } from './types.ts';

/** A reviewer agent's work item: the review, its draft and intent, the thread and the feedback so far. */
export type ReviewerWork = components['schemas']['ReviewerWork'];

/** One item of the reviewer's stream, with the id that resumes after it. */
export type ReviewerWorkEvent = { id: string; work: ReviewerWork };

/** One event of the durable review event queue (`review.sent`, `review.rejected`, ...). */
export type ReviewEvent = components['schemas']['ReviewEventItem'];

/** What `paginate` reads from a page: its items (under `data`, or `items`/`messages` where a list names them so) and the cursor. */
export type PageShape = {
  data?: readonly unknown[] | undefined;
  items?: readonly unknown[] | undefined;
  messages?: readonly unknown[] | undefined;
  has_more?: boolean | undefined;
  next_cursor?: string | null | undefined;
};

/** The item type of a cursor-paged list response. */
export type PageItem<P> = P extends { data: readonly (infer I)[] }
  ? I
  : P extends { items: readonly (infer I)[] }
    ? I
    : P extends { messages: readonly (infer I)[] }
      ? I
      : unknown;

export type ClientOptions = Omit<TransportOptions, 'baseUrl'> & {
  baseUrl?: string | undefined;
  /**
   * File an unexpected 5xx as automatic support feedback, when the org opted in (read from the
   * reporting policy). The failed call still throws as it would have, and is never retried for it.
   */
  automaticFeedback?: boolean | AutomaticFeedbackOptions | undefined;
};

/** The SDK's own version, sent as `client_versions.sdk` in automatic feedback. */
const SDK_VERSION = '0.1.0-pre.6';

export class AgentInbox extends GeneratedMethods {
  readonly transport: Transport;
  private readonly reporter: AutomaticFeedback | null;

  constructor(options: ClientOptions = {}) {
    super();
    const { automaticFeedback, ...transport } = options;
    this.transport = new Transport({ ...transport, baseUrl: options.baseUrl ?? 'http://127.0.0.1:8080' });
    this.reporter = automaticFeedback
      ? new AutomaticFeedback(
          {
            projectOfKey: async () => (await this.transport.request('GET', '/v1/auth/me')).project_id,
            automaticAllowed: async (p) => (await this.transport.request('GET', `/v1/projects/${encodeURIComponent(p)}/feedback/policy`)).automatic_feedback === true,
            file: (p, body) => this.transport.request('POST', `/v1/projects/${encodeURIComponent(p)}/feedback`, { body }),
          },
          automaticFeedback === true ? {} : automaticFeedback,
          SDK_VERSION,
        )
      : null;
  }

  /** Waits until the automatic feedback reports started so far are filed (for tests and shutdown). */
  flushFeedback(): Promise<void> {
    return this.reporter?.flush() ?? Promise.resolve();
  }

  /** The path template of an operation, e.g. `/v1/inboxes/{inbox_id}/send`. */
  pathOf(id: OperationId): string {
    return OPERATIONS[id].path;
  }

  protected call(
    id: OperationId,
    params: Record<string, string>,
    body: unknown,
    query: unknown,
    kind: 'json' | 'bytes' | 'response',
    options: CallOptions = {},
  ): Promise<any> {
    const op = OPERATIONS[id];
    const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
    const pending = this.transport.request(op.method, path, {
      body,
      query: query as Record<string, unknown> | undefined,
      idempotencyKey: options.idempotencyKey,
      headers: options.headers,
      signal: options.signal,
      as: kind,
    });
    if (!this.reporter) return pending;
    // The report runs beside the failure, which is rethrown unchanged: nothing is retried for it.
    return pending.catch((err: unknown) => {
      this.reporter!.observe(id, op.method, err);
      throw err;
    });
  }

  /**
   * Every item of a cursor-paged list, fetching pages as the loop asks for them, typed as the
   * list's items: `for await (const m of client.paginate((cursor) => client.listMessages(id, { cursor })))`.
   */
  async *paginate<P extends PageShape>(page: (cursor: string | undefined) => Promise<P>): AsyncGenerator<PageItem<P>> {
    let cursor: string | undefined;
    do {
      const res: PageShape = await page(cursor);
      const items = (res.data ?? res.items ?? res.messages ?? []) as PageItem<P>[];
      for (const item of items) yield item;
      cursor = res.has_more ? (res.next_cursor ?? undefined) : undefined;
    } while (cursor);
  }

  /** The live event stream (SSE); resumes with Last-Event-ID after a dropped connection. */
  events(options: StreamOptions & { types?: string[] | undefined } = {}): AsyncGenerator<StreamEvent> {
    const { types, ...rest } = options;
    return readEventStream(this.transport, '/v1/events/stream', { ...rest, query: { ...rest.query, ...(types ? { types: types.join(',') } : {}) } });
  }

  /**
   * For a reviewer agent (key with `review:act`, linked with `transport: sse`): its work items as
   * they are routed to it, after every item already waiting. Reconnects after a dropped connection
   * resume after the last item yielded; pass `lastEventId` to resume across restarts of your own.
   */
  async *reviewerWork(options: StreamOptions = {}): AsyncGenerator<ReviewerWorkEvent> {
    for await (const ev of readEventStream(this.transport, '/v1/reviewer/stream', options)) {
      if (ev.event === 'reviewer.work') yield { id: ev.id, work: ev.data as ReviewerWork };
    }
  }

  /**
   * The durable review event queue: long-polls for pending events and yields them one by one,
   * oldest first. An event is acked when the loop body has handled it and asks for the next one,
   * so the queue never hands it out again. The event a loop `break`s (or throws) on is not acked:
   * delivery is at least once, and it comes back on the next drain unless you ack it yourself
   * (`ackReviewEvent(event)` before the `break`).
   * Aborting `signal` ends the loop.
   */
  async *reviewEvents(options: { signal?: AbortSignal | undefined; timeoutSeconds?: number | undefined } = {}): AsyncGenerator<ReviewEvent> {
    while (!options.signal?.aborted) {
      let page: ResponseOf<'waitForReviewEvent'>;
      try {
        page = await this.transport.request('GET', '/v1/reviews/events/wait', {
          query: { timeout_seconds: options.timeoutSeconds ?? 30 },
          signal: options.signal,
        });
      } catch (err) {
        if (options.signal?.aborted) return; // stopping the loop from outside ends it quietly
        throw err;
      }
      for (const event of page.data) {
        yield event;
        // Not aborted with the loop: the event was handled, so its ack is finished either way.
        await this.ackReviewEvent(event);
      }
    }
  }

  /**
   * Acks one event of the review event queue (and the events of its review before it): the one a
   * `reviewEvents()` loop stops on, so the next drain does not hand it out again.
   */
  async ackReviewEvent(event: Pick<ReviewEvent, 'review_id' | 'seq'>, options?: CallOptions): Promise<void> {
    await this.ackReviewEvents({ acks: [{ review_id: event.review_id, through_seq: event.seq }] }, options);
  }
}
