import crypto from 'node:crypto';
import type pg from 'pg';
import { withTransaction, type Executor, type Pool } from './db.ts';
import { listAttachmentsOf, listThreadMessages, type AttachmentMeta, type InboxKey, type MessageRow } from './messages.ts';
import { randomToken } from './ids.ts';

export type ThreadRow = {
  org_id: string;
  project_id: string;
  inbox_id: string;
  id: string;
  subject: string;
  normalized_subject: string;
  participants: string[];
  message_count: number;
  last_message_id: string | null;
  last_seq: number;
  created_at: Date;
  updated_at: Date;
};

export const newThreadId = (): string => `thr_${randomToken(20)}`;

/**
 * The advisory locks that serialise placing messages sharing a Message-ID (their own or one they
 * refer to) in one inbox: a reply arriving while the message it answers is still being stored
 * waits for it, and then finds its thread instead of starting a second one. Computed here, sorted
 * (one global order, so no deadlock), so the lock statement can travel with BEGIN.
 */
export function threadKeyLocks(inboxId: string, keys: string[]): bigint[] {
  const locks = new Set<bigint>();
  for (const key of keys) {
    locks.add(BigInt.asIntN(64, crypto.createHash('sha256').update(`${inboxId} ${key}`).digest().readBigUInt64BE(0)));
  }
  return [...locks].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The statement taking the locks; only integers are interpolated. */
export function lockStatement(locks: bigint[]): string | null {
  return locks.length ? `SELECT ${locks.map((l) => `pg_advisory_xact_lock(${l.toString()})`).join(', ')}` : null;
}

/**
 * Runs fn in a transaction that holds the locks from its first statement: BEGIN and the locks go
 * in one round trip (a message is stored in a handful of them; each is a cost under load).
 */
export function withLocksHeld<T>(pool: Pool, locks: bigint[], fn: (tx: pg.PoolClient) => Promise<T>): Promise<T> {
  return withTransaction(pool, fn, lockStatement(locks));
}

export type ThreadCursor = { last_seq: number; id: string };

/** Most recently active first. */
export async function listThreads(db: Executor, at: InboxKey, page: { limit: number; before: ThreadCursor | null }): Promise<ThreadRow[]> {
  const { rows } = await db.query<ThreadRow>(
    `SELECT * FROM threads
      WHERE org_id = $1 AND inbox_id = $2 AND ($3::bigint IS NULL OR (last_seq, id) < ($3, $4))
      ORDER BY last_seq DESC, id DESC LIMIT $5`,
    [at.org_id, at.inbox_id, page.before?.last_seq ?? null, page.before?.id ?? null, page.limit],
  );
  return rows;
}

export async function findThread(db: Executor, at: InboxKey, id: string): Promise<ThreadRow | null> {
  const { rows } = await db.query<ThreadRow>('SELECT * FROM threads WHERE org_id = $1 AND inbox_id = $2 AND id = $3', [at.org_id, at.inbox_id, id]);
  return rows[0] ?? null;
}

/** The thread with its messages oldest first, each with its attachments. */
export async function findThreadWithMessages(
  db: Executor,
  at: InboxKey,
  id: string,
): Promise<{ thread: ThreadRow; messages: Array<{ message: MessageRow; attachments: AttachmentMeta[] }> } | null> {
  const thread = await findThread(db, at, id);
  if (!thread) return null;
  const messages = await listThreadMessages(db, at, id);
  const withFiles = messages.filter((m) => m.attachment_count > 0).map((m) => m.id);
  const files = withFiles.length ? await listAttachmentsOf(db, at, withFiles) : new Map<string, AttachmentMeta[]>();
  return { thread, messages: messages.map((message) => ({ message, attachments: files.get(message.id) ?? [] })) };
}
