// The delivery actor: sends an approved (or released) review exactly once and feeds the outcome
// back to the review machine.
//
// Where a recipient's mail goes: an address hosted here is delivered internally through the same
// ingestion path as inbound SMTP; any other goes to the relay (SMTP_URL) or, with no relay, to the
// local outbox. The sender's copy lands in its SENT folder with the review id.
//
// Exactly once: a session lock per review means one worker at a time; an attempt row per revision
// fixes the Message-ID and records how far the relay conversation got. `connecting`: nothing was
// handed over, so a retry sends. `data`: the relay may hold the message, so a retry never sends;
// it parks the review (`delivery_unknown`) for reconciliation by Message-ID. Internal delivery and
// the outbox commit in the same transaction as the outcome, so they cannot half-happen.
import type pg from 'pg';
import { MAX_DEFERRALS } from '../machines/policy/delivery-outcome.ts';
import type { Recipient } from '../machines/policy/send-body.ts';
import type { ReviewEvent } from '../machines/review-request.ts';
import { composeMessage } from '../mail/outbound/compose.ts';
import { RelayError, parseSmtpUrl, sendViaRelay, type RelayConfig } from '../mail/outbound/relay.ts';
import { returnPathKeyOf, returnPathOf } from '../mail/outbound/return-path.ts';
import { signUnsubscribeToken, unsubscribeKey } from '../mail/outbound/unsubscribe-token.ts';
import { InboundQuotaError } from '../mail/inbound/policies/over-quota.ts';
import { ingestMessageIn, prepareIngest, storeIngestIn, type IngestInput, type StoredMessage } from './ingest.ts';
import { parseMessage, type ParsedMail } from '../mail/parse.ts';
import type { Config } from '../service/config.ts';
import { encryptionKey } from '../service/encryption.ts';
import type { Logger } from '../service/logger.ts';
import type { Queue } from '../service/queue.ts';
import { transactionOn, withTransaction, type Pool } from '../storage/db.ts';
import { newId } from '../storage/ids.ts';
import { findInbox, type InboxRow } from '../storage/inboxes.ts';
import { findMessageSource } from '../storage/messages.ts';
import {
  findDelivery,
  insertOutbox,
  openDelivery,
  reviewsAwaitingDelivery,
  setDeliveryPhase,
  lockDeliveryAndReadReview,
  unlockDelivery,
  unlockDeliveryStatement,
  type DeliveryRow,
} from '../storage/review-deliveries.ts';
import { findReview, listReviewAttachments, reviewOrgOf, type ReviewRow, type ReviewWithInbox } from '../storage/reviews.ts';
import { readDeliveredWebhooksAhead, recordDelivered, recordRelayDeferral } from './delivery-reports.ts';
import { noticeInboundRefused } from './quota-notices.ts';
import { JOBS } from './jobs.ts';
import { applyWorkerEvent, lockReviewAhead } from './reviews/apply.ts';
import { readNoticesAhead, toldWhenSent } from './reviews/effects.ts';
import { restoreReview } from './reviews/snapshot.ts';
import { signOutbound } from './signing-keys.ts';
import { sendSystemMail, type SystemMail } from './system-mail.ts';

export type DeliveryDeps = { db: Pool; queue: Queue; config: Config; log: Logger };

const IN_FLIGHT = new Set(['approved', 'edited', 'sending_auto']);

let relayCache: { url: string; relay: RelayConfig } | null = null;
function relayOf(config: Config): RelayConfig | null {
  if (!config.smtpUrl) return null;
  if (relayCache?.url !== config.smtpUrl) relayCache = { url: config.smtpUrl, relay: parseSmtpUrl(config.smtpUrl) };
  return relayCache.relay;
}

const keys = new WeakMap<Config, Buffer>();
function unsubscribeKeyOf(config: Config): Buffer {
  let key = keys.get(config);
  if (!key) keys.set(config, (key = unsubscribeKey(encryptionKey(config))));
  return key;
}

