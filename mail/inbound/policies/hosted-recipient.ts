// RCPT TO: only addresses of inboxes hosted here are accepted (550, so the sender bounces at
// once), and a lookup that fails is a temporary refusal (451, so the sender retries). A
// self-signup inbox whose code is not verified yet takes no mail: 450 4.2.1, temporary, because
// verification usually follows within the code's 15 minutes and the sender's retry then lands;
// an address never verified bounces when the sender's queue gives up. Found
// inboxes are remembered for a few seconds: a busy sender names the same few addresses in
// every transaction, and each lookup is a database round trip.
import type { Executor } from '../../../storage/db.ts';
import { findInboxesByAddress, type InboxRow } from '../../../storage/inboxes.ts';
import { smtpError, tryAgainLater } from './smtp-error.ts';

const REMEMBER_MS = 5_000;
const REMEMBER_MAX = 10_000;

export type RecipientLookup = (address: string) => Promise<InboxRow>;

export function hostedRecipients(db: Executor, now: () => number = Date.now): RecipientLookup {
  const known = new Map<string, { inbox: InboxRow; until: number }>();
  return async (address) => {
    const key = address.toLowerCase();
    const hit = known.get(key);
    if (hit && hit.until > now()) return hit.inbox;
    let found: InboxRow[];
    try {
      found = await findInboxesByAddress(db, [key]);
    } catch {
      throw tryAgainLater('Recipient lookup failed');
    }
    const inbox = found[0];
    if (!inbox) {
      known.delete(key);
      throw smtpError(550, `No mailbox here by that name: <${address}>`);
    }
    if (inbox.status === 'pending') {
      // Not remembered: the next try after verification must see the inbox active.
      known.delete(key);
      throw smtpError(450, `Mailbox <${address}> is not active yet: its sign-up awaits verification; try again later`);
    }
    if (known.size >= REMEMBER_MAX) known.clear();
    known.set(key, { inbox, until: now() + REMEMBER_MS });
    return inbox;
  };
}
