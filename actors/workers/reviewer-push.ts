// One push of a work item to a reviewer agent's webhook link per job: sign with the link's secret
// (`t=,v1=` as webhooks), POST, record the attempt, keep the link's count of failures in a row, and
// retry on the webhook schedule (a job with startAfter, so the backoff survives restarts). A push
// whose review has moved on (decided, revised again, routed elsewhere) is skipped, not sent.
import type pg from 'pg';
import { afterAttempt, isDelivered } from '../../machines/policy/webhook-retry.ts';
import { encryptionKey, open } from '../../service/encryption.ts';
import { withTransaction } from '../../storage/db.ts';
import {
  REVIEWER_STATES,
  findAssignment,
  findLinkById,
  findLinkDelivery,
  recordLinkAttempt,
  setLinkFailures,
  skipLinkDelivery,
  type LinkDeliveryRow,
  type ReviewLinkRow,
} from '../../storage/review-links.ts';
import { findReview } from '../../storage/reviews.ts';
import { buildWorkItem } from '../reviewer.ts';
import { JOBS, type AttemptJob } from '../jobs.ts';
import { restoreReview } from '../reviews/snapshot.ts';
import { postWebhook, signatureHeader, type PostResult } from '../webhook-transport.ts';
import type { Worker, WorkerDeps } from './worker.ts';

/** Why this push is no longer worth sending, or the body to send. */
async function workFor(deps: WorkerDeps, d: LinkDeliveryRow, link: ReviewLinkRow | null): Promise<{ skip: string } | { body: Buffer }> {
  if (!link || !link.active || link.transport !== 'webhook' || !link.webhook_url) return { skip: 'the link is gone, inactive or no longer a webhook' };
  const [assignment, row] = await Promise.all([
    findAssignment(deps.db, d.org_id, d.review_id),
    findReview(deps.db, { org_id: d.org_id, project_id: d.project_id, agent_id: null, inbox_id: null }, d.review_id),
  ]);
  if (!row || !assignment || assignment.reviewer_agent_id !== link.reviewer_agent_id || !REVIEWER_STATES.includes(row.state)) {
    return { skip: 'the review is no longer waiting on this reviewer' };
  }
  const context = restoreReview(row).context;
  if (context.route !== 'reviewer_agent' || context.revision !== d.revision) return { skip: 'the review moved on' };
  const item = await buildWorkItem(deps.db, row, d.reason, assignment.routed_at);
  return { body: Buffer.from(JSON.stringify(item)) };
}

async function post(deps: WorkerDeps, link: ReviewLinkRow, body: Buffer): Promise<PostResult> {
  let secret: string;
  try {
    secret = open(encryptionKey(deps.config), link.secret_sealed!);
  } catch {
    return { status: null, error: 'the link secret cannot be decrypted with this ENCRYPTION_KEY', durationMs: 0 };
  }
  return postWebhook({
    url: link.webhook_url!,
    body,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'agent-inbox-reviewer',
      'X-Service-Event': 'reviewer.work',
      'X-Service-Signature': signatureHeader(Math.floor(Date.now() / 1000), body, [secret]),
    },
    timeoutMs: deps.config.webhookTimeoutSeconds * 1000,
    allowPrivate: deps.config.webhookAllowPrivate,
  });
}

async function record(tx: pg.PoolClient, deps: WorkerDeps, job: AttemptJob, link: ReviewLinkRow, result: PostResult, startedAt: Date) {
  const ok = isDelivered(result.status);
  // A link is never deactivated by failures; routing skips it while unhealthy instead.
  const outcome = afterAttempt({
    ok,
    attempt: job.attempt,
    consecFailures: ok ? 0 : link.consec_failures + 1,
    schedule: deps.config.webhookRetrySchedule,
    deactivateAfter: Number.POSITIVE_INFINITY,
    random: Math.random(),
  });
  const nextRetryAt = outcome.kind === 'retry' ? new Date(Date.now() + outcome.delayMs) : null;
  const recorded = await recordLinkAttempt(tx, {
    org_id: job.org_id,
    delivery_id: job.delivery_id,
    attempt: job.attempt,
    started_at: startedAt,
    duration_ms: result.durationMs,
    status_code: result.status,
    error: result.error ?? (ok ? null : `HTTP ${result.status}`),
    next_retry_at: nextRetryAt,
    outcome: outcome.kind === 'succeeded' ? 'succeeded' : outcome.kind === 'retry' ? 'pending' : 'failed',
  });
  if (!recorded) return null;
  await setLinkFailures(tx, job.org_id, link.id, ok ? 'reset' : 'increment');
  if (outcome.kind === 'retry') {
    await deps.queue.send(tx, JOBS.reviewerPush.name, { ...job, attempt: job.attempt + 1 }, { startAfter: new Date(Date.now() + outcome.delayMs) });
  }
  return outcome;
}

export const reviewerPushWorker: Worker<AttemptJob> = {
  ...JOBS.reviewerPush,
  // Two at once, so one slow reviewer does not hold up the others.
  inFlight: 2,
  async perform(job, deps) {
    const d = await findLinkDelivery(deps.db, job.org_id, job.delivery_id);
    if (!d || d.status !== 'pending' || d.attempts >= job.attempt) return;
    const link = await findLinkById(deps.db, d.org_id, d.link_id);
    const work = await workFor(deps, d, link);
    if ('skip' in work) {
      await skipLinkDelivery(deps.db, d.org_id, d.id, work.skip);
      return;
    }
    const startedAt = new Date();
    const result = await post(deps, link!, work.body);
    const outcome = await withTransaction(deps.db, (tx) => record(tx, deps, job, link!, result, startedAt));
    deps.log.info(
      { delivery_id: d.id, link_id: d.link_id, review_id: d.review_id, attempt: job.attempt, status: result.status, error: result.error, outcome: outcome?.kind ?? 'already_recorded' },
      'reviewer push attempt',
    );
  },
};
