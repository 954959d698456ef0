import type { Executor } from './db.ts';
import { notifyEventOnCommit, subscribersOf, type EventKey } from './events.ts';
import { randomToken } from './ids.ts';
import type { SubscribedWebhook } from './webhooks.ts';

export type Address = { name: string; email: string };
export const FOLDERS = ['INBOX', 'SENT', 'DRAFTS', 'TRASH', 'SPAM'] as const;
export type Folder = (typeof FOLDERS)[number];

export type MessageRow = {
  org_id: string;
  project_id: string;
  inbox_id: string;
  id: string;
  seq: number;
  thread_id: string;
  direction: 'inbound' | 'outbound';
  folder: Folder;
  seen: boolean;
  from_name: string | null;
  from_email: string | null;
  to_addrs: Address[];
  cc_addrs: Address[];
  reply_to: Address[];
  raw_from: string;
  raw_to: string;
  subject: string;
  date: Date | null;
  date_header: string | null;
  message_id: string | null;
  in_reply_to: string | null;
  references: string[];
  text: string | null;
  html: string | null;
  extracted_text: string | null;
  extracted_html: string | null;
  size: number;
  attachment_count: number;
  parse_error: string | null;
  envelope_from: string | null;
  review_id: string | null;
  /** SPF, DKIM, DMARC and ARC verdicts (mail/inbound/authentication.ts); null when none were computed. */
  authentication: Record<string, unknown> | null;
  /** {risk, reasons} when screening flagged the message (machines/policy/screening.ts). */
  screening: { risk: string; reasons: string[] } | null;
  /** How inbound mail said it was sent automatically (mail/inbound/auto-submitted.ts); null when it did not. */
  auto_submitted: string | null;
  received_at: Date;
};

/** A listing row: the record without its bodies, with a short preview and the attachments' metadata. */
export type MessageSummaryRow = Omit<MessageRow, 'text' | 'html' | 'extracted_text' | 'extracted_html'> & {
  preview: string;
  attachments: AttachmentMeta[];
};

export type AttachmentMeta = {
  id: string;
  filename: string | null;
  content_type: string;
  size: number;
  content_id: string | null;
  inline: boolean;
};

// ---- Ids: a message id carries its inbox's id, so the message can be located from it alone.

const ID_RANDOM = 16;

export function newMessageId(inboxId: string): string {
  return `msg_${randomToken(ID_RANDOM)}${inboxId.replace(/^inb_/, '')}`;
}

/** The inbox a message id belongs to; null when the text is not a message id. */
export function inboxIdOfMessage(messageId: string): string | null {
  const m = /^msg_[0-9a-z]{16}([0-9a-z_-]{1,64})$/.exec(messageId);
  return m ? `inb_${m[1]}` : null;
}

export const newAttachmentId = (): string => `att_${randomToken(20)}`;

/** Where a message lives: the org and inbox lead every key of its rows. */
export type InboxKey = { org_id: string; inbox_id: string };

// ---- Writing

export type NewMessage = Omit<MessageRow, 'seq' | 'received_at' | 'attachment_count' | 'auto_submitted'> & {
  auto_submitted?: string | null;
  search_addresses: string;
  /** Their bytes stay in `raw`, read from it when downloaded (readAttachment). */
  attachments: Array<AttachmentMeta & { part_index: number }>;
  raw: Buffer;
};

/** Where the message goes among the inbox's threads. */
export type ThreadPlacement = {
  /** Message-IDs (normalized) whose thread the message joins, best first. */
  lookup: string[];
  /** Without a match there: the most recent thread with this subject that the sender took part in since `after`. */
  subject_match: { normalized_subject: string; sender: string; after: Date } | null;
  /** Otherwise this new thread. */
  new_thread_id: string;
  /** Message-IDs the thread answers to afterwards: the message's own and those it refers to. */
  keys: string[];
  /** Used when the thread is new. */
  subject: string;
  normalized_subject: string;
  participants: string[];
};

// A thread lists at most this many participant addresses; a mailing-list thread can have thousands.
const MAX_PARTICIPANTS = 100;

