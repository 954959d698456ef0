// Every pg-boss queue of the service, in one table: its name, the payload its jobs carry and the
// queue's options (retries, backoff, expiry). Lifecycles enqueue onto these entries and workers
// take theirs from here (`...JOBS.x`), so openJobQueue creates each queue with the options its
// worker declares, and a name is written once.
import type PgBoss from 'pg-boss';
import type { SupportCaseStatus } from '../machines/support-case.ts';
import type { Config } from '../service/config.ts';

export type QueueOptions = Omit<PgBoss.Queue, 'name'>;

/** One queue. `T` is the payload of its jobs, carried in the type only. */
export type Job<T extends object = object> = { name: string; queue: QueueOptions; readonly payload?: T };

/** The payload type of a queue's jobs. */
export type PayloadOf<J> = J extends Job<infer T> ? T : never;

const job = <T extends object = object>(name: string, queue: QueueOptions): Job<T> => ({ name, queue });

/** A job about one review. */
export type ReviewJob = { org_id: string; review_id: string };
/** Why the deciders of a review are told about it. */
export type NotifyReason = 'created' | 'revised' | 'handed_back' | 'escalated' | 'deadline_near' | 'auto_sent';
export type NotifyJob = ReviewJob & { revision: number; reason: NotifyReason; key: string };
/** One attempt of a push (reviewer link) or a webhook delivery. */
export type AttemptJob = { org_id: string; delivery_id: string; attempt: number };
/** One status mail to one recipient (with `to`), its text fixed when the change was claimed; without `to`, the fan-out. */
export type SupportCaseMailJob =
  // `status` is the one this version announced (absent in jobs queued before it was carried).
  | { org_id: string; case_id: string; version: number; status?: SupportCaseStatus; to?: undefined }
  | { org_id: string; case_id: string; version: number; to: string; project_id: string; inbox_id: string | null; subject: string; text: string };

const RETRY_5 = { retryLimit: 5, retryDelay: 5, retryBackoff: true } as const;
const NOTIFY_RETRY = { retryLimit: 5, retryDelay: 10, retryBackoff: true } as const;

export const JOBS = {
  // 2 s, 4 s, 8 s ... between tries; a job of a killed worker is retried after it expires.
  reviewDelivery: job<ReviewJob>('review-delivery', { retryLimit: 12, retryDelay: 2, retryBackoff: true, expireInSeconds: 300 }),
  reviewDeliverySweep: job('review-delivery-sweep', { retryLimit: 0 }),
  reviewEscalation: job<ReviewJob & { epoch: number }>('review-escalation', RETRY_5),
  reviewDeadline: job<ReviewJob>('review-deadline', RETRY_5),
  reviewReconcile: job<ReviewJob & { revision: number }>('review-reconcile', { retryLimit: 0 }),
  /** Pushes a work item to a reviewer agent's webhook link. */
  // As webhook delivery: one attempt per job within the timeout; a job active after 60 s is a dead worker's.
  reviewerPush: job<AttemptJob>('reviewer-push', { retryLimit: 10, retryDelay: 5, expireInSeconds: 60 }),
  /** Tells the project's deciders (mail, digest) that a review waits for a human, nears its deadline, or was auto-sent. */
  reviewNotify: job<NotifyJob>('review-notify', NOTIFY_RETRY),
  /** Posts the same notice to the project's chat-ops webhook. */
  reviewChatops: job<NotifyJob>('review-chatops', NOTIFY_RETRY),
  reviewDigest: job('review-digest', { retryLimit: 0 }),
  // A job runs one attempt of at most WEBHOOK_TIMEOUT_SECONDS (45 at most); one still active after
  // 60 s belongs to a worker that died, and pg-boss hands it to another worker.
  webhookDelivery: job<AttemptJob>('webhook-delivery', { retryLimit: 10, retryDelay: 5, expireInSeconds: 60 }),
  signupExpiry: job<{ org_id: string; signup_id: string; epoch: number }>('signup-code-expiry', RETRY_5),
  supportCaseMail: job<SupportCaseMailJob>('support-case-mail', { retryLimit: 8, retryDelay: 10, retryBackoff: true }),
  domainRecheck: job('domain-recheck', { retryLimit: 2, retryDelay: 60 }),
  autoSendCaps: job('auto-send-caps', { retryLimit: 2 }),
  usagePeriods: job('usage-periods', { retryLimit: 3 }),
  maintenance: job('maintenance', { retryLimit: 0 }),
} as const;

/** The jobs a configuration switches off: with REVIEW_NOTIFICATIONS=false no notice is ever queued. */
export function jobsSwitchedOff(config: Pick<Config, 'reviewNotifications'>): string[] {
  return config.reviewNotifications ? [] : [JOBS.reviewNotify.name, JOBS.reviewChatops.name];
}
