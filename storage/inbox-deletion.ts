// Deleting an inbox: the inbox row locked against concurrent deliveries, its reviews still in
// play, and the removal of everything it holds, leaving a tombstone of its id.
import { releaseStorage } from './usage.ts';
import { lockStatement, type Executor } from './db.ts';
import { inboxSendLock } from './reviews.ts';
import { WITH_POLICY, scopeFilter, scopeValues, type InboxScope, type InboxWithPolicy } from './inboxes.ts';

/**
 * The inbox by id or address within the scope, its row locked: mail being stored for it (the
 * messages' key check) and other deletions wait until this transaction ends.
 */
export async function lockInboxInScope(tx: Executor, scope: InboxScope, idOrAddress: string): Promise<InboxWithPolicy | null> {
  const byAddress = idOrAddress.includes('@');
  const { rows } = await tx.query<InboxWithPolicy>(
    `${WITH_POLICY} WHERE ${scopeFilter(1)} AND ${byAddress ? 'i.address = lower($5)' : 'i.id = $5'} FOR UPDATE OF i`,
    [...scopeValues(scope), idOrAddress],
  );
  return rows[0] ?? null;
}

/**
 * Takes the inbox's send lock for the rest of the transaction: a send being submitted from it
 * finishes first, and one that comes later finds the inbox gone.
 */
export async function lockInboxSends(tx: Executor, inboxId: string): Promise<void> {
  await tx.query(lockStatement([inboxSendLock(inboxId)])!);
}

export type UnfinishedReview = { id: string; state: string; reconciliation_needed: boolean };

/**
 * The inbox's reviews that have not ended (`failed` has: it is absorbing), locked, so no decision
 * can move one while the deletion looks at it.
 */
export async function lockUnfinishedReviews(tx: Executor, orgId: string, inboxId: string): Promise<UnfinishedReview[]> {
  const { rows } = await tx.query<UnfinishedReview>(
    `SELECT id, state, coalesce((snapshot->'context'->>'reconciliation_needed')::boolean, false) AS reconciliation_needed
       FROM machine_instances
      WHERE org_id = $1 AND inbox_id = $2 AND kind = 'review' AND state NOT IN ('sent', 'auto_sent', 'cancelled', 'failed')
      ORDER BY id FOR UPDATE`,
    [orgId, inboxId],
  );
  return rows;
}

/**
 * Removes the inbox and what it holds (messages with their sources, attachments and search rows,
 * threads, contacts, recipient counts, delivery reports (they quote its mail), receipts, the files of its reviews, its review links and
 * webhooks, the events of its received mail with their deliveries to any webhook), revokes the
 * keys that reached only it, and leaves the tombstone. Review records stay: they are their
 * agent's history and carry the cancellation it reads.
 */
export async function purgeInbox(tx: Executor, inbox: { org_id: string; project_id: string; id: string; agent_id: string; address: string }, deletedBy: string): Promise<void> {
  const v = [inbox.org_id, inbox.id];
  // The inbox's stored mail stops counting against the org's storage.
  const { rows } = await tx.query<{ bytes: number }>(
    'SELECT coalesce(sum(size), 0)::bigint AS bytes FROM messages WHERE org_id = $1 AND inbox_id = $2',
    v,
  );
  await releaseStorage(tx, inbox.org_id, rows[0]!.bytes);
  for (const table of ['message_search', 'attachments', 'message_sources', 'thread_keys', 'threads', 'messages', 'contacts', 'recipient_usage', 'delivery_reports']) {
    await tx.query(`DELETE FROM ${table} WHERE org_id = $1 AND inbox_id = $2`, v);
  }
  await tx.query('DELETE FROM inbound_receipts WHERE inbox_id = $1', [inbox.id]);
  await tx.query(
    `DELETE FROM review_attachments a USING reviews r
      WHERE r.org_id = $1 AND r.inbox_id = $2 AND a.org_id = r.org_id AND a.review_id = r.id`,
    v,
  );
  await tx.query('DELETE FROM review_links WHERE org_id = $1 AND inbox_id = $2', v);
  // Webhooks naming the inbox go with their deliveries (cascade).
  await tx.query('DELETE FROM webhooks WHERE org_id = $1 AND inbox_id = $2', v);
  // Its `message.received` events carry the mail itself (sender, subject, text): they go with it,
  // with every webhook delivery of them (pending or done), so no stream replay or redelivery brings
  // deleted mail back. The log's other entries stay.
  await tx.query(
    `DELETE FROM webhook_deliveries d
      WHERE d.org_id = $1 AND d.event_type = 'message.received'
        AND d.event_id IN (SELECT e.id FROM events e WHERE e.org_id = $1 AND e.inbox_id = $2 AND e.type = 'message.received')`,
    v,
  );
  await tx.query(`DELETE FROM events WHERE org_id = $1 AND inbox_id = $2 AND type = 'message.received'`, v);
  await tx.query('UPDATE api_keys SET revoked_at = now() WHERE org_id = $1 AND inbox_id = $2 AND revoked_at IS NULL', v);
  await tx.query(
    'INSERT INTO inbox_tombstones (org_id, project_id, id, address, deleted_by) VALUES ($1, $2, $3, $4, $5)',
    [inbox.org_id, inbox.project_id, inbox.id, inbox.address, deletedBy],
  );
  await tx.query('DELETE FROM inboxes WHERE org_id = $1 AND id = $2', v);
}