export async function deliverReview(deps: DeliveryDeps, p: { org_id: string; review_id: string }): Promise<void> {
  const conn = await deps.db.connect();
  const lock: Lock = { conn, review_id: p.review_id, held: false };
  let broken: Error | undefined;
  try {
    const { locked, found } = await lockDeliveryAndReadReview(conn, p.org_id, p.review_id).catch((err: Error) => {
      broken = err;
      throw err;
    });
    // Another worker holds it (or a dead one's session is still closing): try again later, when
    // the outcome is recorded or the lock is free.
    if (!locked) throw new Error(`review ${p.review_id} is being delivered by another worker`);
    lock.held = true;
    try {
      if (found) await deliverLocked(deps, lock, found);
    } finally {
      if (lock.held) {
        await unlockDelivery(conn, p.review_id).catch((err: Error) => {
          broken = err;
        });
      }
    }
  } finally {
    // A connection that could not unlock (or may have locked unseen) must not return to the pool holding the lock.
    conn.release(broken);
  }
}

/** The connection holding a review's delivery lock; the outcome's transaction runs on it and releases the lock with its COMMIT. */
type Lock = { conn: pg.PoolClient; review_id: string; held: boolean };

async function deliverLocked(deps: DeliveryDeps, lock: Lock, found: ReviewWithInbox): Promise<void> {
  const { conn } = lock;
  if (!IN_FLIGHT.has(found.review.state)) return;
  const { review: row, inbox } = found;
  const context = restoreReview(row).context;
  if (context.reconciliation_needed) return;
  const log = deps.log.child({ review_id: row.id });
  const key = { org_id: row.org_id, review_id: row.id, revision: context.revision };
  const draft = context.draft;
  const recipients = [...((draft.to as Recipient[]) ?? []), ...((draft.cc as Recipient[]) ?? [])].map((r) => r.email.toLowerCase());
  const { attempt, hosted } = await openDelivery(
    conn,
    { ...key, project_id: row.project_id, message_id: `<${row.id}.${context.revision}@${inbox?.domain ?? deps.config.inboxDomain}>` },
    recipients,
  );
  if (!inbox) return finishFailed(deps, lock, row, key, 'the sending inbox no longer exists');
  if (attempt.phase === 'failed') return finishFailed(deps, lock, row, key, attempt.last_error ?? 'delivery failed');
  if (attempt.phase === 'data') {
    log.warn({ message_id: attempt.message_id }, 'delivery outcome unknown: the relay may hold the message; parking the review');
    return markUnknown(deps, lock, row, 'the relay was handed the message but its answer was never recorded');
  }

  const hostedAddresses = new Set(hosted.map((i) => i.address));
  const unknownLocal = recipients.filter((a) => !hostedAddresses.has(a) && a.endsWith(`@${deps.config.inboxDomain}`));
  if (unknownLocal.length) return finishFailed(deps, lock, row, key, `no inbox here for ${unknownLocal.join(', ')}`);
  const external = recipients.filter((a) => !hostedAddresses.has(a));
  const raw = await buildRaw(deps, conn, row, inbox, attempt);
  const relay = relayOf(deps.config);
  // The copies are stored from the parsed message: parsed while the relay conversation goes on.
  // (It never rejects; a parse that failed says so in `parse_error`.)
  const parsing = parseMessage(raw);
  // Bounces come back to an address naming this review (mail/outbound/return-path.ts).
  const returnPath = returnPathOf(returnPathKeyOf(deps.config), row.id, inbox.domain);

  // The relay's answer, recorded with the outcome below (or on its own should that fail).
  let relayResponse: string | null = null;
  let relayAccepted: string[] | null = null;
  if (external.length > 0 && relay && attempt.phase !== 'sent') {
    // A try counts once the relay takes DATA or answers with a temporary failure before that.
    let counted = false;
    try {
      const result = await sendViaRelay(relay, { from: returnPath, to: external }, raw, async () => {
        await setDeliveryPhase(conn, key, 'data', { route: 'relay', countTry: true });
        counted = true;
      });
      relayResponse = result.rejected.length ? `${result.response} (refused: ${result.rejected.join(', ')})` : result.response;
      const refused = new Set(result.rejected.map((a) => a.toLowerCase()));
      relayAccepted = external.filter((a) => !refused.has(a));
    } catch (err) {
      if (!(err instanceof RelayError)) throw err;
      if (err.outcome === 'failed') return finishFailed(deps, lock, row, key, `the relay refused the message: ${err.response ?? err.message}`);
      if (err.outcome === 'unknown') {
        log.warn({ message_id: attempt.message_id, err: err.message }, 'relay connection lost after the message was handed over; parking the review');
        return markUnknown(deps, lock, row, `relay connection lost after the message was handed over: ${err.message}`);
      }
      await setDeliveryPhase(conn, key, 'deferred', { route: 'relay', last_error: err.response ?? err.message, countTry: !counted });
      await recordRelayDeferral(deps.db, deps.queue, { review: row, inbox, message_id: null, smtp_message_id: attempt.message_id }, external, err.response ?? err.message)
        .catch((e: Error) => log.warn({ err: e.message }, 'the relay deferral could not be reported'));
      if (attempt.tries + 1 >= MAX_DEFERRALS) return finishFailed(deps, lock, row, key, `gave up after ${MAX_DEFERRALS} temporary failures: ${err.response ?? err.message}`);
      throw err;
    }
  }

  const parsed = await parsing;
  const outgoing: Outgoing = { raw, parsed, hosted, external, relay, relayResponse, relayAccepted, returnPath };
  // As at RCPT over SMTP (hosted-recipient.ts): a self-signup inbox takes no mail until verified.
  const unverified = hosted.find((h) => h.status === 'pending');
  if (unverified) {
    return deferHosted(deps, lock, row, inbox, attempt, outgoing, {
      error: `450 4.2.1 ${unverified.address}: the inbox is not active yet, its sign-up awaits verification; try again later`,
      refusedBy: 'Their inbox was not active yet, its sign-up awaiting verification',
    });
  }
  try {
    await storeDelivered(deps, lock, row, inbox, attempt, outgoing);
  } catch (err) {
    if (err instanceof InboundQuotaError) return deferOverQuota(deps, lock, row, inbox, attempt, outgoing, err);
    // The relay has the message: a retry must store the copies, never hand it over again.
    if (relayResponse !== null) await setDeliveryPhase(conn, key, 'sent', { relay_response: relayResponse });
    throw err;
  }
  log.info({ message_id: attempt.message_id, external: external.length, internal: hosted.length }, 'review delivered');
}

