// Reading a received attachment. Its bytes are not stored apart: they are decoded from the
// message's raw source, parsed again as it was when stored (up to that part), so the same part is
// found at the same index. Rows stored before that keep their bytes and are served from them.
import { attachmentBytes } from '../mail/parse.ts';
import { findAttachment, type AttachmentMeta, type InboxKey } from '../storage/messages.ts';
import type { Executor } from '../storage/db.ts';

/** The attachment with its bytes; null when the message has no attachment with this id. */
export async function readAttachment(db: Executor, at: InboxKey, messageId: string, id: string): Promise<(AttachmentMeta & { content: Buffer }) | null> {
  const found = await findAttachment(db, at, messageId, id);
  if (!found) return null;
  const { part_index, content, raw, ...meta } = found;
  if (content) return { ...meta, content };
  const bytes = raw ? await attachmentBytes(raw, part_index) : null;
  // The source is stored with its attachments' rows and parsed the same way, so this cannot miss
  // unless the source was altered.
  if (!bytes) throw new Error(`attachment ${id} (part ${part_index}) could not be read from the source of message ${messageId}`);
  return { ...meta, content: bytes };
}
