// What became of a sent mail: the relay or a hosted inbox took it (`message.delivered`), the
// relay deferred it (`message.delayed`), and later a DSN or an ARF report came back
// (`message.bounced`, `message.delayed`, `message.complained`). Each is a delivery report row,
// an event on the log (webhooks, SSE) and, for what came back later, an item on the review's
// event queue; hard bounces, complaints and soft bounces in a row suppress the recipient.
import type pg from 'pg';
import { parseReport, type DeliveryReport, type ReportRecipient } from '../mail/reports.ts';
import { returnPathKeyOf, verifyReturnPath } from '../mail/outbound/return-path.ts';
import type { Config } from '../service/config.ts';
import type { Logger } from '../service/logger.ts';
import type { Queue } from '../service/queue.ts';
import { withTransaction, type Pool } from '../storage/db.ts';
import {
  clearSenderHealth,
  inboxIdIn,
  insertDeliveryReports,
  lockReviewInstance,
  reportRecorded,
  senderHealthCounts,
  softBouncesInARow,
  type NewDeliveryReport,
} from '../storage/delivery-reports.ts';
import { SENDER_HEALTH_WINDOW, senderHealth } from '../machines/policy/sender-health.ts';
import { notFound } from '../machines/problems.ts';
import type { InboxRow } from '../storage/inboxes.ts';
import { appendReviewEvent } from '../storage/review-events.ts';
import { findReviewWithInbox, reviewOrgOf, type ReviewRow } from '../storage/reviews.ts';
import { suppress } from '../storage/suppressions.ts';
import { deliverToWebhooks, publishEventTo, readWebhooksAhead, webhooksOf } from './events.ts';
import { restoreReview } from './reviews/snapshot.ts';

export type ReportDeps = { db: Pool; queue: Queue; config: Config; log: Logger };

const EVENT_OF = { delivered: 'message.delivered', bounced: 'message.bounced', complained: 'message.complained', delayed: 'message.delayed' } as const;

type Sent = { review: ReviewRow; inbox: InboxRow; message_id: string | null; smtp_message_id: string | null };

function payloadOf(s: Sent, r: Pick<ReportRecipient, 'email' | 'kind' | 'type' | 'status' | 'diagnostic'>): Record<string, unknown> {
  return {
    inbox: s.inbox.address,
    review_id: s.review.id,
    message_id: s.message_id,
    smtp_message_id: s.smtp_message_id,
    recipient: r.email,
    ...(r.kind === 'bounced' || r.kind === 'delayed' ? { type: r.type } : {}),
    status: r.status,
    diagnostic: r.diagnostic,
  };
}

/**
 * The relay or a hosted inbox took the mail for these recipients: a `delivered` row and a
 * `message.delivered` event each, in the delivery's transaction. Not on the review's queue:
 * `review.sent` there says the same.
 */
export async function recordDelivered(tx: pg.ClientBase, queue: Queue, s: Sent, recipients: string[], status: string | null): Promise<void> {
  const rows = recipients.map((email) => reportRow(s, { email, kind: 'delivered', type: null, status, diagnostic: null }, null));
  await insertDeliveryReports(tx, rows);
  if (recipients.length === 0) return;
  const hooks = await webhooksOf(tx, deliveredAbout(s.review.org_id, s.inbox.id));
  for (const email of recipients) {
    await publishEventTo(tx, queue, {
      org_id: s.review.org_id,
      project_id: s.review.project_id,
      inbox_id: s.inbox.id,
      agent_id: s.review.agent_id,
      type: EVENT_OF.delivered,
      payload: payloadOf(s, { email, kind: 'delivered', type: null, status, diagnostic: null }),
    }, hooks);
  }
}

const deliveredAbout = (org_id: string, inbox_id: string) => ({ org_id, inbox_id, type: EVENT_OF.delivered });

/**
 * Sends the read of the webhooks that recordDelivered tells with the transaction's next statement:
 * with none subscribed, its events then go with the COMMIT instead of a round trip of their own.
 */
export function readDeliveredWebhooksAhead(tx: pg.ClientBase, org_id: string, inbox_id: string): void {
  readWebhooksAhead(tx, deliveredAbout(org_id, inbox_id));
}

