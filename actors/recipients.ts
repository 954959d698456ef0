// The recipients of a draft, parsed and checked, for a send and for a revision alike: the
// enrollment key's allowed domains, then the inbox's contact rules (block, allowlist), then the
// suppression list. The first refusal is thrown; nothing is written.
import { checkRecipients } from '../machines/policy/contacts.ts';
import { domainNotAllowed, firstDisallowed } from '../machines/policy/allowed-domains.ts';
import { Problem, badRequest } from '../machines/problems.ts';
import { MAX_RECIPIENTS, parseRecipients, type Recipient } from '../machines/policy/send-body.ts';
import type { Executor } from '../storage/db.ts';
import { sendCheckData, type SendCheckData } from '../storage/reviews.ts';

export function parseList(field: string, value: unknown): Recipient[] {
  const parsed = parseRecipients(value);
  if (parsed.invalid.length > 0) {
    throw new Problem('bad_request', {
      detail: `${field} holds addresses that are not valid: ${parsed.invalid.join(', ')}.`,
      errors: parsed.invalid.map((v) => ({ field, code: 'invalid_address', detail: v })),
    });
  }
  return parsed.recipients;
}

/**
 * The recipients of a plain send, as the send reads them, so its inbox and check data can be
 * read together; null when the body names none or names them badly (the checks then say why).
 */
export function plainSendRecipients(body: { to?: unknown; cc?: unknown }): string[] | null {
  try {
    const to = body.to === undefined ? [] : parseList('to', body.to);
    const cc = body.cc === undefined ? [] : parseList('cc', body.cc);
    return to.length > 0 ? [...to, ...cc].map((r) => r.email) : null;
  } catch {
    return null;
  }
}

/**
 * Refuses `addresses` outside the allowed domains, blocked by the inbox's contact rules or
 * suppressed. Returns the check data, read here unless `known` was read for the same addresses.
 */
export async function checkAddresses(
  db: Executor,
  at: { org_id: string; project_id: string; inbox_id: string },
  addresses: string[],
  allowedDomains: string[] | null,
  known?: { recipients: string[]; data: SendCheckData },
): Promise<SendCheckData> {
  const outside = firstDisallowed(addresses, allowedDomains);
  if (outside) throw domainNotAllowed('to', outside.slice(outside.lastIndexOf('@') + 1), allowedDomains!);
  const data =
    known && known.recipients.length === addresses.length && known.recipients.every((a, i) => a === addresses[i])
      ? known.data
      : await sendCheckData(db, at, addresses);
  throwRecipientRejection(checkRecipients({ recipients: addresses, contacts: data.contacts, suppressed: data.suppressed }));
  return data;
}

export type RecipientLists = { to?: unknown; cc?: unknown };

/** The recipients of a revision: the lists it names, else those of the draft it revises, checked. */
export async function revisedRecipients(
  db: Executor,
  at: { org_id: string; project_id: string; inbox_id: string },
  lists: RecipientLists,
  current: { to: Recipient[]; cc: Recipient[] },
  allowedDomains: string[] | null,
) {
  const to = lists.to === undefined ? current.to : parseList('to', lists.to);
  const cc = lists.cc === undefined ? current.cc : parseList('cc', lists.cc);
  if (to.length === 0) throw badRequest('to', 'A draft needs at least one recipient in to.', 'required');
  if (to.length + cc.length > MAX_RECIPIENTS) throw badRequest('to', `At most ${MAX_RECIPIENTS} recipients (to plus cc).`, 'too_many');
  await checkAddresses(db, at, [...to, ...cc].map((r) => r.email), allowedDomains);
  return { to, cc };
}

function throwRecipientRejection(r: ReturnType<typeof checkRecipients>): void {
  if (!r) return;
  if (r.code === 'recipient_blocked') {
    throw new Problem('recipient_blocked', {
      detail: `The inbox's contact list does not allow sending to ${r.addresses.join(', ')}; nothing was sent or queued.`,
      errors: r.addresses.map((a) => ({ field: 'to', code: 'recipient_blocked', detail: a })),
    });
  }
  throw new Problem('recipient_suppressed', {
    detail: `These recipients opted out: ${r.addresses.join(', ')}. Nothing was sent or queued; retry without them.`,
    errors: r.addresses.map((a) => ({ field: 'to', code: 'recipient_suppressed', detail: a })),
  });
}
