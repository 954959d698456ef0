// Helpers for the event tests: real HTTP receivers on loopback, inboxes, and `message.received`
// events published the way ingestion publishes them (publishEvent inside the message's transaction).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after } from '../../testkit/test.ts';
import { publishEvent } from '../../actors/events.ts';
import { withTransaction } from '../../storage/db.ts';
import type { EventRow } from '../../storage/events.ts';
import { newId, randomToken } from '../../storage/ids.ts';
import type { TestService } from '../../testkit/service.ts';

export type Received = { method: string; url: string; headers: http.IncomingHttpHeaders; raw: Buffer; at: number };

export type Receiver = {
  url: string;
  requests: Received[];
  /** Sets how the next requests are answered: a status, or a function of the request's index. */
  respond(answer: number | ((index: number, req: Received) => number | 'hang')): void;
  close(): Promise<void>;
};

/** A webhook receiver on 127.0.0.1 that records every request with its raw body. */
export async function startReceiver(): Promise<Receiver> {
  const requests: Received[] = [];
  let answer: number | ((index: number, req: Received) => number | 'hang') = 200;
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const got: Received = { method: req.method!, url: req.url!, headers: req.headers, raw: Buffer.concat(chunks), at: performance.now() };
      const index = requests.length;
      requests.push(got);
      const status = typeof answer === 'function' ? answer(index, got) : answer;
      if (status === 'hang') {
        hanging.add(res);
        return;
      }
      if (status >= 300 && status < 400) res.setHeader('Location', `${url}/moved`);
      res.statusCode = status;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  after(close);
  return { url, requests, respond: (a) => (answer = a), close };
}

export type TestInbox = { id: string; address: string; org_id: string; project_id: string; agent_id: string };

/** An inbox row of an agent, as inbox creation stores it. */
export async function addInbox(svc: TestService, t: { orgId: string; projectId: string }, agentId: string): Promise<TestInbox> {
  const local = `box-${randomToken(8)}`;
  const inbox = { id: newId('inb'), address: `${local}@${svc.config.inboxDomain}`, org_id: t.orgId, project_id: t.projectId, agent_id: agentId };
  await svc.services.db.query(
    'INSERT INTO inboxes (org_id, project_id, id, agent_id, address, domain) VALUES ($1, $2, $3, $4, $5, $6)',
    [inbox.org_id, inbox.project_id, inbox.id, inbox.agent_id, inbox.address, svc.config.inboxDomain],
  );
  return inbox;
}

/** Publishes `message.received` for the inbox as ingestion does, inside one transaction. */
export async function receiveMessage(svc: TestService, inbox: TestInbox, subject = `Hello ${randomToken(4)}`): Promise<EventRow> {
  return withTransaction(svc.services.db, (tx) =>
    publishEvent(tx, svc.services.queue, {
      org_id: inbox.org_id,
      project_id: inbox.project_id,
      inbox_id: inbox.id,
      agent_id: inbox.agent_id,
      type: 'message.received',
      payload: {
        event: 'message.received',
        inbox: inbox.address,
        message: {
          id: `msg_${randomToken(20)}`,
          thread_id: `thr_${randomToken(20)}`,
          inbox: inbox.address,
          from: '"Ada Lovelace" <ada@example.com>',
          to: inbox.address,
          subject,
          text: 'Your code is 123456.\n',
          date: new Date().toUTCString(),
          message_id: `<${randomToken(12)}@example.com>`,
          folder: 'INBOX',
          seen: false,
        },
      },
    }),
  );
}

/** Publishes an event of any type (e.g. a review event) for the stream tests. */
export async function publish(
  svc: TestService,
  e: { org_id: string; project_id: string; inbox_id?: string | null; agent_id?: string | null; type: string; payload?: Record<string, unknown> },
): Promise<EventRow> {
  return withTransaction(svc.services.db, (tx) => publishEvent(tx, svc.services.queue, { payload: {}, ...e }));
}
