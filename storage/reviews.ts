// Reviews: the machine row (machine_instances, kind 'review') joined with what was fixed at
// submission (reviews), their attachments and their feedback records.
import { lockKey, type Executor, type PreparedStatement } from './db.ts';
import { inboxFromJson, inboxInScopeQuery, type InboxRow, type InboxScope, type InboxWithPolicy } from './inboxes.ts';
import { sendAllowancesSql, type SendAllowances } from './usage.ts';
import { coveringLinkSql, type RouteLink } from './review-links.ts';
import { senderHealthVerdictSql } from './delivery-reports.ts';
import { categoryVisibleSql } from './categories.ts';
import { SENDER_HEALTH_WINDOW, type SenderHealthCounts } from '../machines/policy/sender-health.ts';

export type ReviewKind = 'send' | 'reply' | 'forward';

export type NewReview = {
  org_id: string;
  project_id: string;
  id: string;
  inbox_id: string;
  agent_id: string;
  kind: ReviewKind;
  parent_message_id: string | null;
  references: string[];
  recipient_count: number;
  deadline_at: Date | null;
};

/** The machine row and the submission row of one review. */
export type ReviewRow = {
  org_id: string;
  project_id: string;
  id: string;
  inbox_id: string;
  agent_id: string;
  state: string;
  version: number;
  machine_version: number;
  snapshot: { context: Record<string, any>; value: unknown; status: string };
  created_at: Date;
  updated_at: Date;
  kind: ReviewKind;
  parent_message_id: string | null;
  references: string[];
  recipient_count: number;
  deadline_at: Date | null;
  /** created_at in microseconds: the paging position (a millisecond date would lose order). */
  created_us?: number;
};

const REVIEW_COLUMNS = `m.org_id, m.project_id, m.id, r.inbox_id, r.agent_id, m.state, m.version, m.machine_version, m.snapshot,
  m.created_at, m.updated_at, r.kind, r.parent_message_id, r."references", r.recipient_count, r.deadline_at,
  (extract(epoch FROM m.created_at) * 1000000)::bigint AS created_us`;
const REVIEW_FROM = `machine_instances m JOIN reviews r ON r.org_id = m.org_id AND r.id = m.id`;

/** Who may see a review: the org, and optionally one project, one composing agent, one inbox. */
export type ReviewScope = { org_id: string; project_id: string | null; agent_id: string | null; inbox_id: string | null };

export async function findReview(db: Executor, scope: ReviewScope, id: string): Promise<ReviewRow | null> {
  const { rows } = await db.query<ReviewRow>({
    name: 'reviews-find',
    text: `SELECT ${REVIEW_COLUMNS} FROM ${REVIEW_FROM}
      WHERE m.org_id = $1 AND m.kind = 'review' AND m.id = $2
        AND ($3::text IS NULL OR m.project_id = $3) AND ($4::text IS NULL OR r.agent_id = $4) AND ($5::text IS NULL OR r.inbox_id = $5)`,
    values: [scope.org_id, id, scope.project_id, scope.agent_id, scope.inbox_id],
  });
  return rows[0] ?? null;
}

/**
 * A review of any project of the org, with its sending inbox (null once the inbox is gone): what a
 * delivery reads once it holds the review's delivery lock.
 */
export async function findReviewWithInbox(db: Executor, orgId: string, id: string): Promise<ReviewWithInbox | null> {
  return reviewWithInboxOf(await db.query(reviewWithInboxStatement(orgId, id)));
}

export type ReviewWithInbox = { review: ReviewRow; inbox: InboxRow | null };

/** findReviewWithInbox's statement, to go with another (queryAfter); reviewWithInboxOf reads its result. */
export function reviewWithInboxStatement(orgId: string, id: string): PreparedStatement {
  return {
    name: 'reviews-find-with-inbox',
    text: `SELECT ${REVIEW_COLUMNS}, to_jsonb(i) AS sending_inbox FROM ${REVIEW_FROM}
       LEFT JOIN inboxes i ON i.org_id = m.org_id AND i.project_id = m.project_id AND i.id = r.inbox_id
      WHERE m.org_id = $1 AND m.kind = 'review' AND m.id = $2`,
    values: [orgId, id],
  };
}

