// What a reply and a forward take from the message they answer or carry: subject, recipients and
// the threading headers (RFC 5322 3.6.4: In-Reply-To is the parent's Message-ID, References the
// parent's References followed by its Message-ID).
import type { Recipient } from './send-body.ts';

export type ParentMessage = {
  direction: 'inbound' | 'outbound';
  from_name: string | null;
  from_email: string | null;
  reply_to: Recipient[];
  to_addrs: Recipient[];
  cc_addrs: Recipient[];
  subject: string;
  message_id: string | null;
  references: string[];
};

// Longest References kept: enough for any real thread; a hostile header cannot grow it without bound.
const MAX_REFERENCES = 50;

export function replySubject(subject: string): string {
  return /^\s*re\s*:/i.test(subject) ? subject : `Re: ${subject}`.trim();
}

export function forwardSubject(subject: string): string {
  return /^\s*fwd?\s*:/i.test(subject) ? subject : `Fwd: ${subject}`.trim();
}

/** Who a reply goes to by default: the sender (or its Reply-To) of an inbound parent, the recipients of our own. */
export function replyRecipients(parent: ParentMessage): Recipient[] {
  if (parent.direction === 'outbound') return parent.to_addrs;
  if (parent.reply_to.length > 0) return parent.reply_to;
  return parent.from_email ? [{ name: parent.from_name ?? '', email: parent.from_email }] : [];
}

export function replyThreading(parent: ParentMessage): { in_reply_to: string | null; references: string[] } {
  if (!parent.message_id) return { in_reply_to: null, references: parent.references.slice(-MAX_REFERENCES) };
  const references = [...parent.references.filter((r) => r !== parent.message_id), parent.message_id].slice(-MAX_REFERENCES);
  return { in_reply_to: parent.message_id, references };
}

/** The forwarded message's header block, as mail clients quote it above the original's text. */
export function forwardedText(note: string | undefined, original: {
  from: string;
  date: string | null;
  subject: string;
  to: string;
  text: string | null;
}): string {
  const lines = [
    '---------- Forwarded message ---------',
    `From: ${original.from}`,
    ...(original.date ? [`Date: ${original.date}`] : []),
    `Subject: ${original.subject}`,
    `To: ${original.to}`,
    '',
    original.text ?? '',
  ];
  return `${note ? `${note}\n\n` : ''}${lines.join('\n')}`;
}
