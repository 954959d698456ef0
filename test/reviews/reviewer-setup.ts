// Shared set-up of the reviewer agent tests: a reviewer agent holding `review:act`, review links
// made on the console, and a webhook receiver that checks each push's signature.
import { verifyWebhook } from '../../packages/sdk/src/webhooks.ts';
import { startReceiver, type Receiver } from '../events/helpers.ts';
import type { Reply } from '../../testkit/http.ts';
import type { Tenant, TestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';

export type Reviewer = {
  agentId: string;
  /** A key with `review:act` only. */
  key: string;
  decide(reviewId: string, body: Record<string, unknown>): Promise<Reply>;
  queue(query?: string): Promise<Reply>;
};

/** A new agent of the tenant's project with a project key holding `review:act`. */
export async function reviewerAgent(svc: TestService, tenant: Tenant, handle?: string): Promise<Reviewer> {
  const { agentId } = await tenant.enroll(handle);
  const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;
  const issued = await svc.api.post(`${A}/agents/${agentId}/keys`, { permissions: ['review:act'] }, tenant.consoleToken);
  if (issued.status !== 201) throw new Error(`key: ${issued.status} ${issued.text}`);
  const key = issued.body.key as string;
  return {
    agentId,
    key,
    decide: (id, body) => svc.api.post(`/v1/reviews/${id}/decision`, body, key),
    queue: (query = '') => svc.api.get(`/v1/reviewer/queue${query}`, key),
  };
}

export const SECRET = 'rvsec_0123456789abcdef';

export function linkReviewer(svc: TestService, tenant: Tenant, body: Record<string, unknown>): Promise<Reply> {
  const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;
  return svc.api.post(`${A}/review-links`, body, tenant.consoleToken);
}

export type WorkReceiver = Receiver & {
  /** The pushed work items whose signature verified with SECRET, parsed. */
  verified(): Promise<any[]>;
  /** Waits for a verified push about `reviewId` with `reason`. */
  next(reviewId: string, reason: string): Promise<any>;
};

export async function workReceiver(): Promise<WorkReceiver> {
  const receiver = await startReceiver();
  const verified = async () => {
    const out: any[] = [];
    for (const r of receiver.requests) {
      const header = String(r.headers['x-service-signature'] ?? '');
      if (await verifyWebhook(r.raw, header, SECRET)) out.push(JSON.parse(r.raw.toString('utf8')));
    }
    return out;
  };
  return Object.assign(receiver, {
    verified,
    next: (reviewId: string, reason: string) =>
      waitFor(async () => (await verified()).find((w) => w.review_id === reviewId && w.reason === reason), `a ${reason} push for ${reviewId}`),
  });
}
