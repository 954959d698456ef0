// Shared set-up of the Review Loop tests: an agent with an inbox, and the calls they make.
import nodemailer from 'nodemailer';
import type { Client, Reply } from '../../testkit/http.ts';
import type { Tenant, TestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';

export const INTENT = { summary: 'Confirm the Tuesday demo with Dana at Acme' };

export type Agent = {
  key: string;
  agentId: string;
  inboxId: string;
  address: string;
  api: Client;
  /** `/v1/admin/orgs/{org}/projects/{project}` */
  A: string;
  console: string;
  send(body: Record<string, unknown>, headers?: Record<string, string>): Promise<Reply>;
  decide(reviewId: string, body: Record<string, unknown>): Promise<Reply>;
  review(reviewId: string): Promise<Reply>;
  /** Waits until the review is in `state` (read on the agent plane). */
  until(reviewId: string, state: string, timeoutMs?: number): Promise<any>;
  drain(query?: string): Promise<any[]>;
  ack(reviewId: string, throughSeq: number): Promise<Reply>;
};

export async function agentWithInbox(svc: TestService, tenant: Tenant, opts: { handle?: string; display_name?: string } = {}): Promise<Agent> {
  const { agentKey, agentId } = await tenant.enroll(opts.handle);
  const inbox = await svc.api.post('/v1/inboxes', { display_name: opts.display_name ?? 'Sales Bot' }, agentKey);
  if (inbox.status !== 201) throw new Error(`inbox: ${inbox.status} ${inbox.text}`);
  const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;
  const api = svc.api;
  const agent: Agent = {
    key: agentKey,
    agentId,
    inboxId: inbox.body.id,
    address: inbox.body.address,
    api,
    A,
    console: tenant.consoleToken,
    send: (body, headers) => api.post(`/v1/inboxes/${inbox.body.id}/send`, body, agentKey, headers),
    decide: (id, body) => api.post(`${A}/reviews/${id}/decision`, body, tenant.consoleToken),
    review: (id) => api.get(`/v1/reviews/${id}`, agentKey),
    until: (id, state, timeoutMs = 10_000) =>
      waitFor(async () => {
        const r = await api.get(`/v1/reviews/${id}`, agentKey);
        return r.body.state === state ? r.body : null;
      }, `review ${id} to reach ${state}`, timeoutMs),
    drain: async (query = '') => {
      const r = await api.get(`/v1/reviews/events${query}`, agentKey);
      if (r.status !== 200) throw new Error(`drain: ${r.status} ${r.text}`);
      return r.body.data;
    },
    ack: (id, through) => api.post('/v1/reviews/events/ack', { acks: [{ review_id: id, through_seq: through }] }, agentKey),
  };
  return agent;
}

/** Delivers a message to a hosted inbox through the service's inbound SMTP server. */
export async function deliverInbound(svc: TestService, to: string, mail: Record<string, unknown>): Promise<void> {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: svc.smtpPort!, secure: false, ignoreTLS: true });
  await transport.sendMail({ to, ...mail });
  transport.close();
}

export async function setPolicy(agent: Agent, policy: 'require_review' | 'allow_direct' | null): Promise<void> {
  const r = await agent.api.patch(`${agent.A}/inboxes/${agent.inboxId}`, { review_policy: policy }, agent.console);
  if (r.status !== 200) throw new Error(`policy: ${r.status} ${r.text}`);
}
