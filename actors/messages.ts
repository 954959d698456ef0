// Changing messages: marking seen and moving between folders, several at once, all or nothing.
import { withTransaction, type Pool } from '../storage/db.ts';
import { updateMessages, type InboxKey, type MessageSummaryRow, type MessageUpdate } from '../storage/messages.ts';
import { Problem } from '../machines/problems.ts';

export async function batchUpdateMessages(pool: Pool, at: InboxKey, updates: MessageUpdate[]): Promise<MessageSummaryRow[]> {
  return withTransaction(pool, async (tx) => {
    const { missing, updated } = await updateMessages(tx, at, updates);
    if (missing.length > 0) {
      throw new Problem('not_found', {
        detail: `No message of this inbox has the id ${missing.join(', ')}; nothing was changed.`,
        errors: missing.map((id) => ({ field: 'updates.id', code: 'not_found', detail: id })),
      });
    }
    return updated;
  });
}