// One statement, prepared once per connection: the thread found (by Message-ID, else by subject,
// else new), the message, its search vector and word pairs, its raw source, its attachments' rows,
// its thread's keys, and the thread created or counted one more (the message becomes its last when
// it is the newest). The caller holds the thread-key locks (threadKeyLocks) from an earlier
// statement, so this statement's snapshot sees every thread a concurrent message sharing a key
// committed.
const INSERT_MESSAGE = `
  WITH place AS (
    SELECT coalesce(
      (SELECT k.thread_id FROM thread_keys k
        WHERE k.org_id = $1 AND k.inbox_id = $3 AND k.message_key = ANY($42::text[])
        ORDER BY array_position($42::text[], k.message_key) LIMIT 1),
      (SELECT t.id FROM threads t
        WHERE $43::text IS NOT NULL AND t.org_id = $1 AND t.inbox_id = $3
          AND md5(t.normalized_subject) = md5($43) AND t.normalized_subject = $43
          AND t.updated_at > $45::timestamptz AND $44::text = ANY(t.participants)
        ORDER BY t.updated_at DESC LIMIT 1),
      $5::text) AS thread_id),
  -- Bodies are cut at 100,000 characters, subjects and addresses at 10,000: to_tsvector refuses
  -- results over 1 MiB, and a header can be as long as the message.
  vec AS MATERIALIZED (
    SELECT message_search_vector(left($16::text, 10000), left($26::text, 10000), left(coalesce($22::text, $24::text, ''), 100000)) AS search),
  msg AS (
    INSERT INTO messages (org_id, project_id, inbox_id, id, thread_id, direction, folder, seen,
      from_name, from_email, to_addrs, cc_addrs, reply_to, raw_from, raw_to, subject, date, date_header,
      message_id, in_reply_to, "references", text, html, extracted_text, extracted_html, search_addresses,
      size, attachment_count, parse_error, envelope_from, review_id, authentication, screening, auto_submitted)
    SELECT $1::text, $2::text, $3::text, $4::text, place.thread_id, $6::text, $7::text, $8::bool,
      $9::text, $10::text, $11::jsonb, $12::jsonb, $13::jsonb, $14::text, $15::text, $16::text, $17::timestamptz, $18::text,
      $19::text, $20::text, $21::text[], $22::text, $23::text, $24::text, $25::text, $26::text,
      $27::int, cardinality($33::text[]), $28::text, $29::text, $30::text, $51::jsonb, $52::jsonb, $53::text
      FROM place
    RETURNING seq, received_at, thread_id),
  srch AS (
    INSERT INTO message_search (org_id, inbox_id, seq, message_id, search, pairs, from_text)
    SELECT $1, $3, msg.seq, $4, vec.search || search_recency_words(msg.seq),
      ARRAY(SELECT k FROM search_word_pair_keys(vec.search) k) || search_recency_marks(msg.seq),
      lower(coalesce($10::text, '') || ' ' || coalesce($9::text, '')) FROM msg, vec),
  src AS (
    INSERT INTO message_sources (org_id, project_id, inbox_id, message_id, raw) VALUES ($1, $2, $3, $4, $31)),
  att AS (
    INSERT INTO attachments (org_id, project_id, inbox_id, message_id, id, part_index, filename, content_type, size,
                             content_id, inline)
    SELECT $1, $2, $3, $4, a.id, a.part_index, a.filename, a.content_type, a.size, a.content_id, a.inline
      FROM unnest($33::text[], $34::int[], $35::text[], $36::text[], $37::int[], $38::text[], $39::bool[])
        AS a(id, part_index, filename, content_type, size, content_id, inline)),
  keys AS (
    INSERT INTO thread_keys (org_id, project_id, inbox_id, message_key, thread_id)
    SELECT DISTINCT $1, $2, $3, k, msg.thread_id FROM unnest($40::text[]) k, msg
    ON CONFLICT (org_id, inbox_id, message_key) DO NOTHING),
  thr AS (
    INSERT INTO threads AS t (org_id, project_id, inbox_id, id, subject, normalized_subject, participants,
                              message_count, last_message_id, last_seq, created_at, updated_at)
    SELECT $1, $2, $3, msg.thread_id, $41::text, $46::text,
           ARRAY(SELECT DISTINCT p FROM unnest($32::text[]) p LIMIT ${MAX_PARTICIPANTS}),
           1, $4, msg.seq, msg.received_at, msg.received_at
      FROM msg
    ON CONFLICT (org_id, inbox_id, id) DO UPDATE SET
      message_count = t.message_count + 1,
      last_message_id = CASE WHEN EXCLUDED.last_seq > t.last_seq THEN EXCLUDED.last_message_id ELSE t.last_message_id END,
      last_seq = greatest(t.last_seq, EXCLUDED.last_seq),
      updated_at = greatest(t.updated_at, EXCLUDED.updated_at),
      participants = CASE WHEN cardinality(t.participants) >= ${MAX_PARTICIPANTS} THEN t.participants
        ELSE ARRAY(SELECT DISTINCT p FROM unnest(t.participants || EXCLUDED.participants) p LIMIT ${MAX_PARTICIPANTS}) END),
  ev AS (
    INSERT INTO events (org_id, project_id, inbox_id, agent_id, type, payload)
    SELECT $1, $2, $3, $47::text, $48::text,
           jsonb_set(jsonb_set($49::jsonb, '{message,thread_id}', to_jsonb(msg.thread_id)), '{message,date}',
                     coalesce($49::jsonb #> '{message,date}', to_jsonb(to_char(msg.received_at AT TIME ZONE 'UTC', 'Dy, DD Mon YYYY HH24:MI:SS "GMT"'))))
      FROM msg WHERE $49::jsonb IS NOT NULL
    RETURNING id, org_id, project_id, inbox_id, type)
  SELECT msg.seq, msg.received_at, msg.thread_id, to_json(ev) AS event, ${subscribersOf('ev', '$50::bool')} AS subscribers
    FROM msg LEFT JOIN ev ON true`;

/**
 * The event announcing a stored message, appended by the same statement. Its payload's
 * `message.thread_id` is filled in once the thread is known, and `message.date`, when absent, with
 * the receive time as an HTTP date (as Date.prototype.toUTCString writes it).
 */
