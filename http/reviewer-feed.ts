// The reviewer agent's live work, for its stream (SSE) and its WebSocket: a feed (log-feed.ts)
// over the reviewer work log of one transport. A connection without a resume id first gets every
// item still waiting on the reviewer, then what is routed from then on, with nothing lost in
// between; with the id of the last item it received, it gets what followed. Logged work that has
// moved on by the time it would be sent (decided, handed back, escalated, revised) is skipped.
import type { WorkItem } from '../actors/present/reviewer-work.ts';
import { currentWork, reviewerConnected } from '../actors/reviewer.ts';
import type { ReviewerScope } from '../actors/reviews/decisions.ts';
import { badRequest } from '../machines/problems.ts';
import { reviewerWorkIdsFor } from '../storage/opaque-ids.ts';
import {
  REVIEWER_WORK_CHANNEL,
  positionOfWork,
  reviewerWorkAfter,
  workStartPosition,
  type LiveTransport,
  type ReviewerWorkRow,
} from '../storage/reviewer-work.ts';
import type { Services } from './context.ts';
import { createLogFeed } from './log-feed.ts';

/** Where a subscriber's work goes: an SSE response or a WebSocket. */
export type WorkSink = {
  /** Sends one item; resolves once the wire took it. */
  send(id: string, item: WorkItem): Promise<void>;
  /** Keeps the idle connection open. */
  beat(): void;
  end(): void;
};

type Subscriber = { who: ReviewerScope; transport: LiveTransport; sink: WorkSink; ids: { encode(n: number): string } };

export type ReviewerFeed = {
  /**
   * Checks the resume id and starts sending work to `sink` (call `connect` once the wire is
   * set up: a bad resume id must be refused before). Returns the function that stops it.
   */
  prepare(who: ReviewerScope, lastEventId: string | undefined): Promise<{ connect(sink: WorkSink): () => void }>;
};

export function createReviewerFeed(s: Services, transport: LiveTransport): ReviewerFeed {
  const feed = createLogFeed<ReviewerWorkRow, Subscriber>(s, {
    channel: REVIEWER_WORK_CHANNEL,
    wakes: (note, sub) => !(note.org_id && note.org_id !== sub.who.org_id) && !(note.reviewer_agent_id && note.reviewer_agent_id !== sub.who.agent_id),
    sliceKey: (sub) => `${sub.who.org_id}|${sub.who.agent_id}|${sub.transport}`,
    read: (sub, after, limit) => reviewerWorkAfter(s.db, { org_id: sub.who.org_id, reviewer_agent_id: sub.who.agent_id, transport: sub.transport }, after, limit),
    async send(sub, row) {
      const item = await currentWork(s.db, sub.who, row);
      if (item) await sub.sink.send(sub.ids.encode(row.id), item);
    },
    beat: (sub) => sub.sink.beat(),
    end: (sub) => sub.sink.end(),
  });

  return {
    async prepare(who, lastEventId) {
      const ids = await reviewerWorkIdsFor(s.db);
      let after: number | null = null;
      if (lastEventId !== undefined && lastEventId !== '') {
        // Only an id this service sent resumes: a made-up or altered one says nothing.
        after = ids.decode(lastEventId.trim());
        if (after === null) throw badRequest('last_event_id', 'Last-Event-ID must be the id of a work item this reviewer received.', 'invalid_format');
      }
      // Connecting is a call of the reviewer: its links are healthy again.
      await reviewerConnected(s.db, who);
      await s.listener.ready();
      const scope = { org_id: who.org_id, reviewer_agent_id: who.agent_id, transport };
      const cursor = after === null ? await workStartPosition(s.db, scope) : await positionOfWork(s.db, who.org_id, after);
      return { connect: (sink) => feed.add({ who, transport, sink, ids }, cursor) };
    },
  };
}