type Outgoing = {
  raw: Buffer;
  parsed: ParsedMail;
  hosted: InboxRow[];
  external: string[];
  relay: RelayConfig | null;
  relayResponse: string | null;
  /** The external recipients the relay took, when it answered in this try (else all of them, on a retry after it did). */
  relayAccepted?: string[] | null;
  returnPath: string;
  /** Hosted recipients given up on: the sender is told, and the attempt records why. */
  missed?: { addresses: string[]; notice: SystemMail; why: string };
};

/**
 * One transaction: the outbox copy (no relay), the sender's SENT copy and the hosted recipients'
 * copies, and the review's outcome. The copies are stored and metered together, so the sender's
 * and the recipients' usage rows are locked in org-id order whichever way the mail goes; a
 * recipient org past its monthly quota or storage throws InboundQuotaError and nothing is stored.
 */
async function storeDelivered(deps: DeliveryDeps, lock: Lock, row: ReviewRow, inbox: InboxRow, attempt: DeliveryRow, o: Outgoing): Promise<void> {
  const { raw, parsed, hosted, external, relay } = o;
  const key = { org_id: row.org_id, review_id: row.id, revision: attempt.revision };
  // The sender's copy (it publishes nothing: a sent message is not news to its own inbox).
  const sentCopy: IngestInput = { raw, parsed, recipients: [inbox], envelope_from: inbox.address, folder: 'SENT', direction: 'outbound', review_id: row.id };
  const received: IngestInput[] = hosted.length > 0 ? [{ raw, parsed, recipients: hosted, envelope_from: inbox.address }] : [];
  // Made ready before the transaction, whose BEGIN takes the copies' thread-key locks.
  const copies = await prepareIngest([sentCopy, ...received]);
  // What the relay or a hosted inbox took; mail kept in the outbox has reached no one yet.
  const took = [...(relay ? (o.relayAccepted ?? external) : []), ...hosted.map((h) => h.address)];
  await inLockTransaction(lock, async (tx) => {
    // Read with the copies' insert: the review, locked for its outcome; who to tell, when sent by
    // a category that tells the human; and the webhooks that hear of the delivery.
    lockReviewAhead(tx, row.id);
    if (toldWhenSent(restoreReview(row).context)) readNoticesAhead(tx, deps.queue, row);
    if (took.length > 0) readDeliveredWebhooksAhead(tx, row.org_id, inbox.id);
    if (external.length > 0 && !relay) {
      await insertOutbox(tx, {
        org_id: row.org_id,
        project_id: row.project_id,
        id: newId('obx'),
        review_id: row.id,
        inbox_id: inbox.id,
        message_id: attempt.message_id,
        envelope_from: o.returnPath,
        envelope_to: external,
        subject: parsed.subject,
        raw,
      });
    }
    const [[copy]] = (await storeIngestIn(tx, deps.queue, copies, deps.config.plans)) as [StoredMessage[]];
    if (o.missed) await sendSystemMail(deps, tx, { org_id: row.org_id, project_id: row.project_id, inbox_id: inbox.id }, { ...o.missed.notice, kind: 'delivery_notice' }, new Date());
    await applyWorkerEvent(tx, deps.queue, row.org_id, row.id, { type: 'delivered', sent_message_id: copy!.id });
    await setDeliveryPhase(tx, key, 'sent', {
      route: external.length === 0 ? 'internal' : relay ? 'relay' : 'outbox',
      relay_response: o.relayResponse,
      last_error: o.missed ? `not delivered to ${o.missed.addresses.join(', ')}: ${o.missed.why}` : null,
    });
    const sent = { review: row, inbox, message_id: copy!.id, smtp_message_id: attempt.message_id };
    await recordDelivered(tx, deps.queue, sent, took, relay && o.relayResponse ? (/^\s*(\d{3})/.exec(o.relayResponse)?.[1] ?? null) : null);
  }, copies.lock);
}

