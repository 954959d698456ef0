// One webhook delivery attempt per job: sign, POST, record the attempt, then either finish, schedule
// the next attempt (a job with startAfter, so the backoff survives restarts), give up, or deactivate
// the webhook. A job that runs twice (a worker died after posting) posts again with the same event
// id, which is how a receiver recognises the duplicate; the attempt is recorded once. The job's
// outcome (succeeded, retry, gave_up, deactivated, or skipped/abandoned without a POST) is returned
// for the job runner's counter.
import { afterAttempt, isDelivered } from '../../machines/policy/webhook-retry.ts';
import { webhookBody } from '../present/events.ts';
import type { Queue } from '../../service/queue.ts';
import { encryptionKey, open } from '../../service/encryption.ts';
import { withTransaction } from '../../storage/db.ts';
import { eventIdsFor } from '../../storage/opaque-ids.ts';
import {
  abandonDelivery,
  loadDeliveryWork,
  lockWebhookFailures,
  recordAttempt,
  setWebhookFailures,
  type DeliveryWork,
} from '../../storage/webhooks.ts';
import type pg from 'pg';
import { observeWebhookDelivery } from '../../service/metrics.ts';
import { postWebhook, signatureHeader, type PostResult } from '../webhook-transport.ts';
import type { Worker, WorkerDeps } from './worker.ts';
import { JOBS, type AttemptJob } from '../jobs.ts';

export const WEBHOOK_DELIVERY = JOBS.webhookDelivery.name;

/**
 * Enqueues an attempt inside `tx`. Without a delay it also NOTIFYs the workers, which PostgreSQL
 * delivers at commit, so a worker takes the job at once instead of at its next poll.
 */
export async function enqueueDelivery(tx: pg.ClientBase, queue: Queue, job: AttemptJob, delayMs = 0): Promise<void> {
  await queue.send(tx, WEBHOOK_DELIVERY, job, delayMs > 0 ? { startAfter: new Date(Date.now() + delayMs) } : {});
  if (delayMs === 0) await queue.wake(tx, WEBHOOK_DELIVERY);
}

/** The current secret, and the previous one while it is still within its rotation window. */
function signingSecrets(work: DeliveryWork, key: Buffer, now: number): string[] {
  const w = work.webhook;
  const secrets = [open(key, w.secret_sealed)];
  if (w.previous_secret_sealed && w.previous_expires_at && w.previous_expires_at.getTime() > now) {
    secrets.push(open(key, w.previous_secret_sealed));
  }
  return secrets;
}

async function attempt(work: DeliveryWork, deps: WorkerDeps): Promise<PostResult> {
  const now = Date.now();
  let secrets: string[];
  try {
    secrets = signingSecrets(work, encryptionKey(deps.config), now);
  } catch {
    return { status: null, error: 'the signing secret cannot be decrypted with this ENCRYPTION_KEY', durationMs: 0 };
  }
  const body = Buffer.from(JSON.stringify(webhookBody(work.event, await eventIdsFor(deps.db))));
  return postWebhook({
    url: work.webhook.url,
    body,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'agent-inbox-webhooks',
      'X-Service-Event': work.event.type,
      'X-Service-Signature': signatureHeader(Math.floor(now / 1000), body, secrets),
    },
    timeoutMs: deps.config.webhookTimeoutSeconds * 1000,
    allowPrivate: deps.config.webhookAllowPrivate,
  });
}

async function record(tx: pg.PoolClient, job: AttemptJob, work: DeliveryWork, result: PostResult, startedAt: Date, deps: WorkerDeps) {
  const failures = await lockWebhookFailures(tx, job.org_id, work.webhook.id);
  if (failures === null) return null; // deleted meanwhile
  const ok = isDelivered(result.status);
  const consec = ok ? 0 : failures + 1;
  const outcome = afterAttempt({
    ok,
    attempt: job.attempt,
    consecFailures: consec,
    schedule: deps.config.webhookRetrySchedule,
    deactivateAfter: deps.config.webhookDeactivateAfter,
    random: Math.random(),
  });
  const nextRetryAt = outcome.kind === 'retry' ? new Date(Date.now() + outcome.delayMs) : null;
  const error = result.error ?? (ok ? null : `HTTP ${result.status}`);
  const recorded = await recordAttempt(tx, {
    org_id: job.org_id,
    delivery_id: job.delivery_id,
    attempt: job.attempt,
    started_at: startedAt,
    duration_ms: result.durationMs,
    status_code: result.status,
    error: outcome.kind === 'deactivated' ? `${error}; webhook deactivated after ${consec} consecutive failures` : error,
    next_retry_at: nextRetryAt,
    outcome: outcome.kind === 'succeeded' ? 'succeeded' : outcome.kind === 'retry' ? 'pending' : 'failed',
  });
  if (!recorded) return null;
  await setWebhookFailures(tx, job.org_id, work.webhook.id, consec, outcome.kind === 'deactivated');
  if (outcome.kind === 'retry') {
    await enqueueDelivery(tx, deps.queue, { ...job, attempt: job.attempt + 1 }, outcome.delayMs);
  }
  return outcome;
}

export const webhookDeliveryWorker: Worker<AttemptJob> = {
  ...JOBS.webhookDelivery,
  // Slow receivers must not hold up the others.
  inFlight: 8,
  async perform(job, deps) {
    const work = await loadDeliveryWork(deps.db, job.org_id, job.delivery_id);
    if (!work || work.delivery.status !== 'pending' || work.delivery.attempts >= job.attempt) return 'skipped';
    if (!work.webhook.active) {
      await abandonDelivery(deps.db, job.org_id, job.delivery_id, 'the webhook is inactive');
      return 'abandoned';
    }
    const startedAt = new Date();
    const result = await attempt(work, deps);
    const outcome = await withTransaction(deps.db, (tx) => record(tx, job, work, result, startedAt, deps));
    if (outcome) observeWebhookDelivery(outcome.kind, result.durationMs / 1000);
    deps.log.info(
      {
        delivery_id: job.delivery_id,
        webhook_id: work.webhook.id,
        event_id: work.event.id,
        attempt: job.attempt,
        status: result.status,
        error: result.error,
        ms: result.durationMs,
        outcome: outcome?.kind ?? 'already_recorded',
      },
      'webhook delivery attempt',
    );
    return outcome?.kind ?? 'already_recorded';
  },
};