export type MessageEventDraft = {
  type: string;
  agent_id: string | null;
  payload: Record<string, unknown> & { message: Record<string, unknown> };
  to_webhooks: boolean;
};

/**
 * Writes the message with its raw source and its attachments' rows (their bytes stay in the
 * source), placed in its thread, and its event when given; returns its sequence, receive time and
 * thread, the event's key (its payload is not sent back), and the webhooks subscribed to it. The
 * event's NOTIFY goes out when the transaction commits.
 */
export async function insertMessage(
  tx: Executor,
  m: Omit<NewMessage, 'thread_id'>,
  place: ThreadPlacement,
  event: MessageEventDraft | null,
): Promise<{ seq: number; received_at: Date; thread_id: string; event: EventKey | null; subscribers: SubscribedWebhook[] }> {
  const a = m.attachments;
  type Row = { seq: number; received_at: Date; thread_id: string; event: EventKey | null; subscribers: SubscribedWebhook[] };
  const { rows } = await tx.query<Row>({
    name: 'mailbox-insert-message',
    text: INSERT_MESSAGE,
    values: [m.org_id, m.project_id, m.inbox_id, m.id, place.new_thread_id, m.direction, m.folder, m.seen,
      m.from_name, m.from_email, JSON.stringify(m.to_addrs), JSON.stringify(m.cc_addrs), JSON.stringify(m.reply_to),
      m.raw_from, m.raw_to, m.subject, m.date, m.date_header, m.message_id, m.in_reply_to, m.references,
      // An extracted body equal to its source is stored as NULL (read back through coalesce):
      // most mail has no quoted history, and each stored copy is compressed again.
      m.text, m.html, m.extracted_text === m.text ? null : m.extracted_text, m.extracted_html === m.html ? null : m.extracted_html,
      m.search_addresses, m.size,
      m.parse_error, m.envelope_from, m.review_id, m.raw, place.participants,
      a.map((x) => x.id), a.map((x) => x.part_index), a.map((x) => x.filename), a.map((x) => x.content_type),
      a.map((x) => x.size), a.map((x) => x.content_id), a.map((x) => x.inline),
      place.keys, place.subject, place.lookup,
      place.subject_match?.normalized_subject ?? null, place.subject_match?.sender ?? null, place.subject_match?.after ?? null,
      place.normalized_subject,
      event?.agent_id ?? null, event?.type ?? null, event ? JSON.stringify(event.payload) : null, event?.to_webhooks ?? false,
      m.authentication === null ? null : JSON.stringify(m.authentication), m.screening === null ? null : JSON.stringify(m.screening), m.auto_submitted ?? null],
  });
  const { seq, received_at, thread_id, event: stored, subscribers } = rows[0]!;
  if (stored) await notifyEventOnCommit(tx, stored);
  return { seq, received_at, thread_id, event: stored, subscribers };
}

// ---- Reading

const SUMMARY_COLUMNS = `m.org_id, m.project_id, m.inbox_id, m.id, m.seq, m.thread_id, m.direction, m.folder, m.seen,
  m.from_name, m.from_email, m.to_addrs, m.cc_addrs, m.reply_to, m.raw_from, m.raw_to, m.subject, m.date, m.date_header,
  m.message_id, m.in_reply_to, m."references", m.size, m.attachment_count, m.parse_error, m.envelope_from, m.review_id,
  m.authentication, m.screening, m.auto_submitted, m.received_at,
  message_preview(coalesce(m.extracted_text, m.text, '')) AS preview,
  CASE WHEN m.attachment_count = 0 THEN '[]'::json ELSE (
    SELECT json_agg(json_build_object('id', a.id, 'filename', a.filename, 'content_type', a.content_type, 'size', a.size,
             'content_id', a.content_id, 'inline', a.inline) ORDER BY a.part_index)
      FROM attachments a WHERE a.org_id = m.org_id AND a.inbox_id = m.inbox_id AND a.message_id = m.id) END AS attachments`;

const FULL_COLUMNS = `m.org_id, m.project_id, m.inbox_id, m.id, m.seq, m.thread_id, m.direction, m.folder, m.seen,
  m.from_name, m.from_email, m.to_addrs, m.cc_addrs, m.reply_to, m.raw_from, m.raw_to, m.subject, m.date, m.date_header,
  m.message_id, m.in_reply_to, m."references", m.text, m.html,
  coalesce(m.extracted_text, m.text) AS extracted_text, coalesce(m.extracted_html, m.html) AS extracted_html, m.size,
  m.attachment_count, m.parse_error, m.envelope_from, m.review_id, m.authentication, m.screening, m.auto_submitted, m.received_at`;

export async function findMessage(db: Executor, at: InboxKey, id: string): Promise<MessageRow | null> {
  const { rows } = await db.query<MessageRow>(
    `SELECT ${FULL_COLUMNS} FROM messages m WHERE m.org_id = $1 AND m.inbox_id = $2 AND m.id = $3`,
    [at.org_id, at.inbox_id, id],
  );
  return rows[0] ?? null;
}

