import { lockKey, type Executor } from './db.ts';
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
 * waits for it, and then finds its thread instead of starting a second one. Taken with BEGIN
 * (lockStatement), a message is stored in a handful of round trips.
 */
export function threadKeyLocks(inboxId: string, keys: string[]): bigint[] {
  return keys.map((key) => lockKey(`${inboxId} ${key}`));
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

/** Threads of the inbox by id; ids of other inboxes are not returned. */
export async function findThreads(db: Executor, at: InboxKey, ids: string[]): Promise<ThreadRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<ThreadRow>('SELECT * FROM threads WHERE org_id = $1 AND inbox_id = $2 AND id = ANY($3::text[])', [
    at.org_id,
    at.inbox_id,
    ids,
  ]);
  return rows;
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