/** A transaction on the lock's connection whose COMMIT also releases the delivery lock; `firstStatement` travels with its BEGIN. */
async function inLockTransaction(lock: Lock, fn: (tx: pg.PoolClient) => Promise<void>, firstStatement?: string | null): Promise<void> {
  await transactionOn(lock.conn, fn, { firstStatement, afterCommit: unlockDeliveryStatement(lock.conn, lock.review_id) });
  lock.held = false;
}

/**
 * A hosted recipient cannot take mail now: its org is past its monthly quota or storage (what an
 * SMTP peer hears as 452), or its inbox awaits sign-up verification (450). Either is a temporary
 * failure. Nothing was stored; the delivery is deferred and retried like a relay's temporary
 * failure, with the sender's reservation still held. A relay that already took the external
 * recipients' copy keeps its phase `sent`, so a retry never hands it over again. When the tries
 * run out, a send that reached no one fails; one the relay took is sent, without the hosted
 * copies, and the sender's inbox gets a delivery failure notice naming the recipients it did not
 * reach.
 */
async function deferHosted(
  deps: DeliveryDeps,
  lock: Lock,
  row: ReviewRow,
  inbox: InboxRow,
  attempt: DeliveryRow,
  o: Outgoing,
  /** `error`: the SMTP-like answer recorded; `refusedBy`: why, for the sender's notice. */
  refusal: { error: string; refusedBy: string },
): Promise<void> {
  const key = { org_id: row.org_id, review_id: row.id, revision: attempt.revision };
  const { error } = refusal;
  const relaySent = o.relayResponse !== null || attempt.phase === 'sent';
  await setDeliveryPhase(lock.conn, key, relaySent ? 'sent' : 'deferred', { last_error: error, relay_response: o.relayResponse, countTry: true });
  if (attempt.tries + 1 < MAX_DEFERRALS) throw new Error(`delivery deferred: ${error}`);
  const gaveUp = `gave up after ${MAX_DEFERRALS} temporary failures: ${error}`;
  if (!relaySent) return finishFailed(deps, lock, row, key, gaveUp);
  // The hosted copies are stored together or not at all: none of them was.
  const addresses = o.hosted.map((h) => h.address);
  deps.log.warn({ review_id: row.id, unreached: addresses }, 'review sent without its hosted recipients: they could not take it until the tries ran out');
  const notice: SystemMail = {
    to: inbox.address,
    subject: `Undelivered: ${o.parsed.subject ?? ''}`.trim(),
    text: [
      `Your message ${attempt.message_id} (review ${row.id}) reached its other recipients, but not ${addresses.join(', ')}.`,
      `${refusal.refusedBy} (${MAX_DEFERRALS} tries): ${error}.`,
      'Send it to them again once they can take mail.',
    ].join('\n\n'),
  };
  await storeDelivered(deps, lock, row, inbox, attempt, { ...o, hosted: [], relayResponse: null, missed: { addresses, notice, why: gaveUp } });
}

