// Contact lists, the suppression list, and the recipient's own unsubscribe.
import { Problem, badRequest, notFound } from '../machines/problems.ts';
import { isEmail, type Recipient } from '../machines/policy/send-body.ts';
import { verifyUnsubscribeToken, unsubscribeKey } from '../mail/outbound/unsubscribe-token.ts';
import type { Config } from '../service/config.ts';
import { encryptionKey } from '../service/encryption.ts';
import { addContact as insertContact, deleteContact, findContact, type ContactRow } from '../storage/contacts.ts';
import { findInboxInScope, type InboxScope } from '../storage/inboxes.ts';
import { withTransaction, type Executor, type Pool } from '../storage/db.ts';
import { newId } from '../storage/ids.ts';
import { findReview } from '../storage/reviews.ts';
import { deleteSuppression, findSuppression, suppress, type SuppressionRow } from '../storage/suppressions.ts';
import { restoreReview } from './reviews/snapshot.ts';

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** A bare address or a bare domain (a leading `@` is accepted and dropped), lower-cased. */
export function normalizePattern(pattern: string): string | null {
  const p = pattern.trim().toLowerCase().replace(/^@/, '');
  if (p.includes('@')) return isEmail(p) ? p : null;
  return DOMAIN.test(p) ? p : null;
}

export async function addContact(
  db: Executor,
  at: { org_id: string; project_id: string; inbox_id: string },
  entry: { kind: 'allow' | 'block'; pattern: string; direction?: 'send' | 'receive' },
): Promise<{ row: ContactRow; created: boolean }> {
  const pattern = normalizePattern(entry.pattern);
  if (!pattern) throw badRequest('pattern', 'pattern must be a bare email address or a bare domain, such as dana@acme.example or acme.example.', 'invalid_pattern');
  return insertContact(db, { ...at, id: newId('con'), kind: entry.kind, pattern, direction: entry.direction ?? 'send' });
}

export async function suppressEmail(db: Executor, at: { org_id: string; project_id: string }, email: string, reason: string | null) {
  const address = email.trim().toLowerCase();
  if (!isEmail(address)) throw badRequest('email', 'email must be an email address.', 'invalid_address');
  return suppress(db, at, { email: address, origin: 'agent', reason });
}

/** Lifts an agent's suppression; the recipient's own opt-out stays. */
export async function unsuppressEmail(db: Pool, at: { org_id: string; project_id: string }, email: string): Promise<void> {
  await withTransaction(db, async (tx) => {
    const row = await findSuppression(tx, at, email);
    if (!row) throw notFound('suppression');
    if (row.origin === 'unsubscribe') {
      throw new Problem('forbidden_scope', {
        detail: 'This address opted out itself (list-unsubscribe); only the recipient can opt back in.',
        errors: [{ field: 'email', code: 'recipient_opt_out' }],
      });
    }
    await deleteSuppression(tx, at, email);
  });
}

export type UnsubscribeTarget = { org_id: string; project_id: string; review_id: string; recipients: string[]; sender: string | null };

const keys = new WeakMap<Config, Buffer>();

/** What a List-Unsubscribe token names: a sent message and its recipients. Null: not a token of ours. */
export async function unsubscribeTarget(db: Executor, config: Config, token: string): Promise<UnsubscribeTarget | null> {
  let key = keys.get(config);
  if (!key) keys.set(config, (key = unsubscribeKey(encryptionKey(config))));
  const claim = verifyUnsubscribeToken(key, token);
  if (!claim) return null;
  const row = await findReview(db, { org_id: claim.org_id, project_id: null, agent_id: null, inbox_id: null }, claim.review_id);
  if (!row) return null;
  const draft = restoreReview(row).context.draft;
  const recipients = [...((draft.to as Recipient[]) ?? []), ...((draft.cc as Recipient[]) ?? [])].map((r) => r.email.toLowerCase());
  return { org_id: row.org_id, project_id: row.project_id, review_id: row.id, recipients, sender: null };
}

/**
 * Suppresses the message's recipients (or the one named, when it is one of them) in the sending
 * project. Idempotent: an address already suppressed keeps its entry.
 */
export async function unsubscribe(db: Pool, target: UnsubscribeTarget, only: string | null): Promise<SuppressionRow[]> {
  const wanted = only ? target.recipients.filter((r) => r === only.trim().toLowerCase()) : target.recipients;
  return withTransaction(db, async (tx) => {
    const out: SuppressionRow[] = [];
    for (const email of wanted) {
      out.push((await suppress(tx, { org_id: target.org_id, project_id: target.project_id }, { email, origin: 'unsubscribe', reason: `list-unsubscribe of ${target.review_id}` })).row);
    }
    return out;
  });
}

/** Removes a contact of an inbox the caller reaches; anything else is as if it did not exist (404). */
export async function removeContact(db: Pool, scope: InboxScope, contactId: string): Promise<void> {
  const contact = await findContact(db, scope.org_id, contactId);
  if (!contact || !(await findInboxInScope(db, scope, contact.inbox_id))) throw notFound('contact');
  await deleteContact(db, scope.org_id, contact.id);
}
