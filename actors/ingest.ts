// Storing a received message: once per recipient inbox, raw and parsed together, placed in a
// thread, with its `message.received` event, all in one transaction. The SMTP server calls it
// after DATA (the SMTP role gives it through ./ingest-batcher.ts); internal delivery (a send to an
// address hosted here) calls it the same way.
import crypto from 'node:crypto';
import type pg from 'pg';
import { createDeliveries, goesToWebhooks, type MessageReceivedPayload } from './events.ts';
import type { Queue } from '../service/queue.ts';
import { lockStatement, withTransaction, type Pool } from '../storage/db.ts';
import { earlierCopy, recordReceipts, type Receipt } from '../storage/inbound-receipts.ts';
import { countReceived, countReceivedAhead, type Received } from '../storage/usage.ts';
import { UNLIMITED, planOf, type Plans } from '../machines/policy/plans.ts';
import type { InboxRow } from '../storage/inboxes.ts';
import { InboundQuotaError } from '../mail/inbound/policies/over-quota.ts';
import { insertMessage, newAttachmentId, newMessageId, type Folder, type MessageEventDraft } from '../storage/messages.ts';
import { newThreadId, threadKeyLocks } from '../storage/threads.ts';
import { screenMessage, type Screening } from '../machines/policy/screening.ts';
import { autoSubmitted } from '../machines/policy/auto-submitted.ts';
import type { Authentication } from '../mail/inbound/authentication.ts';
import { extractHtml, extractText, htmlToText } from '../mail/extract.ts';
import { parseMessage, withoutNul, type Address, type ParsedMail } from '../mail/parse.ts';
import { normalizeMessageId, normalizeSubject, threadLookupKeys, usableThreadKey } from '../mail/thread.ts';

export type IngestServices = {
  db: Pool;
  queue: Queue;
  /** Mail from other servers is refused (InboundQuotaError) past the receiving org's monthly quota or storage. */
  plans?: Plans;
};

export type IngestInput = {
  raw: Buffer;
  recipients: InboxRow[];
  /** MAIL FROM of the envelope; null for the null sender (bounces). */
  envelope_from: string | null;
  /** Already parsed, when the caller has it. */
  parsed?: ParsedMail;
  folder?: Folder;
  direction?: 'inbound' | 'outbound';
  review_id?: string | null;
  /**
   * Mail from another server: the same bytes with the same Message-ID to the same inbox within a
   * day are the sender retrying a delivery whose 250 it missed, answered with the stored copy.
   */
  recognise_retries?: boolean;
  /** Verdicts computed at the SMTP server; null or absent for internal delivery and SENT copies. */
  authentication?: Authentication | null;
};

export type StoredMessage = {
  inbox: InboxRow;
  id: string;
  thread_id: string;
  folder: Folder;
  seq: number;
  received_at: Date;
  /** False for a sender's retry answered with the copy stored before. */
  fresh: boolean;
};

// A reply without usable references joins a same-subject thread only while that thread is this recent.
const SUBJECT_FALLBACK_DAYS = 30;
// The webhook body carries the text; past this it is cut and `text_truncated` says so.
const EVENT_TEXT_LIMIT = 256 * 1024;

export async function ingestMessage(s: IngestServices, input: IngestInput): Promise<StoredMessage[]> {
  return (await ingestMessages(s, [input]))[0]!;
}

/**
 * Several messages in one transaction (see ./ingest-batcher.ts): each stored as ingestMessage stores
 * it, all committed together or not at all.
 */
export async function ingestMessages(s: IngestServices, inputs: IngestInput[]): Promise<StoredMessage[][]> {
  const batch = await prepareIngest(inputs);
  return withTransaction(s.db, (tx) => storeIngestIn(tx, s.queue, batch, s.plans), batch.lock);
}

/** One message inside the caller's transaction (a system mail, a reconciled SENT copy); no plan refuses it. */
export async function ingestMessageIn(tx: pg.PoolClient, queue: Queue, input: IngestInput): Promise<StoredMessage[]> {
  return (await ingestMessagesIn(tx, queue, [input]))[0]!;
}