/** The receiving org is past its monthly quota or storage: its owners are told as for inbound SMTP, and the delivery waits. */
async function deferOverQuota(deps: DeliveryDeps, lock: Lock, row: ReviewRow, inbox: InboxRow, attempt: DeliveryRow, o: Outgoing, err: InboundQuotaError): Promise<void> {
  deps.log.info({ review_id: row.id, org_id: err.org_id, kind: err.kind }, 'internal delivery deferred: the receiving org is over quota');
  await noticeInboundRefused(deps, err, new Date()).catch((e: Error) => deps.log.warn({ err: e.message }, 'the over-quota notice could not be recorded'));
  return deferHosted(deps, lock, row, inbox, attempt, o, {
    error: `452 4.2.2 ${err.inbox.address}: ${err.message}; try again later`,
    refusedBy: 'Their account refused it',
  });
}

async function buildRaw(deps: DeliveryDeps, db: pg.PoolClient, row: ReviewRow, inbox: InboxRow, attempt: DeliveryRow): Promise<Buffer> {
  const context = restoreReview(row).context;
  const draft = context.draft;
  // A draft that lists no attachments has none stored: nothing to read.
  const listed = draft.attachments as unknown[] | undefined;
  const files = Array.isArray(listed) && listed.length === 0 ? [] : await listReviewAttachments(db, row.org_id, row.id, true);
  const original =
    row.kind === 'forward' && row.parent_message_id
      ? await findMessageSource(db, { org_id: row.org_id, inbox_id: row.inbox_id }, row.parent_message_id)
      : null;
  const token = signUnsubscribeToken(unsubscribeKeyOf(deps.config), { org_id: row.org_id, review_id: row.id });
  const composed = await composeMessage({
    from: { name: inbox.display_name ?? '', email: inbox.address },
    to: (draft.to as Recipient[]) ?? [],
    cc: (draft.cc as Recipient[]) ?? [],
    subject: draft.subject ?? '',
    text: draft.text ?? '',
    message_id: attempt.message_id,
    in_reply_to: (draft.in_reply_to as string | null) ?? null,
    references: row.references,
    // The attempt's time, so every try composes the same message.
    date: attempt.created_at,
    attachments: files,
    forwarded: original ? { raw: original, filename: 'forwarded-message.eml' } : null,
    unsubscribe: { url: `${deps.config.publicBaseUrl}/v1/unsubscribe/${token}`, mailto: `mailto:${inbox.address}?subject=unsubscribe` },
    review_id: row.id,
    // RFC 3834: an answer to mail sent automatically says it is one, so the other side does not answer it.
    auto_replied: draft.auto_replied === true,
  });
  return signOutbound(db, deps.config, inbox, composed);
}