export function reviewWithInboxOf(result: { rows: unknown[] }): ReviewWithInbox | null {
  const row = result.rows[0] as (ReviewRow & { sending_inbox: Parameters<typeof inboxFromJson>[0] | null }) | undefined;
  if (!row) return null;
  const { sending_inbox, ...review } = row;
  return { review, inbox: sending_inbox ? inboxFromJson(sending_inbox) : null };
}

export type ReviewCursor = { created_us: number; id: string };

/** A page of reviews in creation order (`asc`: oldest first, the human queue) or newest first. */
export async function listReviews(
  db: Executor,
  scope: ReviewScope,
  q: { states: string[] | null; limit: number; after: ReviewCursor | null; order: 'asc' | 'desc'; parked?: boolean },
): Promise<ReviewRow[]> {
  const cmp = q.order === 'asc' ? '>' : '<';
  const { rows } = await db.query<ReviewRow>(
    `SELECT ${REVIEW_COLUMNS} FROM ${REVIEW_FROM}
      WHERE m.org_id = $1 AND m.kind = 'review'
        AND ($2::text IS NULL OR m.project_id = $2) AND ($3::text IS NULL OR r.agent_id = $3) AND ($4::text IS NULL OR r.inbox_id = $4)
        AND ($5::text[] IS NULL OR m.state = ANY($5::text[]))
        AND ($6::bigint IS NULL OR (m.created_at, m.id) ${cmp} (timestamptz 'epoch' + $6 * interval '1 microsecond', $7))
        AND (NOT $9::boolean OR coalesce((m.snapshot->'context'->>'reconciliation_needed')::boolean, false))
      ORDER BY m.created_at ${q.order}, m.id ${q.order} LIMIT $8`,
    [scope.org_id, scope.project_id, scope.agent_id, scope.inbox_id, q.states, q.after?.created_us ?? null, q.after?.id ?? null, q.limit, q.parked ?? false],
  );
  return rows;
}

// ---- What a send is checked against, read in one round trip

export type SendCheckData = {
  contacts: Array<{ kind: 'allow' | 'block'; pattern: string; direction: 'send' | 'receive' }>;
  suppressed: string[];
  /** Recipients of the inbox's reviews of the last 24 hours that were not cancelled. */
  used_24h: number;
  /** The inbox's sender health counts as far as a verdict needs them (senderHealthVerdictSql), when read ahead with the inbox (else the send transaction reads them). */
  sender_health?: SenderHealthCounts;
};

/** The select list of SendCheckData for an inbox given as SQL expressions, recipients as a text[] parameter. */
function sendChecksSql(org: string, project: string, inbox: string, recipients: string): string {
  return `(SELECT coalesce(json_agg(json_build_object('kind', c.kind, 'pattern', c.pattern, 'direction', c.direction)), '[]'::json)
              FROM contacts c WHERE c.org_id = ${org} AND c.inbox_id = ${inbox}) AS contacts,
           (SELECT coalesce(array_agg(s.email), '{}') FROM suppressions s
              WHERE s.org_id = ${org} AND s.project_id = ${project} AND s.email = ANY(${recipients}::text[])) AS suppressed,
           (SELECT coalesce(sum(u.recipients), 0)::int FROM recipient_usage u
              WHERE u.org_id = ${org} AND u.inbox_id = ${inbox} AND u.minute > now() - interval '24 hours') AS used_24h`;
}

export async function sendCheckData(
  db: Executor,
  at: { org_id: string; project_id: string; inbox_id: string },
  recipients: string[],
): Promise<SendCheckData> {
  const { rows } = await db.query<SendCheckData>({
    name: 'reviews-send-check-data',
    text: `SELECT ${sendChecksSql('$1', '$2', '$3', '$4')}`,
    values: [at.org_id, at.project_id, at.inbox_id, recipients.map((r) => r.toLowerCase())],
  });
  return rows[0]!;
}

/**
 * The inbox by id or address inside the scope, with what a send to `recipients` by `agentId` is
 * checked against (its contacts, suppressions, recipient count, plan and key allowances), the
 * review link covering it and whether `categoryId` is a category the agent may use there: one
 * round trip.
 */
