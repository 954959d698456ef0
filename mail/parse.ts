import { Readable } from 'node:stream';
import { MailParser, simpleParser } from 'mailparser';
import type {
  AddressObject,
  Attachment,
  AttachmentStream,
  EmailAddress,
  HeaderLines,
  ParsedMail as MailparserMail,
  SimpleParserOptions,
} from 'mailparser';
import addressparser from 'nodemailer/lib/addressparser';

export interface Address {
  name: string;
  email: string;
}

export interface ParsedAttachment {
  filename: string | null;
  content_type: string;
  size: number;
  /** Content-ID without angle brackets, as `cid:` URLs in the html refer to it. */
  content_id: string | null;
  inline: boolean;
  content: Buffer;
  /** Position among the message's attachments in MIME order; the same raw message gives the same index. */
  part_index: number;
}

export interface ParsedMail {
  from: Address | null;
  to: Address[];
  cc: Address[];
  reply_to: Address[];
  raw_from: string;
  raw_to: string;
  subject: string;
  date: string | null;
  date_header: string | null;
  message_id: string | null;
  in_reply_to: string | null;
  references: string[];
  text: string | null;
  html: string | null;
  attachments: ParsedAttachment[];
  parse_error: string | null;
  /**
   * The few header fields read past parsing (lower-cased names, first value, unfolded): whether
   * the mail was sent automatically (loops) and whether it is a delivery or feedback report.
   */
  headers?: Record<string, string>;
}

/** The header fields kept in ParsedMail.headers. */
export const SIGNAL_HEADERS = [
  'content-type',
  'auto-submitted',
  'x-autoreply',
  'x-autorespond',
  'x-auto-response-suppress',
  'precedence',
  'x-precedence',
  'x-failed-recipients',
  'return-path',
  'x-review-id',
  'feedback-type',
] as const;

function signalHeaders(fields: HeaderFields): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of SIGNAL_HEADERS) {
    const v = firstValue(fields, name);
    if (v !== null) out[name] = v.slice(0, 2000);
  }
  return out;
}

export interface ParseLimits {
  maxMessageBytes: number;
  maxHeaderBytes: number;
  maxParts: number;
  timeoutMs: number;
}

export const DEFAULT_PARSE_LIMITS: ParseLimits = {
  // SMTP SIZE is 25 MiB; the receiving side prepends its own trace headers, so allow a little more.
  maxMessageBytes: 25 * 1024 * 1024 + 256 * 1024,
  // Per MIME header block. mailsplit's own default is 1 MiB; real header blocks are a few KiB.
  maxHeaderBytes: 256 * 1024,
  // Each part costs a stream and a tree node; mailsplit's own default is 1000.
  maxParts: 500,
  // The SMTP transaction waits for the parse; past this the message is stored as unparsed instead.
  timeoutMs: 30_000,
};

// Options mailparser hands to its mailsplit Splitter; @types/mailparser does not list them.
interface SplitterOptions {
  maxHeadSize: number;
  maxChildNodes: number;
  ignoreEmbedded: boolean;
}

function parserOptions(limits: ParseLimits): SimpleParserOptions & SplitterOptions {
  return {
    maxHeadSize: limits.maxHeaderBytes,
    maxChildNodes: limits.maxParts,
    // An attached message/rfc822 stays one attachment instead of having its headers rendered into `text`.
    ignoreEmbedded: true,
    // `text` must come from text/plain parts only; html is never converted into it.
    skipHtmlToText: true,
    // textAsHtml is never used, and linkifying it is the costly step on hostile text.
    skipTextToHtml: true,
    skipTextLinks: true,
    // Keep the html as sent: inlining cid: images as data: URLs would copy every image into it.
    keepCidLinks: true,
    // A bounce's message/delivery-status part stays an attachment rather than being appended to `text`.
    keepDeliveryStatus: true,
  };
}

/**
 * Parses a raw RFC 5322 message. Never throws: when the body cannot be parsed the header
 * fields are read directly from the raw header block and `parse_error` says why.
 */
export async function parseMessage(raw: Buffer, limits: ParseLimits = DEFAULT_PARSE_LIMITS): Promise<ParsedMail> {
  if (raw.length > limits.maxMessageBytes) {
    const reason = `message is ${raw.length} bytes, over the ${limits.maxMessageBytes} byte parse limit`;
    return parseHeadersOnly(raw, limits, reason);
  }
  try {
    return fromMailparser(await parseWithDeadline(raw, limits));
  } catch (err) {
    return parseHeadersOnly(raw, limits, errorMessage(err));
  }
}