/** Newest first, by insertion sequence; `before` is the last sequence of the previous page. */
export async function listMessages(
  db: Executor,
  at: InboxKey,
  q: { folder: Folder; limit: number; before: number | null },
): Promise<MessageSummaryRow[]> {
  const { rows } = await db.query<MessageSummaryRow>(
    `SELECT ${SUMMARY_COLUMNS} FROM messages m
      WHERE m.org_id = $1 AND m.inbox_id = $2 AND m.folder = $3 AND ($4::bigint IS NULL OR m.seq < $4)
      ORDER BY m.seq DESC LIMIT $5`,
    [at.org_id, at.inbox_id, q.folder, q.before, q.limit],
  );
  return rows;
}

export async function findMessageWithAttachments(
  db: Executor,
  at: InboxKey,
  id: string,
): Promise<{ message: MessageRow; attachments: AttachmentMeta[] } | null> {
  const message = await findMessage(db, at, id);
  if (!message) return null;
  return { message, attachments: message.attachment_count > 0 ? await listAttachments(db, at, id) : [] };
}

export async function findMessageSource(db: Executor, at: InboxKey, id: string): Promise<Buffer | null> {
  const { rows } = await db.query<{ raw: Buffer }>(
    'SELECT raw FROM message_sources WHERE org_id = $1 AND inbox_id = $2 AND message_id = $3',
    [at.org_id, at.inbox_id, id],
  );
  return rows[0]?.raw ?? null;
}

export async function listAttachments(db: Executor, at: InboxKey, messageId: string): Promise<AttachmentMeta[]> {
  const { rows } = await db.query<AttachmentMeta>(
    `SELECT id, filename, content_type, size, content_id, inline FROM attachments
      WHERE org_id = $1 AND inbox_id = $2 AND message_id = $3 ORDER BY part_index`,
    [at.org_id, at.inbox_id, messageId],
  );
  return rows;
}

/** Attachments of several messages, by message id. */
export async function listAttachmentsOf(db: Executor, at: InboxKey, messageIds: string[]): Promise<Map<string, AttachmentMeta[]>> {
  const { rows } = await db.query<AttachmentMeta & { message_id: string }>(
    `SELECT message_id, id, filename, content_type, size, content_id, inline FROM attachments
      WHERE org_id = $1 AND inbox_id = $2 AND message_id = ANY($3::text[]) ORDER BY message_id, part_index`,
    [at.org_id, at.inbox_id, messageIds],
  );
  const byMessage = new Map<string, AttachmentMeta[]>();
  for (const { message_id, ...a } of rows) {
    const list = byMessage.get(message_id);
    if (list) list.push(a);
    else byMessage.set(message_id, [a]);
  }
  return byMessage;
}

/**
 * An attachment with its bytes, or, for one whose bytes are to be decoded from its message's raw
 * source at `part_index`, with `content` null and that source, read in the same round trip.
 */
export type StoredAttachment = AttachmentMeta & { part_index: number; content: Buffer | null; raw: Buffer | null };

export async function findAttachment(db: Executor, at: InboxKey, messageId: string, id: string): Promise<StoredAttachment | null> {
  const { rows } = await db.query<StoredAttachment>(
    `SELECT a.id, a.filename, a.content_type, a.size, a.content_id, a.inline, a.part_index, a.content,
            CASE WHEN a.content IS NULL THEN (SELECT s.raw FROM message_sources s
              WHERE s.org_id = a.org_id AND s.inbox_id = a.inbox_id AND s.message_id = a.message_id) END AS raw
       FROM attachments a
      WHERE a.org_id = $1 AND a.inbox_id = $2 AND a.message_id = $3 AND a.id = $4`,
    [at.org_id, at.inbox_id, messageId, id],
  );
  return rows[0] ?? null;
}

/** Every message of a thread, oldest first. */
export async function listThreadMessages(db: Executor, at: InboxKey, threadId: string): Promise<MessageRow[]> {
  const { rows } = await db.query<MessageRow>(
    `SELECT ${FULL_COLUMNS} FROM messages m WHERE m.org_id = $1 AND m.inbox_id = $2 AND m.thread_id = $3 ORDER BY m.seq`,
    [at.org_id, at.inbox_id, threadId],
  );
  return rows;
}

// ---- Batch update

export type MessageUpdate = { id: string; seen?: boolean; folder?: Folder };

/**
 * Applies every update or none: when an id is not a message of the inbox nothing changes and
 * the missing ids are returned.
 */
export async function updateMessages(
  tx: Executor,
  at: InboxKey,
  updates: MessageUpdate[],
): Promise<{ missing: string[]; updated: MessageSummaryRow[] }> {
  const ids = updates.map((u) => u.id);
  const { rows: found } = await tx.query<{ id: string }>(
    'SELECT id FROM messages WHERE org_id = $1 AND inbox_id = $2 AND id = ANY($3::text[]) FOR UPDATE',
    [at.org_id, at.inbox_id, ids],
  );
  const present = new Set(found.map((r) => r.id));
  const missing = [...new Set(ids.filter((id) => !present.has(id)))];
  if (missing.length > 0) return { missing, updated: [] };
  // Later entries for the same id win, as if applied in order.
  await tx.query(
    `UPDATE messages m SET seen = coalesce(u.seen, m.seen), folder = coalesce(u.folder, m.folder)
       FROM (SELECT DISTINCT ON (id) id, seen, folder
               FROM unnest($3::text[], $4::bool[], $5::text[]) WITH ORDINALITY AS x(id, seen, folder, n)
              ORDER BY id, n DESC) u
      WHERE m.org_id = $1 AND m.inbox_id = $2 AND m.id = u.id`,
    [at.org_id, at.inbox_id, ids, updates.map((u) => u.seen ?? null), updates.map((u) => u.folder ?? null)],
  );
  const { rows } = await tx.query<MessageSummaryRow>(
    `SELECT ${SUMMARY_COLUMNS} FROM messages m
      WHERE m.org_id = $1 AND m.inbox_id = $2 AND m.id = ANY($3::text[])
      ORDER BY array_position($3::text[], m.id)`,
    [at.org_id, at.inbox_id, [...new Set(ids)]],
  );
  return { missing: [], updated: rows };
}

