// Receipts of inbound mail, to recognise a sender's retry of a delivery already stored: its
// connection broke after the final dot, before our 250, so it sends the same bytes again.
import type { Folder } from './messages.ts';
import type { Executor } from './db.ts';

/** How long a receipt answers for its message; senders give up retrying well within a day. */
export const RETRY_WINDOW_HOURS = 24;

export type Receipt = { inbox_id: string; message_key: string; raw_sha256: Buffer };

export type EarlierCopy = { id: string; thread_id: string; folder: Folder; seq: number; received_at: Date };

/**
 * Records the receipts of the messages about to be stored, in one statement: true for each one
 * recorded, false for one that is a retry (a receipt within the window exists, or the same receipt
 * came earlier in the list) and must not be stored again. A concurrent retry waits on the first
 * one's row until it commits.
 */
export async function recordReceipts(tx: Executor, receipts: Array<Receipt & { message_id: string }>): Promise<boolean[]> {
  const keys = receipts.map((r) => `${r.inbox_id}\0${r.message_key}\0${r.raw_sha256.toString('hex')}`);
  const first = new Map<string, number>();
  keys.forEach((key, i) => first.has(key) || first.set(key, i));
  // In key order, so two batches holding the same receipts wait on each other and never deadlock.
  const unique = [...first.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, i]) => receipts[i]!);
  if (unique.length === 0) return [];
  const { rows } = await tx.query<{ message_id: string }>({
    name: 'inbound-receipts-record',
    text: `INSERT INTO inbound_receipts (inbox_id, message_key, raw_sha256, message_id)
           SELECT * FROM unnest($1::text[], $2::text[], $3::bytea[], $4::text[])
           ON CONFLICT (inbox_id, message_key, raw_sha256) DO UPDATE SET message_id = excluded.message_id, received_at = now()
             WHERE inbound_receipts.received_at < now() - make_interval(hours => $5)
           RETURNING message_id`,
    values: [unique.map((r) => r.inbox_id), unique.map((r) => r.message_key), unique.map((r) => r.raw_sha256), unique.map((r) => r.message_id), RETRY_WINDOW_HOURS],
  });
  const recorded = new Set(rows.map((r) => r.message_id));
  return receipts.map((r, i) => first.get(keys[i]!) === i && recorded.has(r.message_id));
}

/** The copy stored for a receipt recorded before (by an earlier delivery, or earlier in this batch). */
export async function earlierCopy(tx: Executor, org_id: string, r: Receipt): Promise<EarlierCopy> {
  const { rows } = await tx.query<{ id: string; thread_id: string | null; folder: Folder | null; seq: number | null; received_at: Date }>(
    `SELECT r.message_id AS id, m.thread_id, m.folder, m.seq, coalesce(m.received_at, r.received_at) AS received_at
     FROM inbound_receipts r LEFT JOIN messages m ON m.org_id = $4 AND m.inbox_id = r.inbox_id AND m.id = r.message_id
     WHERE r.inbox_id = $1 AND r.message_key = $2 AND r.raw_sha256 = $3`,
    [r.inbox_id, r.message_key, r.raw_sha256, org_id],
  );
  const row = rows[0]!;
  // The copy may have been deleted since; the retry is still answered, not stored again.
  return { id: row.id, thread_id: row.thread_id ?? '', folder: row.folder ?? 'INBOX', seq: row.seq ?? 0, received_at: row.received_at };
}

export async function pruneReceipts(db: Executor): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM inbound_receipts WHERE received_at < now() - make_interval(hours => $1)', [RETRY_WINDOW_HOURS]);
  return rowCount ?? 0;
}
