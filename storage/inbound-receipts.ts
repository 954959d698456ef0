// Receipts of inbound mail, to recognise a sender's retry of a delivery already stored: its
// connection broke after the final dot, before our 250, so it sends the same bytes again.
import type { Folder } from './messages.ts';
import type { Executor } from './db.ts';

/** How long a receipt answers for its message; senders give up retrying well within a day. */
export const RETRY_WINDOW_HOURS = 24;

export type Receipt = { inbox_id: string; message_key: string; raw_sha256: Buffer };

export type EarlierCopy = { id: string; thread_id: string; folder: Folder; seq: number; received_at: Date };

/**
 * Records that `message_id` is stored for this receipt, unless a receipt within the window
 * exists: then returns that delivery's copy and nothing is recorded. A concurrent retry waits on
 * the first one's row until it commits.
 */
export async function recordReceipt(
  tx: Executor,
  org_id: string,
  r: Receipt,
  message_id: string,
): Promise<{ earlier: EarlierCopy | null }> {
  const fresh = await tx.query(
    `INSERT INTO inbound_receipts (inbox_id, message_key, raw_sha256, message_id) VALUES ($1, $2, $3, $4)
     ON CONFLICT (inbox_id, message_key, raw_sha256) DO UPDATE SET message_id = excluded.message_id, received_at = now()
       WHERE inbound_receipts.received_at < now() - make_interval(hours => $5)
     RETURNING 1`,
    [r.inbox_id, r.message_key, r.raw_sha256, message_id, RETRY_WINDOW_HOURS],
  );
  if (fresh.rowCount === 1) return { earlier: null };
  const { rows } = await tx.query<{ id: string; thread_id: string | null; folder: Folder | null; seq: number | null; received_at: Date }>(
    `SELECT r.message_id AS id, m.thread_id, m.folder, m.seq, coalesce(m.received_at, r.received_at) AS received_at
     FROM inbound_receipts r LEFT JOIN messages m ON m.org_id = $4 AND m.inbox_id = r.inbox_id AND m.id = r.message_id
     WHERE r.inbox_id = $1 AND r.message_key = $2 AND r.raw_sha256 = $3`,
    [r.inbox_id, r.message_key, r.raw_sha256, org_id],
  );
  const row = rows[0]!;
  // The copy may have been deleted since; the retry is still answered, not stored again.
  return { earlier: { id: row.id, thread_id: row.thread_id ?? '', folder: row.folder ?? 'INBOX', seq: row.seq ?? 0, received_at: row.received_at } };
}

export async function pruneReceipts(db: Executor): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM inbound_receipts WHERE received_at < now() - make_interval(hours => $1)', [RETRY_WINDOW_HOURS]);
  return rowCount ?? 0;
}
