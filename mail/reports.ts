// Reading what comes back about a sent mail: delivery status notifications (RFC 3464, and the
// plain-text shapes of MTAs that do not follow it) and abuse feedback reports (ARF, RFC 5965).
// Pure: raw bytes in, a report or null out. It walks the MIME tree itself rather than taking
// mailparser's view, which merges text/* report parts into the body and drops the structure this
// needs. Bounded: at most MAX_PARTS parts and MAX_SCAN bytes of any text are looked at.

export type ReportKind = 'bounced' | 'delayed' | 'complained' | 'delivered';

export type ReportRecipient = {
  /** Lower-cased address. */
  email: string;
  kind: ReportKind;
  /** For bounces and delays: hard (the address will not take mail) or soft (try later). */
  type: 'hard' | 'soft' | null;
  /** RFC 3463 enhanced status code (`5.1.1`), or the SMTP reply code when that is all there is. */
  status: string | null;
  diagnostic: string | null;
};

export type OriginalHeaders = {
  message_id: string | null;
  return_path: string | null;
  review_id: string | null;
  to: string[];
};

export type DeliveryReport = {
  format: 'dsn' | 'arf' | 'text';
  recipients: ReportRecipient[];
  /** The headers of the reported message, when the report carries them. */
  original: OriginalHeaders;
  feedback_type: string | null;
};

const MAX_PARTS = 50;
const MAX_SCAN = 256 * 1024;

type Part = { headers: Map<string, string>; body: Buffer };

/** The report a message is, or null when it is not one this can read. */
export function parseReport(raw: Buffer, envelope_from: string | null = null): DeliveryReport | null {
  const root = splitPart(raw);
  const parts = flatten(root);
  const type = (h: Part) => mediaType(h.headers.get('content-type'));
  const status = parts.find((p) => ['message/delivery-status', 'message/global-delivery-status'].includes(type(p)));
  const feedback = parts.find((p) => type(p) === 'message/feedback-report');
  const originalPart = parts.find((p) => ['message/rfc822', 'text/rfc822-headers', 'message/rfc822-headers', 'message/global', 'message/global-headers'].includes(type(p)));
  const original = originalPart ? originalHeaders(decode(originalPart).toString('utf8')) : null;

  if (feedback) {
    const f = fieldBlocks(decode(feedback).toString('utf8'))[0] ?? new Map();
    const orig = original ?? emptyOriginal();
    const rcpt = addressOf(f.get('original-rcpt-to') ?? '') ?? orig.to[0] ?? null;
    return {
      format: 'arf',
      feedback_type: (f.get('feedback-type') ?? 'abuse').trim().toLowerCase(),
      recipients: rcpt ? [{ email: rcpt, kind: 'complained', type: null, status: null, diagnostic: f.get('user-agent') ?? null }] : [],
      original: orig,
    };
  }
  if (status) {
    const blocks = fieldBlocks(decode(status).toString('utf8'));
    const recipients: ReportRecipient[] = [];
    // The per-message block names no recipient and is passed over.
    for (const b of blocks) {
      const email = addressOf(b.get('final-recipient') ?? b.get('original-recipient') ?? '');
      const action = (b.get('action') ?? '').trim().toLowerCase();
      if (!email || !action) continue;
      const code = statusCode(b.get('status') ?? '') ?? statusCode(b.get('diagnostic-code') ?? '');
      const diagnostic = diagnosticText(b.get('diagnostic-code') ?? null);
      if (action === 'failed') recipients.push({ email, kind: 'bounced', type: classify(code), status: code, diagnostic });
      else if (action === 'delayed') recipients.push({ email, kind: 'delayed', type: 'soft', status: code, diagnostic });
      else if (action === 'delivered' || action === 'relayed' || action === 'expanded') recipients.push({ email, kind: 'delivered', type: null, status: code, diagnostic });
    }
    const textual = original ?? inlineOriginal(textOf(parts));
    return { format: 'dsn', feedback_type: null, recipients, original: textual };
  }
  return textBounce(root, parts, envelope_from);
}

// ---- The plain-text shapes (Exim without DSNs, qmail, older Exchange and hosted relays)

const BOUNCE_SUBJECT = /undeliver|undelivered|delivery (status notification|failure|failed|has failed|incomplete)|returned mail|failure notice|mail delivery (failed|system|subsystem)|non[- ]?delivery|could not be delivered|delivery problem/i;
const DELAY_SUBJECT = /\b(delay|delayed|warning: message|still being retried|not yet been delivered)\b/i;
const DAEMON = /^(mailer-daemon|postmaster|mail-daemon|mailerdaemon)@/i;