// ---- Search

export type SearchQuery = {
  q: string | null;
  from: string | null;
  to: string | null;
  subject: string | null;
  folder: Folder | null;
  after: Date | null;
  before: Date | null;
  has_attachment: boolean | null;
  /** Only messages whose From domain was (true) or was not (false) authenticated. */
  authenticated: boolean | null;
  limit: number;
  offset: number;
};

// Full-text ranking reads every candidate's vector; the candidates are the newest matches up to
// this many, so a word found in half of a 100,000-message inbox costs about what a rare one does.
// They are chosen by their row's address (ctid) alone, and only the chosen rows' vectors are read
// again, by that address: a vector is some 2 KB, and carrying thousands of them through the
// sorts and spans that choose the newest took more than half of a common word's search. The
// address is read and followed within one statement, so it names the row version its snapshot sees.
export const SEARCH_RANKED_WINDOW = 500;

const MESSAGE_FILTERS = `m.org_id = $1 AND m.inbox_id = $2
        AND ($5::text IS NULL OR EXISTS (
              SELECT 1 FROM jsonb_array_elements(m.to_addrs || m.cc_addrs) a
               WHERE position(lower($5) IN lower(coalesce(a->>'email', '') || ' ' || coalesce(a->>'name', ''))) > 0))
        AND ($6::text IS NULL OR position(lower($6) IN lower(m.subject)) > 0)
        AND ($7::text IS NULL OR m.folder = $7)
        AND ($8::timestamptz IS NULL OR m.received_at >= $8)
        AND ($9::timestamptz IS NULL OR m.received_at < $9)
        AND ($10::bool IS NULL OR (m.attachment_count > 0) = $10)
        AND ($18::bool IS NULL OR coalesce((m.authentication->>'authenticated')::bool, false) = $18)`;

// Conditions on message_search s: the sender, whole addresses, then the index narrowing of
// phraseParts. The sender is checked here, on the row the words are, not on messages: a `from`
// that most messages pass then costs no read of each candidate's messages row.
const TEXT_FILTERS = `s.org_id = $1 AND s.inbox_id = $2
        AND ($4::text IS NULL OR position(lower($4) IN s.from_text) > 0)
        AND ($13::text IS NULL OR s.search @@ plainto_tsquery('english', $13))
        AND ($14::text IS NULL OR s.search @@ plainto_tsquery('english', $14))
        AND ($15::text IS NULL OR CASE WHEN $16::int4[] IS NULL
              THEN s.search @@ websearch_to_tsquery('english', $15) ELSE s.pairs @> $16 END)`;

const FROM_SEARCH = `message_search s JOIN messages m ON m.org_id = s.org_id AND m.inbox_id = s.inbox_id AND m.id = s.message_id`;
// With no filter on the messages row, the candidates are not joined to it at all: each join is an
// index lookup, and a common word has thousands of candidates. The parameters are still named.
const NO_MESSAGE_FILTERS = `$5::text IS NULL AND $6::text IS NULL AND $7::text IS NULL AND $8::timestamptz IS NULL
        AND $9::timestamptz IS NULL AND $10::bool IS NULL AND $18::bool IS NULL`;

// A filter that is a whole address is also looked up in the full-text index (addresses are in
// it), so "from this sender" does not read every message of a large inbox. Only a whole address:
// a part of one is not a word of the index.
const wholeAddress = (value: string | null): string | null => (value !== null && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? value : null);