type Key = { org_id: string; review_id: string; revision: number };

async function finishFailed(deps: DeliveryDeps, lock: Lock | null, row: ReviewRow, key: Key, error: string): Promise<void> {
  deps.log.warn({ review_id: row.id, error }, 'review delivery failed');
  const record = async (tx: pg.PoolClient) => {
    await setDeliveryPhase(tx, key, 'failed', { last_error: error });
    await applyWorkerEvent(tx, deps.queue, row.org_id, row.id, { type: 'delivery_failed', error });
  };
  await (lock ? inLockTransaction(lock, record) : withTransaction(deps.db, record));
}

async function markUnknown(deps: DeliveryDeps, lock: Lock, row: ReviewRow, error: string): Promise<void> {
  await inLockTransaction(lock, async (tx) => {
    await applyWorkerEvent(tx, deps.queue, row.org_id, row.id, { type: 'delivery_unknown', error });
  });
}

/**
 * Re-enqueues deliveries that nothing is working on (a worker died holding them): in flight, not
 * parked, and unchanged for `olderThanSeconds`. A duplicate job is harmless: it waits for the lock
 * and finds the outcome recorded.
 */
export async function sweepDeliveries(deps: DeliveryDeps, olderThanSeconds = 60): Promise<number> {
  const stuck = await reviewsAwaitingDelivery(deps.db, new Date(Date.now() - olderThanSeconds * 1000), 500);
  if (stuck.length === 0) return 0;
  await withTransaction(deps.db, async (tx) => {
    for (const r of stuck) await deps.queue.send(tx, JOBS.reviewDelivery.name, { org_id: r.org_id, review_id: r.id });
  });
  await deps.queue.wake(deps.db, JOBS.reviewDelivery.name);
  return stuck.length;
}

/**
 * An operator's resolution of a parked send, after checking the relay's log for its Message-ID:
 * `delivered` files the SENT copy and finishes the review as sent; `failed` fails it.
 */
export async function reconcileDelivery(
  deps: DeliveryDeps,
  p: { review_id: string; outcome: 'delivered' | 'failed'; reason?: string },
): Promise<{ state: string; message_id: string | null }> {
  const conn = await deps.db.connect();
  try {
    const orgId = await reviewOrgOf(conn, p.review_id);
    const row = orgId ? await findReview(conn, { org_id: orgId, project_id: null, agent_id: null, inbox_id: null }, p.review_id) : null;
    if (!row) throw new Error(`no review ${p.review_id}`);
    const context = restoreReview(row).context;
    if (!context.reconciliation_needed) throw new Error(`review ${p.review_id} is ${row.state} and not parked for reconciliation`);
    const key = { org_id: row.org_id, review_id: row.id, revision: context.revision };
    const attempt = await findDelivery(conn, row.org_id, row.id, context.revision);
    if (p.outcome === 'failed') {
      await finishFailed(deps, null, row, key, p.reason ?? 'reconciled as not delivered');
      return { state: 'failed', message_id: attempt?.message_id ?? null };
    }
    const inbox = await findInbox(conn, row.org_id, row.project_id, row.inbox_id);
    if (!inbox || !attempt) throw new Error(`review ${p.review_id} has no delivery attempt to reconcile`);
    const raw = await buildRaw(deps, conn, row, inbox, attempt);
    await withTransaction(deps.db, async (tx) => {
      const [copy] = await ingestMessageIn(tx, deps.queue, {
        raw,
        recipients: [inbox],
        envelope_from: inbox.address,
        folder: 'SENT',
        direction: 'outbound',
        review_id: row.id,
      });
      await setDeliveryPhase(tx, key, 'sent', { relay_response: p.reason ?? 'reconciled as delivered' });
      await applyWorkerEvent(tx, deps.queue, row.org_id, row.id, { type: 'delivered', sent_message_id: copy!.id } satisfies ReviewEvent);
    });
    return { state: row.state === 'sending_auto' ? 'auto_sent' : 'sent', message_id: attempt.message_id };
  } finally {
    conn.release();
  }
}