/** The relay answered a temporary failure: `message.delayed` for each recipient it was to take. */
export async function recordRelayDeferral(db: Pool, queue: Queue, s: Sent, recipients: string[], response: string): Promise<void> {
  const status = /\b4\.\d{1,3}\.\d{1,3}\b/.exec(response)?.[0] ?? /^\s*(4\d\d)\b/.exec(response)?.[1] ?? null;
  await withTransaction(db, async (tx) => {
    if (!(await lockReviewInstance(tx, s.review.org_id, s.review.id))) return;
    await record(tx, queue, s, recipients.map((email) => ({ email, kind: 'delayed' as const, type: 'soft' as const, status, diagnostic: response.slice(0, 1000) })), null);
  });
}

function reportRow(s: Sent, r: Pick<ReportRecipient, 'email' | 'kind' | 'type' | 'status' | 'diagnostic'>, raw: Buffer | null): NewDeliveryReport {
  return {
    org_id: s.review.org_id,
    project_id: s.review.project_id,
    inbox_id: s.inbox.id,
    review_id: s.review.id,
    message_id: s.message_id,
    recipient: r.email,
    kind: r.kind,
    type: r.type,
    status: r.status,
    diagnostic: r.diagnostic,
    raw,
  };
}

/** Rows, events on the log and the review's queue, and suppressions, in the caller's transaction holding the review's row lock. */
async function record(tx: pg.ClientBase, queue: Queue, s: Sent, recipients: ReportRecipient[], raw: Buffer | null, config?: Config): Promise<void> {
  await insertDeliveryReports(tx, recipients.map((r) => reportRow(s, r, raw)));
  const c = restoreReview(s.review).context;
  for (const r of recipients) {
    const type = EVENT_OF[r.kind];
    const payload = payloadOf(s, r);
    const item = {
      org_id: s.review.org_id,
      project_id: s.review.project_id,
      review_id: s.review.id,
      agent_id: s.review.agent_id,
      inbox_id: s.inbox.id,
      type,
      state: s.review.state,
      from_state: null,
      category_id: c.category_id ?? null,
      revision: c.revision,
      effective_mode: c.effective_mode,
      // On the queue an item's `type` is the event's: the bounce's type goes as bounce_type.
      extra: { recipient: r.email, message_id: s.message_id, ...(payload.type ? { bounce_type: payload.type } : {}), status: r.status, diagnostic: r.diagnostic },
    };
    const { logged } = await appendReviewEvent(tx, item, { ...payload, state: s.review.state, revision: c.revision });
    await deliverToWebhooks(tx, queue, logged);
    const at = { org_id: s.review.org_id, project_id: s.review.project_id };
    if (r.kind === 'complained') await suppress(tx, at, { email: r.email, origin: 'delivery', reason: 'complained' });
    else if (r.kind === 'bounced' && r.type === 'hard') await suppress(tx, at, { email: r.email, origin: 'delivery', reason: 'bounced' });
    else if (config && r.kind === 'bounced' && r.type === 'soft' && (await softBouncesInARow(tx, at, r.email, config.softBounceLimit))) {
      await suppress(tx, at, { email: r.email, origin: 'delivery', reason: 'bounced' });
    }
  }
}

/**
 * A report that came back. `claimed`: the review a return path it was sent to names (already
 * verified). `receiving`: the hosted inbox it was sent to otherwise. Linked when the report names
 * a recipient of a review this service sent, found by the return path it was sent to, by the
 * signed return path in the reported message's headers, or (arriving at the very inbox that sent
 * it) by that message's Message-ID. Returns whether it was linked; one that was not is the
 * caller's to store as mail.
 */
