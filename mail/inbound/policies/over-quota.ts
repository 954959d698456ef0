// The refusal of mail that would take the receiving org past its plan. Thrown by the ingest
// (actors/ingest.ts) and answered by the SMTP server with a temporary 452.
import type { InboxRow } from '../../../storage/inboxes.ts';

/** Storing would take an org past its monthly message quota or its storage: nothing was stored. */
export class InboundQuotaError extends Error {
  constructor(readonly org_id: string, readonly inbox: InboxRow, readonly kind: 'monthly_message_quota' | 'storage') {
    super(kind === 'storage' ? 'the mailbox storage of this account is full' : 'the monthly message quota of this account is used up');
  }
}