// A query with quoted phrases is first narrowed by what an index answers exactly: the pairs of
// adjacent words in its phrases, or when its phrases have none (a single word, or words parted by
// a stop word), its words without the quotes. Checking word positions costs far more, and is then
// done only for messages that pass. Not both: the planner would take the words' rarity and the
// pairs' as independent, expect too few matches to read the newest first, and check thousands.
// When every phrase is two words (phrase_pairs_exact), its pairs are the phrase: the newest
// messages with them and the other words (`rest`) are taken, and the phrase itself is checked
// after, against those only, for a hash collision. Only for a plain conjunction: with a negation
// or an "or", a phrase need not be in every match.
function phraseParts(q: string | null): { words: string; phrases: string[]; rest: string | null } | null {
  if (q === null || !q.includes('"') || q.includes('-') || /(^|[\s"])or([\s"]|$)/i.test(q)) return null;
  if (q.match(/"/g)!.length % 2 !== 0) return null;
  const rest = q.replace(/"[^"]*"/g, ' ').trim();
  return { words: q.replaceAll('"', ' '), phrases: [...q.matchAll(/"([^"]*)"/g)].map((m) => m[1]!), rest: rest === '' ? null : rest };
}

/**
 * The word pairs of a query's phrases (NULL when they have none) and whether they are the
 * phrases, read in a statement of their own: named in the search statement, each call would be
 * run again as the statement is planned, several times a span (about 2 ms a search).
 */
async function phrasePairs(db: Executor, phrases: string[]): Promise<{ pairs: number[] | null; exact: boolean }> {
  const { rows } = await db.query<{ pairs: number[] | null; exact: boolean }>({
    name: 'messages-phrase-pairs',
    text: 'SELECT phrase_word_pairs($1::text[]) AS pairs, phrase_pairs_exact($1::text[]) AS exact',
    values: [phrases],
  });
  return rows[0]!;
}

/**
 * Full text (PostgreSQL websearch syntax) over subject, addresses and body with filters: the
 * newest SEARCH_RANKED_WINDOW matches, ranked; without `q`, the filtered messages newest first.
 * The page's rows are read in full only after the page is chosen. Without `q`, a whole address
 * (`from` or `to`) is looked up in the words index as a word is, so its newest messages are
 * found span by span as a word's are: a sender of a thousand messages in a large inbox then
 * costs the page's messages, not a read of each of the thousand.
 */
export async function searchMessages(db: Executor, at: InboxKey, s: SearchQuery): Promise<Array<MessageSummaryRow & { rank: number }>> {
  const phrase = phraseParts(s.q);
  const pairs = phrase ? await phrasePairs(db, phrase.phrases) : null;
  const byAddress = s.q === null && (wholeAddress(s.from) !== null || wholeAddress(s.to) !== null);
  const bounds = s.q !== null || byAddress ? await keptRecencyBounds(db, at) : [];
  const values = [at.org_id, at.inbox_id, s.q, s.from, s.to, s.subject, s.folder, s.after, s.before, s.has_attachment, s.limit, s.offset,
    wholeAddress(s.from), wholeAddress(s.to), phrase?.words ?? null, pairs?.pairs ?? null, phrase?.rest ?? null, s.authenticated,
    pairs?.exact ?? false, bounds];
  const onMessage = [s.to, s.subject, s.folder, s.after, s.before, s.has_attachment, s.authenticated].some((v) => v !== null);
  const [from, messageFilters] = onMessage ? [FROM_SEARCH, MESSAGE_FILTERS] : ['message_search s', NO_MESSAGE_FILTERS];
  // PostgreSQL cannot type a parameter it never sees: the bounds ($20) are sent only when named.
  const hits = s.q !== null
    ? `SELECT c.id, c.seq, ts_rank(v.search, websearch_to_tsquery('english', $3)) AS rank
         FROM (${newestMatches(`SELECT s.message_id AS id, s.seq, s.ctid AS tid FROM ${from}
                WHERE ${TEXT_FILTERS} AND ${messageFilters}
                  AND CASE WHEN $19::bool
                      THEN $17::text IS NULL OR s.search @@ websearch_to_tsquery('english', $17)
                      ELSE s.search @@ websearch_to_tsquery('english', $3) END`, bounds.length, { window: String(SEARCH_RANKED_WINDOW) })}) c
        JOIN message_search v ON v.ctid = c.tid AND v.org_id = $1 AND v.inbox_id = $2
        WHERE v.search @@ websearch_to_tsquery('english', $3)
        ORDER BY rank DESC, c.seq DESC LIMIT $11 OFFSET $12`
    // Without q, the newest messages that pass the filters; $17 and $19 (no phrase) always pass,
    // named so every form sends the same parameters.
    : `SELECT c.id, c.seq, 0::real AS rank
         FROM (${newestMatches(`SELECT s.message_id AS id, s.seq, s.ctid AS tid FROM ${from}
                WHERE $3::text IS NULL AND ${TEXT_FILTERS} AND ${messageFilters} AND $17::text IS NULL AND NOT $19::bool`,
              bounds.length, { window: '($11::bigint + $12::bigint)', newestUncovered: true })}) c
        ORDER BY c.seq DESC LIMIT $11 OFFSET $12`;
  const { rows } = await db.query<MessageSummaryRow & { rank: number }>(
    `WITH hits AS (${hits})
     SELECT ${SUMMARY_COLUMNS}, hits.rank FROM hits
       JOIN messages m ON m.org_id = $1 AND m.inbox_id = $2 AND m.id = hits.id
      ORDER BY hits.rank DESC, hits.seq DESC`,
    bounds.length > 0 ? values : values.slice(0, -1),
  );
  return rows;
}

// The spans of an inbox's newest messages a search looks in, one after the other, while it has
// found fewer than SEARCH_RANKED_WINDOW matches: about the newest 2,000 messages, 8,000, and so on,
// then the rest. The newest matches of a word in one message of a hundred are then read from a
// span of some 50,000 messages (a few hundred matches), not from all of its matches in the inbox.
export const SEARCH_RECENCY_SPANS = [2_000, 8_000, 32_000, 128_000, 512_000];

// An inbox's bounds are kept for a few seconds, so a search soon after another spares the
// statement reading them: bounds read earlier only leave a longer newest span (see below). Only
// a migration may move search_recency_since, below which the spans must not reach; it forgets them.
const RECENCY_BOUNDS_KEPT_MS = 10_000;
const RECENCY_BOUNDS_INBOXES = 1_000;
const keptBounds = new Map<string, { bounds: string[]; until: number }>();

async function keptRecencyBounds(db: Executor, at: InboxKey): Promise<string[]> {
  const key = `${at.org_id} ${at.inbox_id}`;
  const kept = keptBounds.get(key);
  if (kept && kept.until > Date.now()) return kept.bounds;
  const bounds = await recencyBounds(db, at);
  // The map keeps insertion order: the inbox read longest ago goes first.
  keptBounds.delete(key);
  if (keptBounds.size >= RECENCY_BOUNDS_INBOXES) keptBounds.delete(keptBounds.keys().next().value!);
  keptBounds.set(key, { bounds, until: Date.now() + RECENCY_BOUNDS_KEPT_MS });
  return bounds;
}

/** Forgets every inbox's kept recency bounds (storage/migrate.ts, after a migration). */
export function forgetRecencyBounds(): void {
  keptBounds.clear();
}

/**
 * The seqs bounding the inbox's recency spans, newest first: span i holds the messages after
 * bound i and up to bound i - 1 (the first, every message after bound 0; the last, every message
 * up to the last bound). None for an inbox of fewer than SEARCH_RECENCY_SPANS[0] messages. The
 * spans are told apart by seq, which all inboxes share, so their sizes are estimated from how
 * far back the inbox's 2,000th newest message is; a wrong estimate costs time, never a match.
 * So do bounds read a while ago: messages stored since then fall in the first span, which reaches
 * the newest message the search sees, and the last span reaches back to the oldest.
 * Only spans of messages stored with recency words (after search_recency_since) are bounded.
 */
async function recencyBounds(db: Executor, at: InboxKey): Promise<string[]> {
  const [first] = SEARCH_RECENCY_SPANS as [number];
  const { rows } = await db.query<{ newest: string | null; nth: string | null; oldest: string | null; since: string }>({
    name: 'messages-search-recency',
    text: `SELECT (SELECT seq FROM message_search WHERE org_id = $1 AND inbox_id = $2 ORDER BY seq DESC LIMIT 1) AS newest,
                  (SELECT seq FROM message_search WHERE org_id = $1 AND inbox_id = $2 ORDER BY seq DESC OFFSET $3 LIMIT 1) AS nth,
                  (SELECT seq FROM message_search WHERE org_id = $1 AND inbox_id = $2 ORDER BY seq LIMIT 1) AS oldest,
                  (SELECT seq FROM search_recency_since) AS since`,
    values: [at.org_id, at.inbox_id, first - 1],
  });
  const { newest, nth, oldest, since } = rows[0]!;
  if (newest === null || nth === null || oldest === null) return [];
  const [top, gap] = [BigInt(newest), BigInt(newest) - BigInt(nth)];
  // A span reaching below either is read whole, as the last.
  const floor = BigInt(oldest) > BigInt(since) ? BigInt(oldest) : BigInt(since);
  const bounds: bigint[] = [];
  for (const span of SEARCH_RECENCY_SPANS) {
    const bound = top - (gap * BigInt(span)) / BigInt(first);
    if (bound < floor || (bounds.length > 0 && bound >= bounds.at(-1)!)) break;
    bounds.push(bound);
  }
  return bounds.map(String);
}

// A span's cover in the index its search is narrowed by (TEXT_FILTERS): a phrase with word pairs
// by the pairs index, anything else by the words index.
const recencyCover = (above: string, upto: string) =>
  `CASE WHEN $16::int4[] IS NULL THEN s.search @@ search_recency_cover(${above}, ${upto})
        ELSE s.pairs && search_recency_pair_cover(${above}, ${upto}) END`;

/**
 * The newest `window` rows (an SQL expression) of `matches` (a SELECT of message_search s with its
 * conditions), span by span with `bounds` ($20, recencyBounds) as far back as needed: a span is
 * read only while the newer ones hold fewer than the window. Each but the oldest is found through
 * the index with its recency words or marks (recencyCover), so only its own matches are read.
 * Past the newest, a span's matches are read whole: it holds a few thousand messages more than
 * the ones before it, and one with an ORDER BY and a LIMIT of its own may be planned as a walk
 * back from the inbox's newest message. Their seq bounds are only checked on the rows (`+ 0`):
 * the cover already narrows the index scan, and a second bitmap of the inbox's key over the span
 * costs more than it saves. The newest span is narrowed by its cover too unless `newestUncovered`:
 * an address search leaves it out. The planner takes a cover and the span's seqs as independent,
 * expects a handful of rows from both, and reads every match of an address most messages carry
 * where a walk back from the newest message reads a page; a word needs the cover there, or the
 * index reads each of its matches in the whole inbox.
 */
function newestMatches(matches: string, bounds: number, { window, newestUncovered = false }: { window: string; newestUncovered?: boolean }): string {
  const newest = (sql: string, seq: string) => `${sql} ORDER BY ${seq} DESC LIMIT ${window}`;
  if (bounds === 0) return newest(matches, 's.seq');
  const bound = (i: number) => `($20::bigint[])[${i + 1}]`;
  // The newest span ends at the inbox's newest message as this statement sees it.
  const newestSeq = '(SELECT max(seq) FROM message_search WHERE org_id = $1 AND inbox_id = $2)';
  const spans = Array.from({ length: bounds + 1 }, (_, i) => {
    // The newest span may also be walked back from the newest message (a word in most messages
    // finds the window in a few hundred): it is too short for any plan of it to go far.
    const cover0 = newestUncovered ? '' : ` AND ${recencyCover(bound(0), newestSeq)}`;
    if (i === 0) return `span0 AS MATERIALIZED (${newest(`${matches} AND s.seq > ${bound(0)}${cover0}`, 's.seq')})`;
    const after = i < bounds ? ` AND s.seq + 0 > ${bound(i)}` : '';
    const cover = i < bounds ? ` AND ${recencyCover(bound(i), bound(i - 1))}` : '';
    return `span${i} AS MATERIALIZED (${matches}${after} AND s.seq + 0 <= ${bound(i - 1)}${cover})`;
  });
  // A span's statement runs only when read, and it is read only once the newer spans, counted in
  // order (a CASE stops at the first enough: a sum would run every span it names), hold too few.
  const found = (i: number) => Array.from({ length: i }, (_, j) => `(SELECT count(*) FROM span${j})`).join(' + ');
  const fewer = (i: number) =>
    `CASE ${Array.from({ length: i }, (_, k) => `WHEN ${found(k + 1)} >= ${window} THEN false`).join(' ')} ELSE true END`;
  const all = spans.map((_, i) => `SELECT * FROM span${i}${i > 0 ? ` WHERE ${fewer(i)}` : ''}`).join(' UNION ALL ');
  return `WITH ${spans.join(',\n')} ${newest(`SELECT id, seq, tid FROM (${all}) u`, 'u.seq')}`;
}

/** The newest message of a thread that screening flagged, if any. */
export async function flaggedInThread(db: Executor, at: InboxKey, threadId: string): Promise<{ id: string; screening: NonNullable<MessageRow['screening']> } | null> {
  const { rows } = await db.query(
    `SELECT id, screening FROM messages WHERE org_id = $1 AND inbox_id = $2 AND thread_id = $3 AND screening IS NOT NULL ORDER BY seq DESC LIMIT 1`,
    [at.org_id, at.inbox_id, threadId],
  );
  return rows[0] ?? null;
}

// ---- Waiting for a message

export type ArrivalFilter = { since: Date; from: string | null; subject_contains: string | null; exclude: string[]; authenticated?: boolean | null };

/** Inbound messages received after `since` that match, earliest first. */
export async function findArrivals(db: Executor, at: InboxKey, f: ArrivalFilter, limit: number): Promise<MessageRow[]> {
  const { rows } = await db.query<MessageRow>(
    `SELECT ${FULL_COLUMNS} FROM messages m
      WHERE m.org_id = $1 AND m.inbox_id = $2 AND m.received_at > $3 AND m.direction = 'inbound'
        AND ($4::text IS NULL OR position(lower($4) IN lower(coalesce(m.from_email, '') || ' ' || coalesce(m.from_name, ''))) > 0)
        AND ($5::text IS NULL OR position(lower($5) IN lower(m.subject)) > 0)
        AND NOT (m.id = ANY($6::text[]))
        AND ($8::bool IS NULL OR coalesce((m.authentication->>'authenticated')::bool, false) = $8)
      ORDER BY m.received_at, m.seq LIMIT $7`,
    [at.org_id, at.inbox_id, f.since, f.from, f.subject_contains, f.exclude, limit, f.authenticated ?? null],
  );
  return rows;
}

/** The database clock: the one every process shares, used as a wait's default `since`. */
export async function databaseNow(db: Executor): Promise<Date> {
  const { rows } = await db.query<{ now: Date }>("SELECT date_trunc('milliseconds', clock_timestamp()) AS now");
  return rows[0]!.now;
}

/** How many messages the inbox sent into a thread since `since` (the loop guard's count). */
export async function sentIntoThreadSince(db: Executor, at: InboxKey, threadId: string, since: Date): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM messages
      WHERE org_id = $1 AND inbox_id = $2 AND thread_id = $3 AND direction = 'outbound' AND received_at > $4`,
    [at.org_id, at.inbox_id, threadId, since],
  );
  return rows[0]!.n;
}

/** Whether the inbox sent a message with one of these Message-IDs in the thread. */
export async function sentOneOf(db: Executor, at: InboxKey, threadId: string, messageIds: string[]): Promise<boolean> {
  if (messageIds.length === 0) return false;
  const { rows } = await db.query(
    `SELECT 1 FROM messages WHERE org_id = $1 AND inbox_id = $2 AND thread_id = $3 AND direction = 'outbound' AND message_id = ANY($4::text[]) LIMIT 1`,
    [at.org_id, at.inbox_id, threadId, messageIds],
  );
  return rows.length > 0;
}