export async function takeReport(
  deps: ReportDeps,
  m: { raw: Buffer; envelope_from: string | null; claimed: string | null; receiving: InboxRow | null },
): Promise<{ linked: boolean; review_id: string | null; report: DeliveryReport | null; inbox: InboxRow | null }> {
  const report = parseReport(m.raw, m.envelope_from);
  const reviewId = report && report.recipients.length > 0 ? (m.claimed ?? reviewFromOriginal(deps.config, report, m.receiving)) : m.claimed;
  const org = reviewId ? await reviewOrgOf(deps.db, reviewId) : null;
  // Not linked: a report to a return path is stored as mail in the inbox that sent the review.
  const unlinked = async () => ({
    linked: false,
    review_id: reviewId,
    report,
    inbox: m.claimed && org ? ((await findReviewWithInbox(deps.db, org, m.claimed))?.inbox ?? null) : null,
  });
  if (!report || !reviewId || !org) return unlinked();
  const linked = await withTransaction(deps.db, async (tx) => {
    if (!(await lockReviewInstance(tx, org, reviewId))) return false;
    // The sending MTA delivering the same report again (it missed our 250): recorded once.
    if (await reportRecorded(tx, org, reviewId, m.raw)) return true;
    const found = await findReviewWithInbox(tx, org, reviewId);
    if (!found?.inbox) return false;
    // By Message-ID only at the very inbox that sent it: anyone can quote a Message-ID.
    if (!m.claimed && !signedOriginal(deps.config, report) && found.inbox.id !== m.receiving?.id) return false;
    const c = restoreReview(found.review).context;
    const sentTo = new Set([...((c.draft?.to as { email: string }[]) ?? []), ...((c.draft?.cc as { email: string }[]) ?? [])].map((r) => r.email.toLowerCase()));
    const mine = report.recipients.filter((r) => sentTo.has(r.email) && r.kind !== 'delivered');
    if (mine.length === 0) return false;
    const sent: Sent = {
      review: found.review,
      inbox: found.inbox,
      message_id: (c.sent_message_id as string | null) ?? null,
      smtp_message_id: report.original.message_id ?? `<${found.review.id}.${c.revision}@${found.inbox.domain}>`,
    };
    await record(tx, deps.queue, sent, mine, m.raw, deps.config);
    return true;
  });
  if (!linked) return unlinked();
  deps.log.info({ review_id: reviewId, format: report.format, recipients: report.recipients.map((r) => `${r.email} ${r.kind}`) }, 'delivery report linked');
  return { linked, review_id: reviewId, report, inbox: null };
}

function signedOriginal(config: Config, report: DeliveryReport): string | null {
  const rp = report.original.return_path;
  return rp ? (verifyReturnPath(returnPathKeyOf(config), rp)?.review_id ?? null) : null;
}

/** The review a report's quoted original names: its signed return path, else its Message-ID (`<rr_….N@domain>`). */
function reviewFromOriginal(config: Config, report: DeliveryReport, receiving: InboxRow | null): string | null {
  const signed = signedOriginal(config, report);
  if (signed) return signed;
  if (!receiving) return null;
  const mid = /^<(rr_[0-9a-z]{20})\.\d+@/.exec(report.original.message_id ?? '');
  return mid?.[1] ?? (/^rr_[0-9a-z]{20}$/.test(report.original.review_id ?? '') ? report.original.review_id : null);
}

// ---- Sender health, as the console shows and clears it

/** An inbox's sender health: its recent sends, their bounces and complaints, and whether new sends are held. */
export async function inboxSenderHealth(db: Pool, config: Config, at: { org_id: string; project_id: string; inbox: string }) {
  const inboxId = await inboxIdIn(db, at, at.inbox);
  if (!inboxId) throw notFound('inbox');
  const counts = await senderHealthCounts(db, at.org_id, inboxId, SENDER_HEALTH_WINDOW);
  const health = senderHealth(counts, config.senderHealth);
  return {
    inbox_id: inboxId,
    sends: counts.sends,
    bounces: counts.bounces,
    complaints: counts.complaints,
    bounce_rate: health.bounce_rate,
    complaint_rate: health.complaint_rate,
    held: !health.healthy,
    reason: health.reason,
    limits: { min_sends: config.senderHealth.minSends, max_bounce_rate: config.senderHealth.maxBounceRate, max_complaint_rate: config.senderHealth.maxComplaintRate, window: SENDER_HEALTH_WINDOW },
    cleared_at: counts.cleared_at ? counts.cleared_at.toISOString() : null,
  };
}

/**
 * A human clears an inbox's sender health: its rates count only sends from now on, so new sends
 * flow again. Sends already held stay in review for a human to decide.
 */
export async function clearInboxSenderHealth(db: Pool, config: Config, at: { org_id: string; project_id: string; inbox: string }) {
  const inboxId = await inboxIdIn(db, at, at.inbox);
  if (!inboxId) throw notFound('inbox');
  await clearSenderHealth(db, at.org_id, inboxId);
  return inboxSenderHealth(db, config, { ...at, inbox: inboxId });
}
