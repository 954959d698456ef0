// GET /v1/reviewer/ws: the reviewer agent's WebSocket (the `ws` package, on the API's own HTTP
// server). The agent key is checked at the upgrade, so a refused caller never gets a socket. Work
// routed through the caller's `websocket` links is pushed as frames from the reviewer work feed
// (the same feed as the SSE stream, resumable by id); decisions come back as frames and are
// answered with the very body the REST decision returns, result or problem. The feed's heartbeat
// pings every socket and ends one that did not answer the previous ping.
import crypto from 'node:crypto';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { reviewView } from '../actors/present/reviews.ts';
import { reviewerDecision, type ReviewerDecisionInput, type ReviewerScope } from '../actors/reviews/decisions.ts';
import { Problem, badRequest } from '../machines/problems.ts';
import { authenticateAgent, requirePermission } from './auth.ts';
import type { Services } from './context.ts';
import { errorResponse } from './errors.ts';
import { loadApiDocument } from './openapi.ts';
import { problemsBase } from './pipeline.ts';
import { presentReview } from '../actors/present/reviews.ts';
import { createReviewerFeed, type WorkSink } from './reviewer-feed.ts';
import { requestValidators, jsonTooDeep, nulProblem, tooDeepProblem, validationProblem } from './validate.ts';

export const REVIEWER_WS_PATH = '/v1/reviewer/ws';
const DECISION_OPERATION = 'decideReview';
/** A decision frame is a small JSON object; an edit's text is the largest part. */
const MAX_FRAME_BYTES = 1024 * 1024;

export type ReviewerSocketServer = { close(): Promise<void> };

const requestId = () => `req_${crypto.randomBytes(15).toString('base64url')}`;

/** Answers a refused upgrade with a plain HTTP problem response and closes the connection. */
function refuse(socket: Duplex, err: unknown, base: string): void {
  const r = errorResponse(err, requestId(), base);
  const body = JSON.stringify(r.body);
  const headers = {
    ...r.headers,
    'Content-Type': r.contentType,
    'Content-Length': String(Buffer.byteLength(body)),
    'X-Request-Id': String(r.body.request_id),
    Connection: 'close',
  };
  const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  socket.end(`HTTP/1.1 ${r.status} ${http.STATUS_CODES[r.status] ?? ''}\r\n${head}\r\n${body}`);
}

/** The resume id of a connection: the Last-Event-ID header, else the `last_event_id` query parameter. */
function resumeId(req: http.IncomingMessage, url: URL): string | undefined {
  const header = req.headers['last-event-id'];
  return (typeof header === 'string' && header) || url.searchParams.get('last_event_id') || undefined;
}