/**
 * Several messages inside the caller's transaction, locked and counted as one batch: the
 * thread-key locks first, then every org's usage rows in org-id order (see meter). Internal
 * delivery stores the sender's SENT copy and the recipients' copies with one call, so a delivery
 * from org A to org B and one from B to A lock A's and B's rows in the same order. With `plans`,
 * an org receiving a copy past its monthly quota or storage throws InboundQuotaError.
 */
export async function ingestMessagesIn(tx: pg.PoolClient, queue: Queue, inputs: IngestInput[], plans?: Plans): Promise<StoredMessage[][]> {
  const batch = await prepareIngest(inputs);
  if (batch.lock) await tx.query(batch.lock);
  return storeIngestIn(tx, queue, batch, plans);
}

/**
 * Messages made ready to store before any transaction: parsed, with what is derived from them, and
 * the statement taking their thread-key locks, which can travel with the BEGIN of the transaction
 * that stores them (withTransaction's firstStatement).
 */
export type IngestBatch = { prepared: Prepared[]; lock: string | null };

export async function prepareIngest(inputs: IngestInput[]): Promise<IngestBatch> {
  const prepared = await Promise.all(inputs.map(prepare));
  return { prepared, lock: lockStatement(locksOf(prepared)) };
}

/** Stores a prepared batch as ingestMessagesIn does, in a transaction that has taken `batch.lock`. */
export async function storeIngestIn(tx: pg.PoolClient, queue: Queue, batch: IngestBatch, plans?: Plans): Promise<StoredMessage[][]> {
  const stored = await storeAll(tx, queue, batch.prepared);
  await meter(tx, batch.prepared, stored, plans);
  return stored;
}

/**
 * Counts what was stored, per org, in the storing transaction: bytes of every new copy, and the
 * received messages and copies of inbound mail. One statement an org, in org-id order, so every
 * transaction that meters locks the orgs' usage rows in the same order. With `plans`, an org that
 * received a copy and is taken past its monthly quota or storage throws InboundQuotaError, and
 * the transaction stores nothing (a sender's own SENT copy is never refused).
 */
async function meter(tx: pg.PoolClient, prepared: Prepared[], stored: StoredMessage[][], plans?: Plans): Promise<void> {
  const byOrg = new Map<string, Received & { inbox: InboxRow }>();
  prepared.forEach((m, i) => {
    const inbound = (m.input.direction ?? 'inbound') === 'inbound';
    const orgsOfMessage = new Set<string>();
    for (const copy of stored[i]!) {
      if (!copy.fresh) continue;
      const org = copy.inbox.org_id;
      let r = byOrg.get(org);
      if (!r) byOrg.set(org, (r = { org_id: org, messages: 0, copies: 0, bytes: 0, inbox: copy.inbox }));
      r.bytes += m.input.raw.length;
      if (!inbound) continue;
      // A refusal names an inbox that was to receive the message.
      if (r.copies === 0) r.inbox = copy.inbox;
      r.copies++;
      if (!orgsOfMessage.has(org)) r.messages++;
      orgsOfMessage.add(org);
    }
  });
  const orgs = [...byOrg.values()];
  if (orgs.length === 0) return;
  // Only an org receiving a copy can be refused; without one (a sender's SENT copy alone) the
  // counts go with the transaction's next statement.
  if (!plans || orgs.every((r) => r.copies === 0)) return countReceivedAhead(tx, orgs);
  const after = await countReceived(tx, orgs);
  for (const a of after) {
    const plan = planOf(a.plan_tier, plans);
    const { inbox, copies } = byOrg.get(a.org_id)!;
    if (copies === 0) continue;
    if (plan.included_messages_monthly !== UNLIMITED && a.month_total > plan.included_messages_monthly) {
      throw new InboundQuotaError(a.org_id, inbox, 'monthly_message_quota');
    }
    if (plan.storage_bytes !== UNLIMITED && a.storage_bytes > plan.storage_bytes) throw new InboundQuotaError(a.org_id, inbox, 'storage');
  }
}

type Prepared = { input: IngestInput; parsed: ParsedMail; views: Views; recipients: InboxRow[] };