export async function findInboxWithSendChecks(
  db: Executor,
  scope: InboxScope,
  idOrAddress: string,
  recipients: string[],
  agentId: string,
  categoryId: string | null,
): Promise<{ inbox: InboxWithPolicy; checks: SendCheckData; allowances: SendAllowances; covering_link: RouteLink | null; category_visible: boolean } | null> {
  const q = inboxInScopeQuery(scope, idOrAddress);
  type Row = InboxWithPolicy & Required<SendCheckData> & { allowances: SendAllowances; covering_link: RouteLink | null; category_visible: boolean };
  const { rows } = await db.query<Row>({
    name: `reviews-inbox-with-send-checks-${q.name}`,
    text: `WITH i AS (${q.text}) SELECT i.*, ${sendChecksSql('i.org_id', 'i.project_id', 'i.id', '$6')},
                                      ${sendAllowancesSql('i.org_id', '$7')} AS allowances,
                                      ${coveringLinkSql('i.org_id', 'i.project_id', 'i.id')} AS covering_link,
                                      ${senderHealthVerdictSql('i.org_id', 'i.id', String(SENDER_HEALTH_WINDOW))} AS sender_health,
                                      ${categoryVisibleSql('i.org_id', 'i.project_id', '$7', '$8')} AS category_visible FROM i`,
    values: [...q.values, recipients.map((r) => r.toLowerCase()), agentId, categoryId],
  });
  const row = rows[0];
  if (!row) return null;
  const { contacts, suppressed, used_24h, sender_health, allowances, covering_link, category_visible, ...inbox } = row;
  return { inbox, checks: { contacts, suppressed, used_24h, sender_health }, allowances, covering_link, category_visible };
}

/**
 * The advisory lock a submission holds: sends from one inbox pass the recipient limit one at a
 * time. Taken with BEGIN, so the count that follows reads what the previous holder committed.
 */
export const inboxSendLock = (inboxId: string): bigint => lockKey(`send ${inboxId}`);

/**
 * Inserts the review and counts its recipients in its inbox's current minute, only if they fit in
 * what the last 24 hours left of `limit` and the inbox still exists (read under the inbox's send
 * lock, which a deletion takes too: a send racing a deletion is refused, never left behind it).
 * now() is the transaction's start, the same instant as the review's created_at, against which a
 * cancellation gives the recipients back.
 */
export async function insertReviewWithinLimit(
  tx: Executor,
  r: NewReview,
  limit: number,
): Promise<{ inserted: boolean; used_24h: number; inbox_live: boolean; rules_version: number; at: Date }> {
  // The project's rules high-water comes back with it: the new review is stamped with it. So does
  // now(), the transaction's time, which every row it writes takes as its creation time.
  const { rows } = await tx.query<{ inserted: boolean; used_24h: number; inbox_live: boolean; rules_version: number; at: Date }>({
    name: 'reviews-insert-within-limit',
    text: `WITH used AS (SELECT coalesce(sum(u.recipients), 0)::int AS n FROM recipient_usage u
                        WHERE u.org_id = $1 AND u.inbox_id = $4 AND u.minute > now() - interval '24 hours'),
           live AS (SELECT 1 FROM inboxes WHERE org_id = $1 AND id = $4),
           ins AS (
             INSERT INTO reviews (org_id, project_id, id, inbox_id, agent_id, kind, parent_message_id, "references", recipient_count, deadline_at)
             SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 FROM used WHERE used.n + $9 <= $11 AND EXISTS (SELECT 1 FROM live)
             RETURNING id),
           counted AS (
             INSERT INTO recipient_usage (org_id, inbox_id, minute, recipients)
             SELECT $1, $4, date_trunc('minute', now()), $9 FROM ins
             ON CONFLICT (org_id, inbox_id, minute) DO UPDATE SET recipients = recipient_usage.recipients + EXCLUDED.recipients)
           SELECT EXISTS (SELECT 1 FROM ins) AS inserted, (SELECT n FROM used) AS used_24h, EXISTS (SELECT 1 FROM live) AS inbox_live,
                  coalesce((SELECT version FROM rules_high_water WHERE org_id = $1 AND project_id = $2), 0)::int AS rules_version, now() AS at`,
    values: [r.org_id, r.project_id, r.id, r.inbox_id, r.agent_id, r.kind, r.parent_message_id, r.references, r.recipient_count, r.deadline_at, limit],
  });
  return rows[0]!;
}

