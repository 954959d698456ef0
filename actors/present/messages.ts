import type { AttachmentMeta, MessageRow, MessageSummaryRow } from '../../storage/messages.ts';
import type { ThreadRow } from '../../storage/threads.ts';
import type { RecipientStatus } from '../../storage/delivery-reports.ts';

export type BodyFormat = 'auto' | 'text' | 'html' | 'both';
export type BodyVariant = 'source' | 'extracted';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function envelopeFields(inboxAddress: string, m: MessageSummaryRow | MessageRow) {
  return {
    id: m.id,
    inbox: inboxAddress,
    inbox_id: m.inbox_id,
    thread_id: m.thread_id,
    folder: m.folder,
    seen: m.seen,
    direction: m.direction,
    from: m.from_email ? { name: m.from_name ?? '', email: m.from_email } : null,
    to: m.to_addrs,
    cc: m.cc_addrs,
    reply_to: m.reply_to,
    subject: m.subject,
    date: iso(m.date),
    message_id: m.message_id,
    in_reply_to: m.in_reply_to,
    references: m.references,
    size: m.size,
    received_at: iso(m.received_at),
    review_id: m.review_id,
    parse_error: m.parse_error,
    authentication: m.authentication ?? null,
    screening: m.screening ?? null,
    auto_submitted: m.auto_submitted ?? null,
  };
}

/** What became of a sent mail, per recipient: its latest delivery report. */
export const presentDelivery = (rows: RecipientStatus[]) =>
  rows.map((r) => ({
    recipient: r.recipient,
    status: r.status,
    type: r.type,
    status_code: r.status_code,
    diagnostic: r.diagnostic,
    updated_at: iso(r.updated_at),
  }));

export const presentAttachment = (a: AttachmentMeta) => ({
  id: a.id,
  filename: a.filename,
  content_type: a.content_type,
  size: a.size,
  content_id: a.content_id,
  inline: a.inline,
});

/** A listing entry: no bodies, a short preview of the new text. */
export const presentMessageSummary = (inboxAddress: string, m: MessageSummaryRow) => ({
  ...envelopeFields(inboxAddress, m),
  preview: m.preview,
  attachments: (m.attachments ?? []).map(presentAttachment),
});

/**
 * The full message. With no `format` every body key is there: the MIME's own `text` and `html`
 * (null when the message has no such part; nothing is synthesized) and the derived
 * `extracted_text` and `extracted_html` (null when there is nothing to derive). `format` narrows:
 * `text` keeps the text keys, `html` the html ones, `auto` the text keys when the MIME has a text
 * part, else the html ones; `both` is the default. `variant: extracted` puts the extracted views
 * in `text` and `html`.
 */
export function presentMessage(
  inboxAddress: string,
  m: MessageRow,
  attachments: AttachmentMeta[],
  opts: { format?: BodyFormat; variant?: BodyVariant } = {},
) {
  const variant = opts.variant ?? 'source';
  const requested = opts.format ?? 'both';
  const format = requested === 'auto' ? (m.text !== null ? 'text' : m.html !== null ? 'html' : 'both') : requested;
  const text = variant === 'extracted' ? m.extracted_text : m.text;
  const html = variant === 'extracted' ? m.extracted_html : m.html;
  return {
    ...envelopeFields(inboxAddress, m),
    ...(format === 'html' ? {} : { text: text ?? null, extracted_text: m.extracted_text ?? null }),
    ...(format === 'text' ? {} : { html: html ?? null, extracted_html: m.extracted_html ?? null }),
    attachments: attachments.map(presentAttachment),
  };
}

export const presentThread = (t: ThreadRow) => ({
  id: t.id,
  inbox_id: t.inbox_id,
  subject: t.subject,
  participants: t.participants,
  message_count: t.message_count,
  last_message_id: t.last_message_id,
  created_at: iso(t.created_at),
  updated_at: iso(t.updated_at),
});