// The source is handed to the parser in pieces of this size rather than whole. Handed whole, a
// part was decoded as one string of its whole length: a 200 KB mail took 5.3 ms of CPU to parse
// whole and 2.6 ms in pieces (16 to 128 KiB measured alike). Between pieces the event loop gets a
// turn, so a 10 MB mail holds it for about 30 ms at a time rather than 150 ms.
const PIECE_BYTES = 64 * 1024;

function* piecesOf(raw: Buffer): Generator<Buffer> {
  for (let at = 0; at < raw.length; at += PIECE_BYTES) yield raw.subarray(at, at + PIECE_BYTES);
}

async function parseWithDeadline(raw: Buffer, limits: ParseLimits): Promise<MailparserMail> {
  const source = Readable.from(piecesOf(raw));
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Nothing more is fed to a parse given up on.
      source.destroy();
      reject(new Error(`parse did not finish within ${limits.timeoutMs} ms`));
    }, limits.timeoutMs);
  });
  try {
    return await Promise.race([simpleParser(source, parserOptions(limits)), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The bytes of the attachment parseMessage lists at `partIndex`; null when it lists none there, as
 * for a mail over the parse limit, one that fails to parse and one that passes the deadline. The
 * parse stops once that part is read, and the parts before it are decoded and dropped as they
 * come: only the one part is held.
 */
export async function attachmentBytes(raw: Buffer, partIndex: number, limits: ParseLimits = DEFAULT_PARSE_LIMITS): Promise<Buffer | null> {
  if (raw.length > limits.maxMessageBytes) return null;
  const source = Readable.from(piecesOf(raw));
  const parser = new MailParser(parserOptions(limits));
  return new Promise((resolve) => {
    const done = (bytes: Buffer | null) => {
      clearTimeout(timer);
      source.destroy();
      parser.destroy();
      resolve(bytes);
    };
    const timer = setTimeout(() => done(null), limits.timeoutMs);
    let index = 0;
    parser.on('data', (data: AttachmentStream | { type: 'text' }) => {
      if (data.type !== 'attachment') return;
      if (index++ !== partIndex) {
        (data.content as Readable).resume();
        data.release();
        return;
      }
      const chunks: Buffer[] = [];
      data.content.on('data', (chunk: Buffer) => chunks.push(chunk));
      data.content.once('end', () => done(Buffer.concat(chunks)));
    });
    parser.once('end', () => done(null));
    // Kept after the answer too: a parser stopped part way may still report an error, which must
    // not go unheard (an unheard 'error' ends the process).
    parser.on('error', () => done(null));
    source.pipe(parser);
  });
}

function errorMessage(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${err.message}` : err.message;
  }
  return String(err);
}

function fromMailparser(mail: MailparserMail): ParsedMail {
  const fields = headerFields(mail.headerLines);
  const contentType = rootContentType(mail);
  const html = typeof mail.html === 'string' ? trimJoinArtifacts(mail.html) : null;
  // With skipHtmlToText mailparser still sets text to '' for an html-only message.
  const text = contentType === 'text/html' ? null : (mail.text ?? null);
  const attachments = toAttachments(mail.attachments, html);
  const dateHeader = firstValue(fields, 'date');
  return {
    from: addressList(mail.from)[0] ?? null,
    to: addressList(mail.to),
    cc: addressList(mail.cc),
    reply_to: addressList(mail.replyTo),
    raw_from: allValues(fields, 'from'),
    raw_to: allValues(fields, 'to'),
    subject: mail.subject ?? '',
    date: isoDate(dateHeader),
    date_header: dateHeader,
    message_id: mail.messageId ?? null,
    in_reply_to: mail.inReplyTo ?? null,
    references: mail.references === undefined ? [] : [mail.references].flat(),
    text,
    html,
    attachments,
    parse_error: structureError(mail, contentType, text, html, attachments),
    headers: signalHeaders(fields),
  };
}

/**
 * The same mail with U+0000 removed from every text: PostgreSQL's text and jsonb refuse it (the
 * insert failed, and the message was refused with 451 on every retry), and a NUL carries nothing a
 * reader needs. Attachment contents are bytes and keep theirs, as does the raw source.
 */
export function withoutNul(mail: ParsedMail): ParsedMail {
  return strip(mail) as ParsedMail;
}

function strip(value: unknown): unknown {
  if (typeof value === 'string') return value.includes('\u0000') ? value.replaceAll('\u0000', '') : value;
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return value;
  if (Array.isArray(value)) return value.map(strip);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strip(v)]));
}

function rootContentType(mail: MailparserMail): string {
  const header = mail.headers.get('content-type');
  if (header && typeof header === 'object' && 'value' in header && typeof header.value === 'string') {
    return header.value.toLowerCase();
  }
  return 'text/plain';
}

// mailparser joins body parts with '<br/>\n'; a text part outside multipart/alternative
// contributes an empty string (skipTextToHtml), which leaves a bare joiner at either end.
function trimJoinArtifacts(html: string): string {
  const joiner = '<br/>\n';
  let start = 0;
  let end = html.length;
  while (html.startsWith(joiner, start)) start += joiner.length;
  while (end - joiner.length >= start && html.endsWith(joiner, end)) end -= joiner.length;
  return html.slice(start, end);
}

// mailparser reads a multipart body whose boundary never occurs as preamble and drops it
// silently; flag it so the message is stored as unparsed rather than as an empty one.
function structureError(
  mail: MailparserMail,
  contentType: string,
  text: string | null,
  html: string | null,
  attachments: ParsedAttachment[],
): string | null {
  if (!contentType.startsWith('multipart/')) return null;
  if (text !== null || html !== null || attachments.length > 0) return null;
  const header = mail.headers.get('content-type');
  const params = header && typeof header === 'object' && 'params' in header ? header.params : {};
  if (!params.boundary) return `${contentType} has no boundary parameter`;
  return `${contentType} body has no part delimited by its boundary`;
}

function toAttachments(list: Attachment[], html: string | null): ParsedAttachment[] {
  const referenced = html === null ? new Set<string>() : referencedContentIds(html);
  return list.map((attachment, index) => {
    const contentId = attachment.cid || null;
    return {
      filename: attachment.filename || null,
      content_type: attachment.contentType || 'application/octet-stream',
      size: attachment.content.length,
      content_id: contentId,
      inline: attachment.contentDisposition === 'inline' || (contentId !== null && referenced.has(contentId)),
      content: attachment.content,
      part_index: index,
    };
  });
}

function referencedContentIds(html: string): Set<string> {
  const ids = new Set<string>();
  for (const match of html.matchAll(/\bcid:([^'"\s<>)]{1,256})/gi)) {
    const id = match[1]!;
    ids.add(id);
    try {
      ids.add(decodeURIComponent(id));
    } catch {
      // not percent-encoded; the raw form is already in the set
    }
  }
  return ids;
}

function addressList(field: AddressObject | AddressObject[] | undefined): Address[] {
  if (!field) return [];
  const entries = [field].flat().flatMap((object) => object.value);
  return flattenAddresses(entries);
}

function flattenAddresses(entries: EmailAddress[]): Address[] {
  const result: Address[] = [];
  for (const entry of entries) {
    if (entry.group) {
      result.push(...flattenAddresses(entry.group));
      continue;
    }
    const email = normalizeEmail(entry.address ?? '');
    if (email) result.push({ name: (entry.name ?? '').trim(), email });
  }
  return result;
}

// '' for anything that is not local@domain (group syntax leftovers, "<<garbage>>").
function normalizeEmail(address: string): string {
  const trimmed = address.trim();
  const at = trimmed.lastIndexOf('@');
  if (at <= 0 || at === trimmed.length - 1) return '';
  return trimmed.slice(0, at + 1) + trimmed.slice(at + 1).toLowerCase();
}

function isoDate(header: string | null): string | null {
  if (header === null) return null;
  const date = new Date(header);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

// ---- Raw header access (used for raw_from/raw_to and for the headers-only fallback)

type HeaderFields = Map<string, string[]>;

function headerFields(lines: HeaderLines): HeaderFields {
  const fields: HeaderFields = new Map();
  for (const { line } of lines) {
    // mailparser keeps header lines as binary strings; 8-bit header bytes are UTF-8 in practice.
    addField(fields, Buffer.from(line, 'binary').toString('utf8'));
  }
  return fields;
}

function addField(fields: HeaderFields, line: string): void {
  const colon = line.indexOf(':');
  if (colon <= 0) return;
  const name = line.slice(0, colon).trim().toLowerCase();
  if (!/^[\x21-\x39\x3b-\x7e]+$/.test(name)) return;
  const value = unfold(line.slice(colon + 1)).trim();
  const values = fields.get(name);
  if (values) values.push(value);
  else fields.set(name, [value]);
}

function unfold(value: string): string {
  return value.replace(/\r?\n(?=[ \t])/g, '');
}

function firstValue(fields: HeaderFields, name: string): string | null {
  return fields.get(name)?.[0] ?? null;
}

function allValues(fields: HeaderFields, name: string): string {
  return (fields.get(name) ?? []).join(', ');
}

function headerBlock(raw: Buffer, maxBytes: number): string {
  const head = raw.subarray(0, maxBytes);
  const crlf = head.indexOf('\r\n\r\n');
  const lf = head.indexOf('\n\n');
  const ends = [crlf, lf].filter((index) => index >= 0);
  const end = ends.length > 0 ? Math.min(...ends) : head.length;
  return head.subarray(0, end).toString('utf8');
}

function parseHeaderBlock(block: string): HeaderFields {
  const fields: HeaderFields = new Map();
  for (const line of unfold(block).split(/\r?\n/)) addField(fields, line);
  return fields;
}

function parseHeadersOnly(raw: Buffer, limits: ParseLimits, reason: string): ParsedMail {
  const fields = parseHeaderBlock(headerBlock(raw, limits.maxHeaderBytes));
  const dateHeader = firstValue(fields, 'date');
  const addresses = (name: string): Address[] => rawAddresses(allValues(fields, name));
  return {
    from: addresses('from')[0] ?? null,
    to: addresses('to'),
    cc: addresses('cc'),
    reply_to: addresses('reply-to'),
    raw_from: allValues(fields, 'from'),
    raw_to: allValues(fields, 'to'),
    subject: decodeEncodedWords(firstValue(fields, 'subject') ?? '').trim(),
    date: isoDate(dateHeader),
    date_header: dateHeader,
    message_id: firstMessageId(firstValue(fields, 'message-id')),
    in_reply_to: firstMessageId(firstValue(fields, 'in-reply-to')),
    references: messageIds(firstValue(fields, 'references') ?? ''),
    text: null,
    html: null,
    attachments: [],
    parse_error: reason,
    headers: signalHeaders(fields),
  };
}

/** A message known only by its raw source: every parsed field empty, and `parse_error` saying why. */
export function unparsedMail(reason: string): ParsedMail {
  return {
    from: null, to: [], cc: [], reply_to: [], raw_from: '', raw_to: '', subject: '', date: null, date_header: null,
    message_id: null, in_reply_to: null, references: [], text: null, html: null, attachments: [], parse_error: reason,
  };
}

function rawAddresses(value: string): Address[] {
  if (!value) return [];
  const entries = addressparser(value, { flatten: true });
  return flattenAddresses(entries.map((entry) => ({ name: decodeEncodedWords(entry.name), address: entry.address })));
}

function messageIds(value: string): string[] {
  return [...value.matchAll(/<[^<>\s]{1,998}>/g)].map((match) => match[0]);
}

function firstMessageId(value: string | null): string | null {
  if (value === null) return null;
  const [first] = messageIds(value);
  if (first) return first;
  const bare = value.trim().split(/\s+/)[0];
  return bare ? `<${bare}>` : null;
}

// ---- RFC 2047 encoded words, for the fallback path only (mailparser decodes them otherwise)

const ENCODED_WORD = /=\?([^?\s]{1,64})\?([bq])\?([^?\s]*)\?=/gi;

function decodeEncodedWords(value: string): string {
  const parts: Array<string | { charset: string; chunks: Buffer[] }> = [];
  let last = 0;
  for (const match of value.matchAll(ENCODED_WORD)) {
    const gap = value.slice(last, match.index);
    const previous = parts.at(-1);
    const charset = match[1]!.split('*')[0]!.toLowerCase();
    const bytes = wordBytes(match[2]!, match[3]!);
    // Whitespace between two encoded words is not part of the text (RFC 2047 section 6.2).
    const adjacent = typeof previous === 'object' && gap.trim() === '';
    if (!adjacent && gap) parts.push(gap);
    if (adjacent && previous.charset === charset) previous.chunks.push(bytes);
    else parts.push({ charset, chunks: [bytes] });
    last = match.index + match[0].length;
  }
  const decoded = parts.map((part) =>
    typeof part === 'string' ? part : decodeCharset(Buffer.concat(part.chunks), part.charset),
  );
  return decoded.join('') + value.slice(last);
}

function wordBytes(encoding: string, text: string): Buffer {
  if (encoding.toLowerCase() === 'b') return Buffer.from(text, 'base64');
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text[i] === '=' ? text.slice(i + 1, i + 3) : '';
    if (/^[0-9a-f]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(text[i] === '_' ? 0x20 : text.charCodeAt(i) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

// windows-1252 at 0x80-0x9f. Node 20's TextDecoder('windows-1252') returns these bytes as
// ISO-8859-1 control characters; senders labelling ISO-8859-1 mean windows-1252 as well.
const WINDOWS_1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
const WESTERN_SINGLE_BYTE = /^(?:windows-1252|cp1252|iso-8859-1|iso8859-1|iso_8859-1|latin1|l1|us-ascii|ascii)$/;

function decodeCharset(bytes: Buffer, charset: string): string {
  if (WESTERN_SINGLE_BYTE.test(charset)) {
    return Array.from(bytes, (byte) => (byte >= 0x80 && byte < 0xa0 ? WINDOWS_1252_HIGH[byte - 0x80] : String.fromCharCode(byte))).join('');
  }
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return bytes.toString('utf8');
  }
}