/**
 * A revision naming `recipients` in all: those beyond what the review has had counted (at its
 * submission and by earlier revisions) are counted in the inbox's current minute, only if they fit
 * in what the last 24 hours left of the inbox's limit. The caller holds the inbox's send lock.
 * Fewer recipients give nothing back: the ones dropped may already have been mailed to by an
 * earlier try, and the limit errs on the side of sending less.
 */
export async function countRevisionRecipients(
  tx: Executor,
  r: { org_id: string; review_id: string; inbox_id: string; recipients: number },
): Promise<{ fits: boolean; used_24h: number; added: number; limit: number }> {
  const { rows } = await tx.query<{ fits: boolean; used_24h: number; added: number; limit: number }>(
    `WITH used AS (SELECT coalesce(sum(u.recipients), 0)::int AS n FROM recipient_usage u
                    WHERE u.org_id = $1 AND u.inbox_id = $3 AND u.minute > now() - interval '24 hours'),
          lim AS (SELECT recipient_limit_24h AS n FROM inboxes WHERE org_id = $1 AND id = $3),
          added AS (SELECT greatest(0, $4 - recipient_count - added_recipients)::int AS n FROM reviews WHERE org_id = $1 AND id = $2),
          grown AS (
            UPDATE reviews r SET added_recipients = r.added_recipients + added.n FROM added, used, lim
             WHERE r.org_id = $1 AND r.id = $2 AND added.n > 0 AND used.n + added.n <= lim.n
            RETURNING added.n),
          counted AS (
            INSERT INTO recipient_usage (org_id, inbox_id, minute, recipients)
            SELECT $1, $3, date_trunc('minute', now()), n FROM grown
            ON CONFLICT (org_id, inbox_id, minute) DO UPDATE SET recipients = recipient_usage.recipients + EXCLUDED.recipients)
     SELECT (added.n = 0 OR EXISTS (SELECT 1 FROM grown)) AS fits, used.n AS used_24h, added.n AS added, lim.n AS limit
       FROM used, lim, added`,
    [r.org_id, r.review_id, r.inbox_id, r.recipients],
  );
  return rows[0] ?? { fits: true, used_24h: 0, added: 0, limit: 0 };
}

/**
 * Gives back the recipients counted at a cancelled review's submission (they were never sent to);
 * those its revisions added stay counted until they leave the 24-hour window.
 */
export async function releaseRecipientUsage(tx: Executor, orgId: string, reviewId: string): Promise<void> {
  await tx.query(
    `UPDATE recipient_usage u SET recipients = greatest(0, u.recipients - r.recipient_count)
       FROM reviews r
      WHERE r.org_id = $1 AND r.id = $2 AND u.org_id = r.org_id AND u.inbox_id = r.inbox_id
        AND u.minute = date_trunc('minute', r.created_at)`,
    [orgId, reviewId],
  );
}

/** Minutes that left the 24-hour window. */
export async function pruneRecipientUsage(db: Executor): Promise<number> {
  const { rowCount } = await db.query(`DELETE FROM recipient_usage WHERE minute < now() - interval '25 hours'`);
  return rowCount ?? 0;
}

/** When the oldest counted recipients age out of the 24-hour window. */
export async function oldestCountedAt(db: Executor, at: { org_id: string; inbox_id: string }): Promise<Date | null> {
  const { rows } = await db.query<{ at: Date | null }>(
    `SELECT min(minute) AS at FROM recipient_usage
      WHERE org_id = $1 AND inbox_id = $2 AND minute > now() - interval '24 hours' AND recipients > 0`,
    [at.org_id, at.inbox_id],
  );
  return rows[0]?.at ?? null;
}

// ---- Attachments

export type ReviewAttachment = {
  filename: string | null;
  content_type: string;
  content_id: string | null;
  inline: boolean;
  size: number;
  content: Buffer;
};

// The driver copies a statement's parameters into one message: attachments go in statements of
// about this much content each, so a 25 MiB send is not held once more, whole, while it is written.
const ATTACHMENT_BATCH_BYTES = 4 * 1024 * 1024;

/** The files in runs of consecutive ones whose sizes add up to at most `maxBytes` (a larger file runs alone). */
function batchesOf<T extends { size: number }>(files: T[], maxBytes: number): T[][] {
  const batches: T[][] = [];
  let bytes = 0;
  for (const f of files) {
    const last = batches.at(-1);
    if (last && bytes + f.size <= maxBytes) {
      last.push(f);
      bytes += f.size;
    } else {
      batches.push([f]);
      bytes = f.size;
    }
  }
  return batches;
}

