// The attachments of a large send body, decoded from the request's bytes without the body ever
// being one string. Parsed whole, a 35 MB body was held three times over (its bytes, its text and
// the parsed strings) before its 25 MiB were decoded. Here each long base64 string is found in the
// bytes, left out of the text JSON.parse reads (a placeholder stands in its place), and decoded in
// bounded chunks, in place, only where the body's schema has it: `attachments[i].content`. A long
// string anywhere else is put back as it was.
import crypto from 'node:crypto';

/** Strings shorter than this are parsed as usual: lifting them saves nothing worth the scan. */
export const LIFT_MIN_BYTES = 64 * 1024;
const DECODE_CHUNK = 1024 * 1024; // a multiple of 4: base64 groups never straddle two chunks

const BASE64 = new Uint8Array(256);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') BASE64[c.charCodeAt(0)] = 1;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const EQUALS = 0x3d;

type Span = { start: number; end: number };

/** The body's text with its long base64 strings lifted out, and what each placeholder stands for. */
export type Lifted = { text: string; spans: Map<string, Span>; raw: Buffer };

/** Plain base64 from `start` to `end`: the alphabet, then at most two `=`; no escapes, no whitespace. */
function isPlainBase64(raw: Buffer, start: number, end: number): boolean {
  let stop = end;
  while (stop > start && end - stop < 2 && raw[stop - 1] === EQUALS) stop--;
  for (let i = start; i < stop; i++) if (BASE64[raw[i]!] === 0) return false;
  return true;
}

/** Where the string opened by the quote at `open` closes: the next quote no backslash escapes. */
function closingQuote(raw: Buffer, open: number): number {
  for (let at = raw.indexOf(QUOTE, open + 1); at >= 0; at = raw.indexOf(QUOTE, at + 1)) {
    let slashes = 0;
    while (raw[at - 1 - slashes] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return at;
  }
  return -1;
}

/**
 * The body's text for JSON.parse with every string of `minBytes` or more of plain base64 replaced by
 * a placeholder no client can guess. Quotes and backslashes are ASCII, never inside a UTF-8
 * sequence, so the text is cut only between whole characters.
 */
export function liftBase64Strings(raw: Buffer, minBytes = LIFT_MIN_BYTES): Lifted | null {
  const spans = new Map<string, Span>();
  const nonce = crypto.randomBytes(12).toString('hex');
  const parts: string[] = [];
  let copied = 0;
  for (let open = raw.indexOf(QUOTE); open >= 0; ) {
    const close = closingQuote(raw, open);
    if (close < 0) break; // not JSON: JSON.parse says so
    if (close - open - 1 >= minBytes && isPlainBase64(raw, open + 1, close)) {
      const placeholder = `lifted:${nonce}:${spans.size}`;
      parts.push(raw.toString('utf8', copied, open + 1), placeholder);
      spans.set(placeholder, { start: open + 1, end: close });
      copied = close;
    }
    open = raw.indexOf(QUOTE, close + 1);
  }
  if (spans.size === 0) return null;
  parts.push(raw.toString('utf8', copied));
  return { text: parts.join(''), spans, raw };
}

/**
 * The bytes a span of base64 stands for (as Buffer.from(text, 'base64') would give), decoded a
 * chunk at a time into the span's own first bytes: no second buffer of the attachment's size is
 * allocated. Safe because each chunk is read before its bytes are written, and its bytes land no
 * further than where it was read. The span's text is gone after: a span is decoded once.
 */
export function decodeSpan(raw: Buffer, { start, end }: Span): Buffer {
  let written = 0;
  for (let at = start; at < end; at += DECODE_CHUNK) {
    written += raw.write(raw.toString('latin1', at, Math.min(end, at + DECODE_CHUNK)), start + written, 'base64');
  }
  return raw.subarray(start, start + written);
}

/**
 * Puts the parsed body back together: a placeholder at `attachments[i].content` stays for the
 * schema to check as the string it stands for, its bytes decoded into the map returned; one
 * anywhere else becomes the string it replaced.
 */
export function restoreLifted(body: unknown, lifted: Lifted): Map<string, Buffer> {
  const decoded = new Map<string, Buffer>();
  const attachments = isObject(body) && Array.isArray(body.attachments) ? body.attachments : [];
  for (const a of attachments) {
    if (isObject(a) && typeof a.content === 'string' && lifted.spans.has(a.content) && !decoded.has(a.content)) {
      decoded.set(a.content, decodeSpan(lifted.raw, lifted.spans.get(a.content)!));
    }
  }
  const putBack = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const span = lifted.spans.get(v);
      return span && !decoded.has(v) ? lifted.raw.toString('latin1', span.start, span.end) : v;
    }
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) v[i] = putBack(v[i]);
    } else if (isObject(v)) {
      for (const k of Object.keys(v)) {
        const span = lifted.spans.get(k);
        const value = putBack(v[k]);
        if (!span) v[k] = value;
        else {
          delete v[k];
          v[lifted.raw.toString('latin1', span.start, span.end)] = value;
        }
      }
    }
    return v;
  };
  putBack(body);
  return decoded;
}

/** Once the schema has passed the body: each attachment's placeholder becomes its decoded bytes. */
export function placeDecoded(body: unknown, decoded: Map<string, Buffer>): void {
  if (!isObject(body) || !Array.isArray(body.attachments)) return;
  for (const a of body.attachments) {
    if (isObject(a) && typeof a.content === 'string' && decoded.has(a.content)) a.content = decoded.get(a.content);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