function textBounce(root: Part, parts: Part[], envelopeFrom: string | null): DeliveryReport | null {
  const subject = root.headers.get('subject') ?? '';
  const from = addressOf(root.headers.get('from') ?? '') ?? '';
  const nullSender = envelopeFrom === null || envelopeFrom === '';
  if (!(BOUNCE_SUBJECT.test(subject) && (nullSender || DAEMON.test(from))) && !root.headers.has('x-failed-recipients')) return null;
  const text = textOf(parts);
  const delayed = DELAY_SUBJECT.test(subject) || /\bwill (continue|keep) (trying|retrying)|not yet been delivered|delivery (has been|is) delayed\b/i.test(text);
  const listed = (root.headers.get('x-failed-recipients') ?? '').split(',').map((a) => addressOf(a)).filter((a): a is string => !!a);
  const found = listed.length ? listed : candidates(text);
  const recipients = found.map((email): ReportRecipient => {
    const near = around(text, email);
    const code = statusCode(near) ?? replyCode(near);
    const diagnostic = diagnosticLine(near);
    return delayed
      ? { email, kind: 'delayed', type: 'soft', status: code, diagnostic }
      : { email, kind: 'bounced', type: classify(code), status: code, diagnostic };
  });
  if (recipients.length === 0) return null;
  return { format: 'text', feedback_type: null, recipients, original: inlineOriginal(text) };
}

/** Addresses a text bounce names as failed: `<a@b>:` (qmail), an indented address line (Exim), `RCPT TO:<a@b>`. */
function candidates(text: string): string[] {
  const out = new Set<string>();
  const patterns = [/^<([^<>\s@]+@[^<>\s@]+)>:\s*$/gm, /^[ \t]+([^<>\s@:]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,})[ \t]*$/gm, /RCPT TO:\s*<([^<>\s@]+@[^<>\s@]+)>/gi, /^(?:Recipient|Failed recipient|Original-Recipient|To)[^:\n]*:\s*<?([^<>\s@]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,})>?\s*$/gim];
  for (const re of patterns) for (const m of text.matchAll(re)) out.add(m[1]!.toLowerCase());
  return [...out].slice(0, 50);
}

/** The text following an address's first mention, where MTAs write its error. */
function around(text: string, email: string): string {
  const i = text.toLowerCase().indexOf(email);
  return i < 0 ? text.slice(0, 2000) : text.slice(i, i + 1000);
}

function diagnosticLine(near: string): string | null {
  const m = /\b[45]\d\d[ -](?:[245]\.\d{1,3}\.\d{1,3}\s)?[^\n]{0,300}/.exec(near);
  return m ? m[0].trim() : null;
}

// ---- Status codes and their class

function statusCode(text: string): string | null {
  const m = /\b([245])\.(\d{1,3})\.(\d{1,3})\b/.exec(text);
  return m ? `${m[1]}.${m[2]}.${m[3]}` : null;
}

function replyCode(text: string): string | null {
  const m = /\b([45])([0-5])(\d)\b/.exec(text);
  return m ? m[0] : null;
}

/**
 * Hard when the address will not take mail: a permanent (5.x.x / 5xx) failure, except a full
 * mailbox (5.2.2) and a message that only timed out in a queue (4.4.7 / 5.4.7), which are soft
 * like every temporary (4.x.x) one. An unknown code counts as hard: the MTA gave up.
 */
export function classify(code: string | null): 'hard' | 'soft' {
  if (!code) return 'hard';
  if (code === '5.2.2' || code === '5.4.7') return 'soft';
  return code.startsWith('4') ? 'soft' : 'hard';
}

function diagnosticText(value: string | null): string | null {
  if (!value) return null;
  const semi = value.indexOf(';');
  return (semi >= 0 && semi < 20 ? value.slice(semi + 1) : value).trim().slice(0, 1000) || null;
}

// ---- The reported message's headers

function emptyOriginal(): OriginalHeaders {
  return { message_id: null, return_path: null, review_id: null, to: [] };
}

function originalHeaders(text: string): OriginalHeaders {
  const end = text.search(/\r?\n\r?\n/);
  return headerView(parseFields(end < 0 ? text : text.slice(0, end)));
}

/** A text bounce that quotes the original's headers inline ("This is a copy of the message"). */
function inlineOriginal(text: string): OriginalHeaders {
  const at = text.search(/^(Return-Path|Received|Message-ID|Message-Id|X-Review-Id):/im);
  if (at < 0) return emptyOriginal();
  return originalHeaders(text.slice(at));
}