/**
 * One row a file, a few MiB of files a statement. Each content travels as a parameter of its own,
 * which pg sends as binary bytes; a bytea[] parameter would be sent as text, every byte spelled as
 * two hex digits in a string and again in the wire buffer, four times the attachment.
 */
export async function insertReviewAttachments(tx: Executor, orgId: string, reviewId: string, files: ReviewAttachment[]): Promise<void> {
  let position = 0;
  for (const batch of batchesOf(files, ATTACHMENT_BATCH_BYTES)) {
    const values: unknown[] = [orgId, reviewId];
    const rows = batch.map((f) => {
      const at = values.length;
      values.push(position++, f.filename, f.content_type, f.content_id, f.inline, f.size, f.content);
      const p = (n: number) => `$${at + n}`;
      return `($1, $2, ${p(1)}::int, ${p(2)}::text, ${p(3)}::text, ${p(4)}::text, ${p(5)}::bool, ${p(6)}::int, ${p(7)}::bytea)`;
    });
    await tx.query(
      `INSERT INTO review_attachments (org_id, review_id, position, filename, content_type, content_id, inline, size, content)
       VALUES ${rows.join(', ')}`,
      values,
    );
  }
}

export async function listReviewAttachments(db: Executor, orgId: string, reviewId: string, withContent: boolean): Promise<ReviewAttachment[]> {
  const { rows } = await db.query<ReviewAttachment>(
    `SELECT filename, content_type, content_id, inline, size${withContent ? ', content' : ''} FROM review_attachments
      WHERE org_id = $1 AND review_id = $2 ORDER BY position`,
    [orgId, reviewId],
  );
  return rows;
}

// ---- Feedback, edit diffs and chat

export type FeedbackRow = {
  review_id: string;
  seq: number;
  kind: 'approve' | 'edit' | 'reject' | 'hand_back' | 'chat';
  author: 'composer' | 'human' | 'reviewer_agent';
  author_email: string | null;
  revision: number;
  feedback: string | null;
  message: string | null;
  diff: unknown;
  created_at: Date;
};

export async function insertFeedback(
  tx: Executor,
  f: Omit<FeedbackRow, 'seq' | 'created_at'> & { org_id: string; project_id: string },
): Promise<void> {
  // The review's machine row is locked by the transition that records this, so max + 1 is safe.
  await tx.query(
    `INSERT INTO review_feedback (org_id, project_id, review_id, seq, kind, author, author_email, revision, feedback, message, diff)
     SELECT $1, $2, $3, coalesce(max(seq), 0) + 1, $4, $5, $6, $7, $8, $9, $10
       FROM review_feedback WHERE org_id = $1 AND review_id = $3`,
    [f.org_id, f.project_id, f.review_id, f.kind, f.author, f.author_email, f.revision, f.feedback, f.message,
      f.diff === undefined || f.diff === null ? null : JSON.stringify(f.diff)],
  );
}

export async function listFeedback(db: Executor, orgId: string, reviewId: string): Promise<FeedbackRow[]> {
  const { rows } = await db.query<FeedbackRow>(
    `SELECT review_id, seq, kind, author, author_email, revision, feedback, message, diff, created_at
       FROM review_feedback WHERE org_id = $1 AND review_id = $2 ORDER BY seq`,
    [orgId, reviewId],
  );
  return rows;
}

/** Which of `ids` are reviews composed by this agent (and of this inbox, when given). */
export async function ownedReviewIds(db: Executor, who: { org_id: string; agent_id: string; inbox_id: string | null }, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM reviews WHERE org_id = $1 AND agent_id = $2 AND id = ANY($3::text[]) AND ($4::text IS NULL OR inbox_id = $4)`,
    [who.org_id, who.agent_id, ids, who.inbox_id],
  );
  return rows.map((r) => r.id);
}

/** The org of a review, looked up by its id alone (operators' tools name reviews by id only). */
export async function reviewOrgOf(db: Executor, id: string): Promise<string | null> {
  const { rows } = await db.query<{ org_id: string }>(`SELECT org_id FROM machine_instances WHERE kind = 'review' AND id = $1`, [id]);
  return rows[0]?.org_id ?? null;
}
