// The process's Prometheus metrics (prom-client), in one registry below every transport: http/,
// mail/, the worker wrapper and the two places that talk to the outside on the service's own behalf
// record into it at their edges (the HTTP pipeline, the SMTP server's hooks, the job handler, a
// webhook POST, a system mail), so no business logic counts anything. Queue and review figures are not
// counted at all: they are read from PostgreSQL when /metrics is scraped, so every API process
// reports the same, true numbers.
import crypto from 'node:crypto';
import client from 'prom-client';
import type { Executor } from '../storage/db.ts';
import { parkedDeliveryCount, queueFigures, reviewsByState } from '../storage/metrics.ts';

export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry });

// Long polls (wait for email, review events) and SSE streams hold a request for a minute or more.
const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

const httpRequests = new client.Counter({
  name: 'agent_inbox_http_requests_total',
  help: 'HTTP requests answered, by OpenAPI operationId (`unmatched` for no route), method and status.',
  labelNames: ['route', 'method', 'status'] as const,
  registers: [registry],
});

const httpDuration = new client.Histogram({
  name: 'agent_inbox_http_request_duration_seconds',
  help: 'Time from receiving a request to its response, by operationId, method and status.',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: SECONDS,
  registers: [registry],
});

const smtpSessions = new client.Counter({
  name: 'agent_inbox_smtp_sessions_total',
  help: 'Inbound SMTP connections opened.',
  registers: [registry],
});

const smtpRecipients = new client.Counter({
  name: 'agent_inbox_smtp_recipients_total',
  help: 'RCPT TO commands, by outcome (accepted, rejected) and reason of a rejection (unknown_recipient, pending_inbox, lookup_failed).',
  labelNames: ['outcome', 'reason'] as const,
  registers: [registry],
});

const smtpMessages = new client.Counter({
  name: 'agent_inbox_smtp_messages_total',
  help: 'Inbound messages after DATA, by outcome (accepted, rejected) and reason of a rejection (too_large, read_failed, store_failed, over_quota).',
  labelNames: ['outcome', 'reason'] as const,
  registers: [registry],
});

const jobs = new client.Counter({
  name: 'agent_inbox_jobs_total',
  help: 'Background jobs run, by queue and outcome (the worker\'s own outcome, `done`, or `error` when it threw and will be retried).',
  labelNames: ['queue', 'outcome'] as const,
  registers: [registry],
});

const jobDuration = new client.Histogram({
  name: 'agent_inbox_job_duration_seconds',
  help: 'Time a worker spent on one job, by queue.',
  labelNames: ['queue'] as const,
  buckets: SECONDS,
  registers: [registry],
});

const webhookDeliveries = new client.Counter({
  name: 'agent_inbox_webhook_deliveries_total',
  help: 'Webhook delivery attempts, by result: succeeded, retry (failed, another attempt scheduled), gave_up (failed, no attempts left), deactivated (failed, and the webhook was turned off).',
  labelNames: ['result'] as const,
  registers: [registry],
});

const webhookDuration = new client.Histogram({
  name: 'agent_inbox_webhook_delivery_duration_seconds',
  help: 'Time from connecting to a webhook receiver to its answer (or the failure), by result.',
  labelNames: ['result'] as const,
  buckets: SECONDS,
  registers: [registry],
});

const notifications = new client.Counter({
  name: 'agent_inbox_notifications_total',
  help: 'System mail the service sent on its own behalf, by kind (signup_code, invitation, quota_notice, support_status, delivery_notice) and outcome: the route it took (internal, relay, outbox) or failed.',
  labelNames: ['kind', 'outcome'] as const,
  registers: [registry],
});

const queueJobs = new client.Gauge({
  name: 'agent_inbox_queue_jobs',
  help: 'Jobs in each queue at scrape time, by state: waiting (due, not taken), scheduled (start still ahead), active.',
  labelNames: ['queue', 'state'] as const,
  registers: [registry],
});

const queueOldest = new client.Gauge({
  name: 'agent_inbox_queue_oldest_waiting_seconds',
  help: 'How long the oldest due job of each queue has been waiting to be taken, at scrape time (0 when none).',
  labelNames: ['queue'] as const,
  registers: [registry],
});

const reviews = new client.Gauge({
  name: 'agent_inbox_reviews',
  help: 'Reviews by state, across every tenant, at scrape time.',
  labelNames: ['state'] as const,
  registers: [registry],
});

const parked = new client.Gauge({
  name: 'agent_inbox_deliveries_awaiting_reconciliation',
  help: 'Sends parked with an unknown outcome (the relay took DATA, its answer was never recorded) at scrape time; each waits for `agent-inbox reconcile`.',
  registers: [registry],
});

const databaseUp = new client.Gauge({
  name: 'agent_inbox_database_up',
  help: '1 when this scrape could read the queue and review figures from PostgreSQL, 0 when it could not (they are then absent).',
  registers: [registry],
});

/** One HTTP request answered; `route` is an operationId or a fixed name, never a raw path. */
export function observeHttpRequest(route: string, method: string, status: number, seconds: number): void {
  const labels = { route, method, status: String(status) };
  httpRequests.inc(labels);
  httpDuration.observe(labels, seconds);
}

export const observeSmtpSession = (): void => smtpSessions.inc();

export function observeSmtpRecipient(outcome: 'accepted' | 'rejected', reason = ''): void {
  smtpRecipients.inc({ outcome, reason });
}

export function observeSmtpMessage(outcome: 'accepted' | 'rejected', reason = ''): void {
  smtpMessages.inc({ outcome, reason });
}

export function observeJob(queue: string, outcome: string, seconds: number): void {
  jobs.inc({ queue, outcome });
  jobDuration.observe({ queue }, seconds);
}

/** One webhook delivery attempt recorded, with how long the receiver took. */
export function observeWebhookDelivery(result: string, seconds: number): void {
  webhookDeliveries.inc({ result });
  webhookDuration.observe({ result }, seconds);
}

/** One system mail (a notification) sent, or refused by the relay. */
export function observeNotification(kind: string, outcome: string): void {
  notifications.inc({ kind, outcome });
}

/** The exposition text, with the figures read from the database just now. */
export async function metricsText(db: Executor): Promise<string> {
  queueJobs.reset();
  queueOldest.reset();
  reviews.reset();
  parked.reset();
  try {
    const [queues, states, parkedCount] = await Promise.all([queueFigures(db), reviewsByState(db), parkedDeliveryCount(db)]);
    parked.set(parkedCount);
    for (const q of queues) {
      queueJobs.set({ queue: q.queue, state: 'waiting' }, q.waiting);
      queueJobs.set({ queue: q.queue, state: 'scheduled' }, q.scheduled);
      queueJobs.set({ queue: q.queue, state: 'active' }, q.active);
      queueOldest.set({ queue: q.queue }, q.oldest_waiting_seconds);
    }
    for (const r of states) reviews.set({ state: r.state }, r.count);
    databaseUp.set(1);
  } catch {
    // The process metrics are still worth having while the database is away.
    databaseUp.set(0);
  }
  return registry.metrics();
}

export const METRICS_CONTENT_TYPE = registry.contentType;

// Hashed first so the comparison takes the same time whatever the length of the guess.
const digest = (s: string) => crypto.createHash('sha256').update(s).digest();

/** Whether an Authorization header carries the METRICS_TOKEN (always true when none is set). */
export function metricsAuthorized(token: string | null, authorization: string | undefined): boolean {
  if (token === null) return true;
  const given = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1] ?? '';
  return crypto.timingSafeEqual(digest(given), digest(token));
}
