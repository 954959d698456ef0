// RCPT TO: only addresses of inboxes hosted here are accepted (550, so the sender bounces at
// once), and a lookup that fails is a temporary refusal (451, so the sender retries). A
// self-signup inbox whose code is not verified yet takes no mail: 450 4.2.1, temporary, because
// verification usually follows within the code's 15 minutes and the sender's retry then lands;
// an address never verified bounces when the sender's queue gives up.
//
// Every RCPT asks the database (one indexed lookup). Found inboxes used to be remembered for 5 s
// per process; an inbox deleted meanwhile then passed RCPT on every process that had seen it, and
// its mail met a 451 at DATA, so senders retried for those seconds instead of bouncing at once.
import type { Executor } from '../../../storage/db.ts';
import { findInboxesByAddress, type InboxRow } from '../../../storage/inboxes.ts';
import { smtpError, tryAgainLater } from './smtp-error.ts';

export type RecipientLookup = (address: string) => Promise<InboxRow>;

export function hostedRecipients(db: Executor): RecipientLookup {
  return async (address) => {
    const key = address.toLowerCase();
    let found: InboxRow[];
    try {
      found = await findInboxesByAddress(db, [key]);
    } catch {
      throw tryAgainLater('Recipient lookup failed');
    }
    const inbox = found[0];
    if (!inbox) throw smtpError(550, `No mailbox here by that name: <${address}>`);
    if (inbox.status === 'pending') {
      throw smtpError(450, `Mailbox <${address}> is not active yet: its sign-up awaits verification; try again later`);
    }
    return inbox;
  };
}