export function attachReviewerSocket(server: http.Server, s: Services): ReviewerSocketServer {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const feed = createReviewerFeed(s, 'websocket');
  const decisionBody = requestValidators(loadApiDocument(), (op) => op.operationId === DECISION_OPERATION).get(DECISION_OPERATION)!;
  const base = problemsBase(s);

  /** The body of the REST decision's answer for one decision frame: a Review, or a problem. */
  const decide = async (who: ReviewerScope, frame: Record<string, unknown>): Promise<{ status: number; body: unknown }> => {
    try {
      const { type: _type, ref: _ref, review_id, ...body } = frame;
      if (typeof review_id !== 'string' || review_id === '') throw badRequest('review_id', 'A decision frame names the review_id it decides.', 'required');
      // The checks an HTTP decision gets: its path parameter and its body.
      const nul = nulProblem({ review_id }, {}, body);
      if (nul) throw nul;
      if (decisionBody.params && !decisionBody.params({ review_id })) throw validationProblem(decisionBody.params.errors ?? [], 'review_id');
      if (!decisionBody.body!(body)) throw validationProblem(decisionBody.body!.errors ?? [], 'body', decisionBody.bodyKeys);
      const row = await reviewerDecision(s, who, review_id, body as ReviewerDecisionInput);
      return { status: 200, body: presentReview(reviewView(row, 'reviewer_agent')) };
    } catch (err) {
      if (!(err instanceof Problem)) s.log.error({ err }, 'reviewer socket decision failed');
      const r = errorResponse(err, requestId(), base);
      return { status: r.status, body: r.body };
    }
  };

  const serve = (ws: WebSocket, who: ReviewerScope, connect: (sink: WorkSink) => () => void) => {
    let alive = true;
    const sendFrame = (frame: unknown): Promise<void> =>
      new Promise((resolve) => {
        if (ws.readyState !== ws.OPEN) return resolve();
        ws.send(JSON.stringify(frame), () => resolve());
      });
    const stop = connect({
      send: (id, work) => sendFrame({ type: 'work', id, work }),
      beat: () => {
        // No pong since the last ping: the peer is gone without a close; it reconnects with its last id.
        if (!alive) return void ws.terminate();
        alive = false;
        ws.ping();
      },
      end: () => ws.close(1011, 'read failed; reconnect with the last id'),
    });
    ws.on('pong', () => {
      alive = true;
    });
    ws.on('close', stop);
    ws.on('error', () => {});
    // Decisions on one review apply in the order they arrived (open, then edit); decisions on
    // different reviews run side by side. Each answer carries the frame's `ref`.
    const chains = new Map<string, Promise<void>>();
    const inTurn = (key: string, work: () => Promise<void>) => {
      const next = (chains.get(key) ?? Promise.resolve()).then(work);
      chains.set(key, next);
      void next.finally(() => {
        if (chains.get(key) === next) chains.delete(key);
      });
    };
    ws.on('message', (data: RawData, isBinary: boolean) => {
      let frame: unknown;
      const text = isBinary ? '' : data.toString();
      // The same depth limit as an HTTP body, checked before the frame is parsed.
      if (jsonTooDeep(text)) {
        const r = errorResponse(tooDeepProblem(), requestId(), base);
        void sendFrame({ type: 'problem', ref: null, status: r.status, body: r.body });
        return;
      }
      try {
        frame = isBinary ? undefined : JSON.parse(text);
      } catch {
        frame = undefined;
      }
      const ref = (frame as { ref?: unknown } | undefined)?.ref ?? null;
      if (!frame || typeof frame !== 'object' || Array.isArray(frame) || (frame as { type?: unknown }).type !== 'decision') {
        const p = badRequest('type', 'Send JSON text frames of the form {"type":"decision","review_id":…,"action":…}.', 'invalid_value');
        const r = errorResponse(p, requestId(), base);
        void sendFrame({ type: 'problem', ref, status: r.status, body: r.body });
        return;
      }
      inTurn(String((frame as { review_id?: unknown }).review_id ?? ''), async () => {
        const answer = await decide(who, frame as Record<string, unknown>);
        await sendFrame({ type: answer.status < 400 ? 'result' : 'problem', ref, ...answer });
      });
    });
  };

  const onUpgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => {});
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      try {
        if (url.pathname !== REVIEWER_WS_PATH) throw new Problem('not_found', { detail: `No WebSocket at ${url.pathname}; the reviewer's is ${REVIEWER_WS_PATH}.` });
        const { auth } = await authenticateAgent(s.db, req.headers.authorization, s.now());
        requirePermission(auth, ['review:act']);
        const who: ReviewerScope = { org_id: auth.org_id, project_id: auth.project_id, agent_id: auth.agent_id };
        const prepared = await feed.prepare(who, resumeId(req, url));
        if (socket.destroyed) return;
        wss.handleUpgrade(req, socket, head, (ws) => serve(ws, who, prepared.connect));
      } catch (err) {
        if (!(err instanceof Problem)) s.log.error({ err }, 'reviewer socket upgrade failed');
        refuse(socket, err, base);
      }
    })();
  };
  server.on('upgrade', onUpgrade);

  return {
    async close() {
      server.off('upgrade', onUpgrade);
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