async function prepare(input: IngestInput): Promise<Prepared> {
  // The raw source keeps its bytes; every text derived from it is stored without NUL.
  const parsed = withoutNul(input.parsed ?? (await parseMessage(input.raw)));
  const envelope_from = input.envelope_from === null ? null : input.envelope_from.replaceAll('\u0000', '');
  return { input: { ...input, envelope_from }, parsed, views: derivedViews(parsed), recipients: [...new Map(input.recipients.map((r) => [r.id, r])).values()] };
}

/** The thread-key locks of every copy to be stored. */
function locksOf(prepared: Prepared[]): bigint[] {
  return prepared.flatMap((m) => m.recipients.flatMap((r) => threadKeyLocks(r.id, threadKeys(m.views))));
}

/** A copy to store: its inbox, its id, and its receipt when the sender's retries are recognised. */
type Copy = { inbox: InboxRow; id: string; receipt: Receipt | null };

/**
 * Stores every copy, each with its event. The receipts of the whole batch are recorded first, in
 * one statement; a copy whose receipt was there already is answered with the copy stored before.
 */
async function storeAll(tx: pg.PoolClient, queue: Queue, prepared: Prepared[]): Promise<StoredMessage[][]> {
  const copies: Copy[][] = prepared.map((m) => {
    const sha = m.input.recognise_retries ? crypto.createHash('sha256').update(m.input.raw).digest() : null;
    return m.recipients.map((inbox) => ({
      inbox,
      id: newMessageId(inbox.id),
      receipt: sha ? { inbox_id: inbox.id, message_key: m.views.own_key, raw_sha256: sha } : null,
    }));
  });
  const withReceipts = copies.flat().filter((c) => c.receipt !== null);
  const recorded = await recordReceipts(tx, withReceipts.map((c) => ({ ...c.receipt!, message_id: c.id })));
  const retried = new Set(withReceipts.filter((_, i) => !recorded[i]));
  const stored: StoredMessage[][] = [];
  for (const [i, m] of prepared.entries()) {
    const out: StoredMessage[] = [];
    for (const c of copies[i]!) {
      out.push(retried.has(c)
        ? { inbox: c.inbox, ...(await earlierCopy(tx, c.inbox.org_id, c.receipt!)), fresh: false }
        : await storeForInbox(tx, queue, c.inbox, c.id, m.input, m.parsed, m.views));
    }
    stored.push(out);
  }
  return stored;
}

type Views = {
  extracted_text: string | null;
  extracted_html: string | null;
  search_addresses: string;
  participants: string[];
  own_key: string;
  lookup_keys: string[];
  normalized_subject: string;
  reply_subject: boolean;
};

const threadKeys = (v: Views): string[] => (v.own_key ? [v.own_key, ...v.lookup_keys] : v.lookup_keys);

function derivedViews(p: ParsedMail): Views {
  const extracted_html = extractHtml(p.html);
  // An html-only message still gets a text view, derived from its extracted html.
  const extracted_text = p.text !== null ? extractText(p.text) : extracted_html !== null ? htmlToText(extracted_html) : null;
  const people: Address[] = [...(p.from ? [p.from] : []), ...p.to, ...p.cc, ...p.reply_to];
  const normalized_subject = normalizeSubject(p.subject);
  return {
    extracted_text,
    extracted_html,
    search_addresses: people.map((a) => `${a.name} ${a.email} ${a.email.replace('@', ' ')}`).join(' '),
    participants: [...new Set([...(p.from ? [p.from] : []), ...p.to, ...p.cc].map((a) => a.email.toLowerCase()))],
    own_key: p.message_id && usableThreadKey(normalizeMessageId(p.message_id)) ? normalizeMessageId(p.message_id) : '',
    lookup_keys: threadLookupKeys(p),
    normalized_subject,
    reply_subject: normalized_subject !== '' && normalized_subject !== p.subject.normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase(),
  };
}

