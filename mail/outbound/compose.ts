// Builds the outbound MIME message of a review with nodemailer's composer: the composing inbox as
// sender, threading headers on replies, the forwarded original attached, and the RFC 8058 one-click
// List-Unsubscribe headers.
import MailComposer from 'nodemailer/lib/mail-composer';

export type OutboundAddress = { name: string; email: string };

export type OutboundFile = {
  filename: string | null;
  content_type: string;
  content_id: string | null;
  inline: boolean;
  content: Buffer;
};

export type OutboundMessage = {
  from: OutboundAddress;
  to: OutboundAddress[];
  cc: OutboundAddress[];
  subject: string;
  text: string;
  /** `<...>` form. Fixed before delivery is attempted, so every try sends the same message. */
  message_id: string;
  in_reply_to: string | null;
  references: string[];
  date: Date;
  attachments: OutboundFile[];
  /** The original of a forward, attached as message/rfc822. */
  forwarded: { raw: Buffer; filename: string } | null;
  unsubscribe: { url: string; mailto: string } | null;
  review_id: string;
  /** Adds `Auto-Submitted: auto-replied` (an answer to mail that was itself sent automatically). */
  auto_replied?: boolean;
};

const addr = (a: OutboundAddress) => (a.name ? { name: a.name, address: a.email } : a.email);

export async function composeMessage(m: OutboundMessage): Promise<Buffer> {
  const headers: Record<string, string> = { 'X-Review-Id': m.review_id };
  if (m.auto_replied) headers['Auto-Submitted'] = 'auto-replied';
  if (m.unsubscribe) {
    headers['List-Unsubscribe'] = `<${m.unsubscribe.url}>, <${m.unsubscribe.mailto}>`;
    headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
  }
  const composer = new MailComposer({
    from: addr(m.from),
    to: m.to.map(addr),
    cc: m.cc.length ? m.cc.map(addr) : undefined,
    subject: m.subject,
    text: m.text,
    messageId: m.message_id,
    inReplyTo: m.in_reply_to ?? undefined,
    references: m.references.length ? m.references : undefined,
    date: m.date,
    headers,
    xMailer: false,
    disableFileAccess: true,
    disableUrlAccess: true,
    attachments: [
      ...m.attachments.map((f) => ({
        filename: f.filename ?? undefined,
        contentType: f.content_type,
        content: f.content,
        ...(f.content_id ? { cid: f.content_id } : {}),
        ...(f.inline ? { contentDisposition: 'inline' as const } : {}),
      })),
      // As an attachment: inline, readers merge the original into the note's body.
      ...(m.forwarded
        ? [{ filename: m.forwarded.filename, contentType: 'message/rfc822', contentDisposition: 'attachment' as const, content: m.forwarded.raw }]
        : []),
    ],
  });
  return new Promise((resolve, reject) => {
    composer.compile().build((err, message) => (err ? reject(err) : resolve(message)));
  });
}

/** A message the service itself sends (a sign-up code): plain text, no review, no unsubscribe. */
export async function composeSystemMessage(m: { from: string; to: string; subject: string; text: string; message_id: string; date: Date; reply_to?: string }): Promise<Buffer> {
  const composer = new MailComposer({
    from: m.from,
    to: m.to,
    ...(m.reply_to ? { replyTo: m.reply_to } : {}),
    subject: m.subject,
    text: m.text,
    messageId: m.message_id,
    date: m.date,
    headers: { 'Auto-Submitted': 'auto-generated' },
    xMailer: false,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return new Promise((resolve, reject) => {
    composer.compile().build((err, message) => (err ? reject(err) : resolve(message)));
  });
}