function headerView(f: Map<string, string>): OriginalHeaders {
  const mid = /<[^<>\s]{1,998}>/.exec(f.get('message-id') ?? '');
  return {
    message_id: mid ? mid[0] : null,
    return_path: addressOf(f.get('return-path') ?? ''),
    review_id: (f.get('x-review-id') ?? '').trim() || null,
    to: (f.get('to') ?? '').split(',').map((a) => addressOf(a)).filter((a): a is string => !!a),
  };
}

// ---- A small MIME walk

function splitPart(raw: Buffer): Part {
  const text = raw.subarray(0, MAX_SCAN * 4).toString('latin1');
  const m = /\r?\n\r?\n/.exec(text);
  const head = m ? text.slice(0, m.index) : text;
  const bodyStart = m ? m.index + m[0].length : text.length;
  return { headers: parseFields(head), body: raw.subarray(bodyStart, Math.min(raw.length, MAX_SCAN * 4)) };
}

function flatten(root: Part): Part[] {
  const out: Part[] = [];
  const walk = (p: Part, depth: number) => {
    if (out.length >= MAX_PARTS) return;
    out.push(p);
    const ct = p.headers.get('content-type') ?? '';
    if (depth > 5 || !mediaType(ct).startsWith('multipart/')) return;
    const boundary = param(ct, 'boundary');
    if (!boundary) return;
    const body = p.body.toString('latin1');
    const delimiter = `--${boundary}`;
    const pieces = body.split(new RegExp(`(?:^|\\r?\\n)${escapeRe(delimiter)}(?:--)?[ \\t]*(?=\\r?\\n|$)`));
    for (const piece of pieces.slice(1)) {
      const trimmed = piece.replace(/^\r?\n/, '');
      if (trimmed.trim() === '') continue;
      walk(splitPart(Buffer.from(trimmed, 'latin1')), depth + 1);
    }
  };
  walk(root, 0);
  return out;
}

function decode(p: Part): Buffer {
  const cte = (p.headers.get('content-transfer-encoding') ?? '').trim().toLowerCase();
  if (cte === 'base64') return Buffer.from(p.body.toString('latin1').replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
  if (cte === 'quoted-printable') {
    const s = p.body.toString('latin1').replace(/=\r?\n/g, '');
    return Buffer.from(s.replace(/=([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1');
  }
  return p.body;
}

/** The text/plain parts, joined: what a text bounce says. */
function textOf(parts: Part[]): string {
  const texts = parts.filter((p) => {
    const t = mediaType(p.headers.get('content-type'));
    return t === 'text/plain' || (t === '' && p === parts[0]);
  });
  return texts.map((p) => decode(p).toString('utf8')).join('\n').slice(0, MAX_SCAN);
}

/** Header or DSN field lines (folded lines joined), names lower-cased, first value kept. */
function parseFields(block: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of block.replace(/\r?\n(?=[ \t])/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!/^[\x21-\x39\x3b-\x7e]+$/.test(name) || fields.has(name)) continue;
    fields.set(name, line.slice(colon + 1).trim());
  }
  return fields;
}

/** A delivery-status body: the per-message block, then one block per recipient. */
function fieldBlocks(text: string): Map<string, string>[] {
  return text.slice(0, MAX_SCAN).split(/\r?\n[ \t]*\r?\n/).map(parseFields).filter((m) => m.size > 0);
}

function mediaType(ct: string | undefined): string {
  return (ct ?? '').split(';')[0]!.trim().toLowerCase();
}

function param(ct: string, name: string): string | null {
  const m = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, 'i').exec(ct);
  return m ? (m[1] ?? m[2] ?? null) : null;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The address in `rfc822; a@b`, `<a@b>`, `"Name" <a@b>` or a bare `a@b`, lower-cased. */
export function addressOf(value: string): string | null {
  const v = value.includes(';') && /^\s*[A-Za-z0-9-]+\s*;/.test(value) ? value.slice(value.indexOf(';') + 1) : value;
  const angle = /<([^<>\s]+@[^<>\s]+)>/.exec(v);
  const bare = angle ? angle[1]! : /([^\s<>"(),;:]+@[^\s<>"(),;:]+)/.exec(v)?.[1];
  return bare ? bare.replace(/\.$/, '').toLowerCase() : null;
}

/** Whether a received message may be a report, from what is cheap to look at: read it only then. */
export function mayBeReport(p: { envelope_from: string | null; headers?: Record<string, string>; subject: string }): boolean {
  const ct = (p.headers?.['content-type'] ?? '').toLowerCase();
  if (ct.startsWith('multipart/report')) return true;
  if (p.headers?.['x-failed-recipients'] !== undefined) return true;
  return (p.envelope_from === null || p.envelope_from === '') && /undeliver|deliver|returned|failure|non[- ]?delivery/i.test(p.subject);
}