async function storeForInbox(
  tx: pg.PoolClient,
  queue: Queue,
  inbox: InboxRow,
  id: string,
  input: IngestInput,
  p: ParsedMail,
  v: Views,
): Promise<StoredMessage> {
  const at = { org_id: inbox.org_id, project_id: inbox.project_id, inbox_id: inbox.id };
  const folder = input.folder ?? 'INBOX';
  const direction = input.direction ?? 'inbound';
  // What the sender's own copy says is not screened: only mail arriving at an inbox is.
  const screening = direction === 'outbound' ? null : screenMessage({
    from_email: p.from?.email ?? null,
    from_name: p.from?.name ?? null,
    subject: p.subject,
    text: p.text,
    html: p.html,
    dmarc: input.authentication?.dmarc.result ?? null,
    inbox_domain: inbox.domain,
  });
  const { seq, received_at, thread_id: threadId, event, subscribers } = await insertMessage(tx, {
    ...at,
    id,
    direction,
    folder,
    seen: false,
    from_name: p.from?.name ?? null,
    from_email: p.from?.email ?? null,
    to_addrs: p.to,
    cc_addrs: p.cc,
    reply_to: p.reply_to,
    raw_from: p.raw_from,
    raw_to: p.raw_to,
    subject: p.subject,
    date: p.date ? new Date(p.date) : null,
    date_header: p.date_header,
    message_id: p.message_id,
    in_reply_to: p.in_reply_to,
    references: p.references,
    text: p.text,
    html: p.html,
    extracted_text: v.extracted_text,
    extracted_html: v.extracted_html,
    search_addresses: v.search_addresses,
    size: input.raw.length,
    parse_error: p.parse_error,
    envelope_from: input.envelope_from,
    review_id: input.review_id ?? null,
    authentication: input.authentication ?? null,
    screening,
    // Marked on arrival, so an agent's answer to it can be held as a possible loop (loop-guard.ts).
    auto_submitted: direction === 'outbound' ? null : autoSubmitted(p.headers ?? {}, p.subject),
    attachments: p.attachments.map((a) => ({
      id: newAttachmentId(),
      part_index: a.part_index,
      filename: a.filename,
      content_type: a.content_type,
      size: a.size,
      content_id: a.content_id,
      inline: a.inline,
    })),
    raw: input.raw,
  }, {
    // The message's own id too: a reply stored before the message it answers already holds it.
    lookup: [...v.lookup_keys, ...(v.own_key ? [v.own_key] : [])],
    subject_match: v.reply_subject && p.from
      ? { normalized_subject: v.normalized_subject, sender: p.from.email.toLowerCase(), after: new Date(Date.now() - SUBJECT_FALLBACK_DAYS * 86_400_000) }
      : null,
    new_thread_id: newThreadId(),
    keys: threadKeys(v),
    subject: p.subject,
    normalized_subject: v.normalized_subject,
    participants: v.participants,
  },
  // A copy filed by the sender (outbound) is not news to anyone.
  direction === 'outbound' ? null : receivedEvent(inbox, id, folder, p, v, input.authentication ?? null, screening));
  if (event) await createDeliveries(tx, queue, event, subscribers);
  return { inbox, id, thread_id: threadId, folder, seq, received_at, fresh: true };
}

function receivedEvent(
  inbox: InboxRow,
  id: string,
  folder: Folder,
  p: ParsedMail,
  v: Views,
  authentication: Authentication | null,
  screening: Screening | null,
): MessageEventDraft {
  const text = p.text ?? v.extracted_text ?? '';
  const truncated = text.length > EVENT_TEXT_LIMIT;
  const type = 'message.received';
  // thread_id, and date without a Date header, are filled in by the insert (MessageEventDraft).
  const payload: Omit<MessageReceivedPayload, 'message'> & { message: Omit<MessageReceivedPayload['message'], 'thread_id' | 'date'> & { date?: string } } = {
    inbox: inbox.address,
    message: {
      id,
      inbox: inbox.address,
      from: p.raw_from,
      to: p.raw_to,
      subject: p.subject,
      text: truncated ? text.slice(0, EVENT_TEXT_LIMIT) : text,
      ...(truncated ? { text_truncated: true as const } : {}),
      ...(p.date_header ? { date: p.date_header } : {}),
      message_id: p.message_id ?? '',
      folder,
      seen: false,
      authentication,
      screening,
    },
  };
  return { type, agent_id: inbox.agent_id, to_webhooks: goesToWebhooks({ inbox_id: inbox.id, type }), payload };
}
