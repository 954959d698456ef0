// Derived views of a parsed message: the new content of a reply (quoted history and
// signatures removed), a plain-text rendering of html, and one-time codes and links.
// Everything here runs on untrusted input of up to the message size limit, so html is read
// with a linear tag scanner (no DOM library) and no regex may backtrack over unbounded runs.

export interface MessageContent {
  subject: string;
  text: string | null;
  html: string | null;
}

// ---- HTML scanning

type HtmlToken =
  | { kind: 'text'; start: number; end: number }
  | { kind: 'tag'; name: string; closing: boolean; selfClosing: boolean; start: number; end: number; attrs: string };

// Elements whose content is not markup: a '<' inside them does not start a tag. Maps, not
// object literals, because tag names come from the message ("<constructor>").
const RAW_TEXT_CLOSERS = new Map<string, RegExp>([
  ['script', /<\/script[\s/>]/gi],
  ['style', /<\/style[\s/>]/gi],
  ['title', /<\/title[\s/>]/gi],
  ['textarea', /<\/textarea[\s/>]/gi],
  ['xmp', /<\/xmp[\s/>]/gi],
]);

function* tokenizeHtml(html: string): Generator<HtmlToken> {
  const length = html.length;
  let i = 0;
  while (i < length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      yield { kind: 'text', start: i, end: length };
      return;
    }
    if (lt > i) yield { kind: 'text', start: i, end: lt };
    if (html.startsWith('<!--', lt)) {
      const close = html.indexOf('-->', lt + 4);
      i = close < 0 ? length : close + 3;
      continue;
    }
    const next = html[lt + 1];
    if (next === '!' || next === '?') {
      const gt = html.indexOf('>', lt);
      i = gt < 0 ? length : gt + 1;
      continue;
    }
    const closing = next === '/';
    const nameStart = closing ? lt + 2 : lt + 1;
    const nameEnd = scanTagName(html, nameStart);
    if (nameEnd === nameStart) {
      yield { kind: 'text', start: lt, end: lt + 1 };
      i = lt + 1;
      continue;
    }
    const end = scanTagEnd(html, nameEnd);
    const name = html.slice(nameStart, nameEnd).toLowerCase();
    const inner = html.slice(nameEnd, html[end - 1] === '>' ? end - 1 : end);
    yield { kind: 'tag', name, closing, selfClosing: inner.endsWith('/'), start: lt, end, attrs: closing ? '' : inner };
    i = end;
    const closer = closing ? undefined : RAW_TEXT_CLOSERS.get(name);
    if (closer) {
      closer.lastIndex = i;
      const found = closer.exec(html);
      const contentEnd = found ? found.index : length;
      if (contentEnd > i) yield { kind: 'text', start: i, end: contentEnd };
      i = contentEnd;
    }
  }
}

function isLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

function isTagNameChar(code: number): boolean {
  return isLetter(code) || (code >= 0x30 && code <= 0x3a) || code === 0x2d;
}

function scanTagName(html: string, start: number): number {
  if (!isLetter(html.charCodeAt(start))) return start;
  let i = start + 1;
  while (i < html.length && isTagNameChar(html.charCodeAt(i))) i++;
  return i;
}

// Index just past the '>' closing a tag; a quoted attribute value may contain '>'.
function scanTagEnd(html: string, from: number): number {
  let afterEquals = false;
  for (let i = from; i < html.length; i++) {
    const c = html[i]!;
    if (c === '>') return i + 1;
    if ((c === '"' || c === "'") && afterEquals) {
      const close = html.indexOf(c, i + 1);
      if (close < 0) return html.length;
      i = close;
      afterEquals = false;
    } else if (c === '=') {
      afterEquals = true;
    } else if (!/\s/.test(c)) {
      afterEquals = false;
    }
  }
  return html.length;
}

function parseAttributes(attrs: string): Map<string, string> {
  const result = new Map<string, string>();
  for (const match of attrs.matchAll(/([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
    const name = match[1]!.toLowerCase();
    if (!result.has(name)) result.set(name, decodeEntities(match[2] ?? match[3] ?? match[4] ?? ''));
  }
  return result;
}

// ---- Entities

const LATIN1_ENTITY_NAMES = (
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 ' +
  'acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml ' +
  'Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde ' +
  'Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ' +
  'ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide ' +
  'oslash ugrave uacute ucirc uuml yacute thorn yuml'
).split(' ');

const NAMED_ENTITIES = new Map<string, string>([
  ...LATIN1_ENTITY_NAMES.map((name, index): [string, string] => [name, String.fromCharCode(160 + index)]),
  ['amp', '&'], ['lt', '<'], ['gt', '>'], ['quot', '"'], ['apos', "'"],
  ['ndash', '\u2013'], ['mdash', '\u2014'], ['lsquo', '\u2018'], ['rsquo', '\u2019'], ['sbquo', '\u201a'],
  ['ldquo', '\u201c'], ['rdquo', '\u201d'], ['bdquo', '\u201e'], ['bull', '\u2022'], ['hellip', '\u2026'],
  ['euro', '\u20ac'], ['trade', '\u2122'], ['larr', '\u2190'], ['rarr', '\u2192'], ['ensp', '\u2002'],
  ['emsp', '\u2003'], ['thinsp', '\u2009'], ['zwnj', '\u200c'], ['zwj', '\u200d'], ['lrm', '\u200e'],
  ['rlm', '\u200f'], ['dagger', '\u2020'], ['prime', '\u2032'], ['oelig', '\u0153'], ['scaron', '\u0161'],
]);

const LEGACY_ENTITIES = new Set(['amp', 'lt', 'gt', 'quot', 'nbsp', 'copy', 'reg']);
// windows-1252 at 0x80-0x9f. Node 20's TextDecoder('windows-1252') returns these bytes as
// ISO-8859-1 control characters, so the table is spelled out.
const WINDOWS_1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(
    /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}))(;?)/g,
    (
      whole: string,
      decimal: string | undefined,
      hex: string | undefined,
      name: string | undefined,
      semicolon: string,
      offset: number,
    ) => {
      if (name !== undefined) {
        const value = NAMED_ENTITIES.get(name);
        if (value === undefined) return whole;
        // Without the semicolon only the classic short entities count, as in browsers,
        // and never before '=' so that "&copy=1" in a URL stays as written.
        if (semicolon || (LEGACY_ENTITIES.has(name) && text[offset + whole.length] !== '=')) return value;
        return whole;
      }
      return codePointText(decimal !== undefined ? parseInt(decimal, 10) : parseInt(hex!, 16));
    },
  );
}

function codePointText(code: number): string {
  // Browsers read &#128;-&#159; as windows-1252, which is what senders meant.
  if (code >= 0x80 && code <= 0x9f) return WINDOWS_1252_HIGH[code - 0x80]!;
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
  return String.fromCodePoint(code);
}

// ---- HTML to text

const BLOCK_TAGS = new Set(
  ('address article aside blockquote center dd details dialog div dl dt fieldset figcaption figure footer form ' +
    'h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section summary table tbody tfoot thead tr ul').split(' '),
);
const PARAGRAPH_TAGS = new Set('blockquote h1 h2 h3 h4 h5 h6 ol p pre table ul'.split(' '));
const SKIPPED_TAGS = new Set(['head', 'script', 'style', 'template', 'title', 'xmp']);
const INVISIBLE_CHARS = /[\u00ad\u034f\u200b-\u200d\u2060\ufeff]/g;

/** Plain-text rendering of html: scripts and styles dropped, blocks on their own lines, entities decoded. */
export function htmlToText(html: string): string {
  const out: string[] = [];
  // Line breaks owed before the next visible text: block edges ask for at least one (two
  // around paragraphs) without stacking up, each <br> adds one.
  let breaks = 0;
  const write = (text: string): void => {
    if (text.trim() === '') {
      if (breaks === 0) out.push(text);
      return;
    }
    if (breaks > 0 && out.length > 0) out.push('\n'.repeat(breaks));
    breaks = 0;
    out.push(text);
  };
  let skipping: string | null = null;
  let preDepth = 0;
  for (const token of tokenizeHtml(html)) {
    if (token.kind === 'text') {
      if (skipping) continue;
      const text = decodeEntities(html.slice(token.start, token.end));
      write(preDepth > 0 ? text : text.replace(/[ \t\r\n\f]+/g, ' '));
      continue;
    }
    const { name, closing } = token;
    if (skipping) {
      const bodyStarts = skipping === 'head' && name === 'body' && !closing;
      if ((closing && name === skipping) || bodyStarts) skipping = null;
      continue;
    }
    if (!closing && !token.selfClosing && SKIPPED_TAGS.has(name)) {
      skipping = name;
      continue;
    }
    if (name === 'pre') preDepth = Math.max(0, preDepth + (closing ? -1 : 1));
    if (name === 'br') breaks++;
    else if (BLOCK_TAGS.has(name)) breaks = Math.max(breaks, PARAGRAPH_TAGS.has(name) ? 2 : 1);
    else if (name === 'td' || name === 'th') write(' ');
  }
  return tidyLines(out.join('').replace(INVISIBLE_CHARS, '').replace(/\u00a0/g, ' '));
}

function tidyLines(text: string): string {
  const lines = text.split('\n').map((line) => line.replace(/[ \t]+/g, ' ').trim());
  return lines.join('\n').replace(/\n{3,}/g, '\n\n').trim();
}

// ---- Quoted history and signatures in text

const ATTRIBUTION_LINE = [
  /^on\s.{1,400}\swrote:$/i,
  /^le\s.{1,400}\sa écrit\s?:$/i,
  /^am\s.{1,400}\sschrieb\s[^:]{1,200}:$/i,
  /^el\s.{1,400}\sescribió:$/i,
  /^il\s.{1,400}\sha scritto:$/i,
  /^op\s.{1,400}\sschreef\s[^:]{1,200}:$/i,
  /^em\s.{1,400}\sescreveu:$/i,
  /^den\s.{1,400}\sskrev\s[^:]{1,200}:$/i,
  /^.{1,200}<[^<>\s]{1,200}@[^<>\s]{1,200}>\s(?:wrote|a écrit|schrieb|escribió|ha scritto|skrev):$/i,
];
const ATTRIBUTION_START = /^(?:on|le|am|el|il|op|em|den)\s/i;
const ORIGINAL_MESSAGE =
  /^-{2,}\s*(?:original message|ursprüngliche nachricht|message d'origine|mensaje original|messaggio originale|oorspronkelijk bericht|mensagem original)\s*-{2,}$/i;
const FORWARD_MARKER =
  /^(?:-{2,}\s*(?:forwarded message|weitergeleitete nachricht|message transféré|mensaje reenviado|messaggio inoltrato|doorgestuurd bericht|mensagem encaminhada)\s*-{2,}|begin forwarded message:)$/i;
const HEADER_FROM = /^\*?(?:from|von|de|da|van|från|fra|od)\s?:\*?\s+\S/i;
const HEADER_SENT = /^\*?(?:sent|date|gesendet|datum|envoyé|enviado|fecha|inviato|data|verzonden|skickat|sendt|wysłano)\s?:/i;
const MOBILE_FOOTER =
  /^(?:sent from my [\w -]{1,40}|sent from (?:mail|outlook|yahoo mail|aol mail|gmail|proton mail|protonmail)\b.{0,40}|get outlook for (?:ios|android)\b.{0,20}|sent with proton mail.{0,40}|envoyé de mon [\w -]{1,40}|von meinem [\w -]{1,40} gesendet|enviado desde mi [\w -]{1,40}|inviato da [\w -]{1,40}|verzonden vanaf mijn [\w -]{1,40})$/i;
const MAX_MARKER_LINE = 600;

function clean(line: string): string {
  return line.length > MAX_MARKER_LINE ? '' : line.trim();
}

function isQuoted(line: string): boolean {
  return /^[ \t]*>/.test(line);
}

function isBlank(line: string): boolean {
  return line.trim() === '';
}

function isSignatureStart(line: string): boolean {
  return /^--[ \t]*$/.test(line) || MOBILE_FOOTER.test(clean(line));
}

function isForwardMarker(line: string): boolean {
  return FORWARD_MARKER.test(clean(line));
}

/** Number of lines an attribution ("On ..., X wrote:") starting at `index` spans, or 0. */
function attributionLength(lines: string[], index: number): number {
  let joined = clean(lines[index]!);
  if (!joined) return 0;
  for (let span = 1; span <= 3 && index + span <= lines.length; span++) {
    if (joined.endsWith(':') && ATTRIBUTION_LINE.some((pattern) => pattern.test(joined))) return span;
    if (!ATTRIBUTION_START.test(joined) || index + span >= lines.length) return 0;
    // Clients wrap a long attribution, typically before the address or before "wrote:".
    joined = `${joined} ${clean(lines[index + span]!)}`;
  }
  return 0;
}

function isHistoryHeader(lines: string[], index: number): boolean {
  const line = clean(lines[index]!);
  if (ORIGINAL_MESSAGE.test(line)) return true;
  if (/^_{10,}$/.test(line)) {
    const next = lines.slice(index + 1, index + 4).find((candidate) => !isBlank(candidate));
    return next !== undefined && HEADER_FROM.test(clean(next));
  }
  if (!HEADER_FROM.test(line)) return false;
  return lines.slice(index + 1, index + 5).some((candidate) => HEADER_SENT.test(clean(candidate)));
}

// ahead[i]: an unquoted, non-blank line follows at or after i before any signature,
// i.e. a quote starting at i is answered inline rather than being trailing history.
function unquotedContentAhead(lines: string[]): boolean[] {
  const ahead = new Array<boolean>(lines.length + 1).fill(false);
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (isSignatureStart(line) || isForwardMarker(line)) ahead[i] = false;
    else if (isBlank(line) || isQuoted(line)) ahead[i] = ahead[i + 1]!;
    else ahead[i] = true;
  }
  return ahead;
}

function indexOfForward(lines: string[], from: number): number {
  for (let i = from; i < lines.length; i++) if (isForwardMarker(lines[i]!)) return i;
  return -1;
}

/**
 * The new content of a plain-text message: quoted lines, quoted history after an attribution
 * or an "Original Message"/Outlook header block, signatures and mobile footers removed.
 * A forwarded message is content and is kept.
 */
export function extractText(text: string | null): string | null {
  if (text === null) return null;
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const ahead = unquotedContentAhead(lines);
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (isForwardMarker(line)) {
      kept.push(...lines.slice(i));
      break;
    }
    if (isSignatureStart(line)) {
      const forward = indexOfForward(lines, i + 1);
      if (forward < 0) break;
      i = forward - 1;
      continue;
    }
    const span = attributionLength(lines, i);
    if (span > 0) {
      let quoteAt = i + span;
      while (quoteAt < lines.length && isBlank(lines[quoteAt]!)) quoteAt++;
      const answeredInline = quoteAt < lines.length && isQuoted(lines[quoteAt]!) && ahead[quoteAt]!;
      if (!answeredInline) break;
      i += span - 1;
      continue;
    }
    if (isHistoryHeader(lines, i)) break;
    if (!isQuoted(line)) kept.push(line);
  }
  return kept
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

// ---- Quoted history and signatures in html

const QUOTE_CLASSES = new Set([
  'gmail_quote',
  'gmail_quote_container',
  'gmail_attr',
  'gmail_signature',
  'gmail_signature_prefix',
  'moz-cite-prefix',
  'moz-signature',
  'yahoo_quoted',
  'protonmail_quote',
]);
const QUOTE_IDS = new Set(['appendonsend', 'divrplyfwdmsg', 'mail-editor-reference-message-container']);
// Outlook desktop puts the quoted message's header block in a div with this top border.
const OUTLOOK_HEADER_BORDER = /border-top:\s*solid\s+#(?:e1e1e1|b5c4df)/i;
const VOID_TAGS = new Set('area base br col embed hr img input link meta param source track wbr'.split(' '));
// Which start tags close the open element implicitly (<p>a<p>b, <li>a<li>b).
const IMPLICITLY_CLOSED = new Map<string, Set<string>>([
  ['p', BLOCK_TAGS],
  ['li', new Set(['li'])],
  ['dt', new Set(['dt', 'dd'])],
  ['dd', new Set(['dt', 'dd'])],
  ['tr', new Set(['tr'])],
  ['td', new Set(['td', 'th', 'tr'])],
  ['th', new Set(['td', 'th', 'tr'])],
  ['option', new Set(['option'])],
]);
// Bounds the work per end tag on hostile nesting; real mail nests a few dozen levels.
const MAX_TRACKED_DEPTH = 256;
const MAX_CLOSE_SEARCH = 64;
// Each forward check renders a slice of html; a flood of look-alike markers must not repeat it.
const MAX_FORWARD_CHECKS = 8;
const MAX_BLOCK_TEXT = 400;

interface OpenElement {
  name: string;
  start: number;
  text: string;
}

function isQuoteStart(name: string, attrs: Map<string, string>): boolean {
  if (name === 'blockquote' && attrs.get('type')?.toLowerCase() === 'cite') return true;
  const id = attrs.get('id')?.toLowerCase();
  if (id && QUOTE_IDS.has(id)) return true;
  const classes = (attrs.get('class') ?? '').split(/\s+/);
  if (classes.some((token) => QUOTE_CLASSES.has(token))) return true;
  return name === 'div' && OUTLOOK_HEADER_BORDER.test(attrs.get('style') ?? '');
}

// Gmail wraps a forwarded message in gmail_quote too; a forward is content, not history.
function startsForward(html: string, at: number): boolean {
  const firstLine = htmlToText(html.slice(at, at + 2000)).split('\n', 1)[0] ?? '';
  return isForwardMarker(firstLine);
}

function isAttributionText(text: string): boolean {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 0 && ATTRIBUTION_LINE.some((pattern) => pattern.test(line));
}

function trackOpen(stack: OpenElement[], name: string, start: number): void {
  const top = stack.at(-1);
  if (top && IMPLICITLY_CLOSED.get(top.name)?.has(name)) stack.pop();
  if (stack.length < MAX_TRACKED_DEPTH) stack.push({ name, start, text: '' });
}

function trackClose(stack: OpenElement[], name: string): OpenElement | null {
  for (let i = stack.length - 1; i >= 0 && i >= stack.length - MAX_CLOSE_SEARCH; i--) {
    if (stack[i]!.name !== name) continue;
    const closed = stack[i]!;
    stack.length = i;
    const parent = stack.at(-1);
    if (parent && parent.text.length < MAX_BLOCK_TEXT) parent.text += closed.text;
    return closed;
  }
  return null;
}

function closeOpenElements(prefix: string, stack: OpenElement[]): string {
  const closers = stack
    .map((element) => `</${element.name}>`)
    .reverse()
    .join('');
  return trimTrailingBreaks(prefix) + closers;
}

// Drop the <br>, <hr> and whitespace left in front of the cut (Outlook puts an <hr> there).
function trimTrailingBreaks(html: string): string {
  let end = html.length;
  for (;;) {
    while (end > 0 && /\s/.test(html[end - 1]!)) end--;
    if (html[end - 1] !== '>') break;
    const lt = html.lastIndexOf('<', end - 1);
    if (lt < 0 || !/^<(?:br|hr)\b[^<>]*>$/i.test(html.slice(lt, end))) break;
    end = lt;
  }
  return html.slice(0, end);
}

/**
 * The new content of an html message: cut at the first quoted-history or signature container
 * (Gmail, Apple Mail, Thunderbird, Outlook, Yahoo) and at an attribution just before it,
 * with the elements still open at the cut closed again.
 */
export function extractHtml(html: string | null): string | null {
  if (html === null) return null;
  const stack: OpenElement[] = [];
  // The last closed block, while only whitespace or <br> follows it: a candidate attribution.
  let previousBlock: OpenElement | null = null;
  let forwardChecks = 0;
  for (const token of tokenizeHtml(html)) {
    if (token.kind === 'text') {
      const text = decodeEntities(html.slice(token.start, token.end));
      if (text.trim() !== '') previousBlock = null;
      const top = stack.at(-1);
      if (top && top.text.length < MAX_BLOCK_TEXT) top.text += text.slice(0, MAX_BLOCK_TEXT);
      continue;
    }
    const { name } = token;
    if (token.closing) {
      const closed = trackClose(stack, name);
      if (closed && (name === 'div' || name === 'p')) previousBlock = closed;
      continue;
    }
    if (isQuoteStart(name, parseAttributes(token.attrs))) {
      const forward = forwardChecks++ < MAX_FORWARD_CHECKS && startsForward(html, token.start);
      if (!forward) {
        const attributed = previousBlock !== null && isAttributionText(previousBlock.text);
        return closeOpenElements(html.slice(0, attributed ? previousBlock!.start : token.start), stack);
      }
    }
    if (name !== 'br' && name !== 'wbr') previousBlock = null;
    if (!VOID_TAGS.has(name) && !token.selfClosing && !RAW_TEXT_CLOSERS.has(name)) trackOpen(stack, name, token.start);
  }
  return html;
}

// ---- One-time codes

// Spans that contain digits but are never a code; blanked before looking for candidates.
const NOT_A_CODE = [
  /\b(?:https?|ftp):\/\/[^\s<>"]{1,2048}|\bwww\.[^\s<>"]{1,2048}/gi,
  /[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}/g,
  /\b\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}\b/g,
  /\b\d{1,2}:\d{2}(?::\d{2})?\b/g,
  /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]{0,6}\.?\s{1,3}\d{1,2}(?:st|nd|rd|th)?,?\s{1,3}\d{4}\b/gi,
  /\b\d{1,2}(?:st|nd|rd|th)?\.?\s{1,3}(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]{0,6}\.?,?\s{1,3}\d{4}\b/gi,
  /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]{0,6}\.?\s{1,3}\d{4}\b/gi,
  /(?:©|\(c\)|&copy;|copyright)\s{0,3}\d{4}(?:\s{0,3}[-–]\s{0,3}\d{4})?/gi,
  /\+?\(?\d{1,4}\)?(?:[ .-]\(?\d{2,4}\)?){2,5}/g,
  /\+\d{7,15}\b/g,
  /[$€£¥]\s?\d{1,20}(?:[.,]\d{1,20}){0,4}/g,
  /\b\d{1,20}(?:[.,]\d{1,20}){0,4}\s?(?:usd|eur|gbp|jpy|cad|aud|chf|dollars?|euros?|%)/gi,
  /\d{1,20}(?:[.,]\d{1,20}){1,4}/g,
  /#\s?\d{1,20}/g,
  // The last digits of a card or account ("card ending 4321", "ending in 0042", "**** 4321").
  /\b(?:ending(?:\s{1,3}in)?|ends\s{1,3}in|last\s{1,3}(?:4|four)(?:\s{1,3}digits)?)\s{0,3}[:#]?\s{0,3}\d{4}\b|[x*•]{2,}\s{0,3}\d{4}\b/gi,
];

const CODE_KEYWORD =
  /\b(?:\p{L}{0,24}codes?|codice|c[oó]digo|verification|verificaci[oó]n|v[eé]rification|verifizierung|verify|confirmation|otp|one[- ]time|passcode|pin|2fa|mfa|token)\b|\bis\s?:/giu;
// "promo code SAVE20", "zip code 94107": the keyword names something else.
const NOT_A_CODE_KEYWORD =
  /^(?:bar|post|zip|en|de|uni|qr|op|short|source|promo|discount|coupon|voucher|gift|area|country|dress|colou?r)codes?$/i;
const OTHER_CODE_BEFORE = /(?:zip|postal|post|area|country|promo|promotional|discount|coupon|voucher|gift|referral|tracking|source|dress|color|colour)\s*$/i;

const CODE_CANDIDATE =
  /(?<![\p{L}\p{N}_\-/.#])(?:(\d(?: \d){3,7})|(\d{3,4})[ -](\d{3,4})|(\d{4,8})|([A-Z0-9]{3,4}-[A-Z0-9]{3,4})|([A-Z0-9]{6,8}))(?![\p{L}\p{N}_]|-[\p{L}\p{N}]|[/.,:]\p{N})/gu;

// A code sits near the top of a message; rendering or scanning megabytes for one is wasted work.
const MAX_CODE_SOURCE = 64 * 1024;
const MAX_CODE_HTML = 1024 * 1024;
const KEYWORD_BEFORE_WINDOW = 160;
const KEYWORD_AFTER_WINDOW = 60;

interface Keyword {
  start: number;
  end: number;
}

interface CodeCandidate {
  code: string;
  score: number;
}

function blankOut(text: string): string {
  // Google writes its codes as "G-482917"; the code typed is the digits.
  let result = text.replace(/\bG-(?=\d{6}\b)/g, '  ');
  for (const pattern of NOT_A_CODE) result = result.replace(pattern, (span) => ' '.repeat(span.length));
  return result;
}

function codeKeywords(text: string): Keyword[] {
  const keywords: Keyword[] = [];
  for (const match of text.matchAll(CODE_KEYWORD)) {
    const word = match[0];
    if (NOT_A_CODE_KEYWORD.test(word)) continue;
    if (OTHER_CODE_BEFORE.test(text.slice(Math.max(0, match.index - 16), match.index))) continue;
    keywords.push({ start: match.index, end: match.index + word.length });
  }
  return keywords;
}

function candidateValue(match: RegExpMatchArray): { code: string; numeric: boolean; letters?: boolean } | null {
  const [, spaced, groupA, groupB, digits, dashed, alnum] = match;
  if (spaced) return { code: spaced.replace(/ /g, ''), numeric: true };
  if (groupA && groupB) {
    const joined = groupA + groupB;
    return joined.length >= 6 && joined.length <= 8 ? { code: joined, numeric: true } : null;
  }
  if (digits) return { code: digits, numeric: true };
  const token = dashed ?? alnum ?? '';
  // All-digit tokens are matched above. A token of capitals only may be a code ("QWERTZ") or a
  // shouted word ("VERIFY"); codeCandidates only keeps it when it is set apart as a code is.
  if (!/[A-Z]/.test(token)) return null;
  return { code: token, numeric: false, letters: !/\d/.test(token) };
}

function proximityScore(keywords: Keyword[], start: number, end: number): number {
  let best = 0;
  for (const keyword of keywords) {
    if (keyword.end <= start && start - keyword.end <= KEYWORD_BEFORE_WINDOW) {
      best = Math.max(best, 100 - (start - keyword.end) / 2);
    } else if (keyword.start >= end && keyword.start - end <= KEYWORD_AFTER_WINDOW) {
      best = Math.max(best, 50 - (keyword.start - end) / 2);
    }
  }
  return best;
}

function isAloneOnLine(text: string, start: number, end: number): boolean {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const lineEnd = text.indexOf('\n', end);
  const before = text.slice(lineStart, start);
  const after = text.slice(end, lineEnd < 0 ? text.length : lineEnd);
  return before.trim() === '' && after.trim() === '';
}

// "Use 771204 to sign in", "enter 4821": the sentence hands the reader a code to type.
const ACTION_BEFORE = /\b(?:use|enter|type|input|paste)\s{1,3}(?:the\s{1,3}(?:code\s{1,3})?)?$/i;
// "482913 is your Acme verification code", "918273 is the OTP for ...".
const NAMED_AFTER = /^\s{0,3}is\s{1,3}(?:the|your)\b/i;

/**
 * Scored code candidates of one text. `subjectNamesCode`: the subject says this mail carries a
 * code ("Your login code"), so a number the body hands over counts even with no keyword near it.
 */
function codeCandidates(text: string, messageHasKeyword: boolean, subjectNamesCode: boolean): CodeCandidate[] {
  const keywords = codeKeywords(text);
  const candidates: CodeCandidate[] = [];
  for (const match of text.matchAll(CODE_CANDIDATE)) {
    const value = candidateValue(match);
    if (!value) continue;
    const start = match.index;
    const end = start + match[0].length;
    const alone = isAloneOnLine(text, start, end);
    const introduced = /(?:\bis|:)\s{0,3}$/i.test(text.slice(Math.max(0, start - 8), start));
    // Capitals only: a code when set apart (on its own line, or after "is"/":"), never a keyword.
    if (value.letters && (!(alone || introduced) || codeKeywords(value.code).length > 0)) continue;
    let score = proximityScore(keywords, start, end);
    // A code on a line of its own in a mail that talks about codes (a styled box in html).
    if (score === 0 && alone && messageHasKeyword) score = 10;
    if (score === 0 && subjectNamesCode) score = 10;
    if (score === 0) continue;
    if (introduced) score += 25;
    if (ACTION_BEFORE.test(text.slice(Math.max(0, start - 24), start))) score += 20;
    if (NAMED_AFTER.test(text.slice(end, end + 16))) score += 40;
    if (alone) score += 15;
    if (value.numeric) score += 5;
    if (value.letters) score -= 20;
    if (/^(?:19|20)\d\d$/.test(value.code)) score -= 60;
    if (score > 0) candidates.push({ code: value.code, score });
  }
  return candidates;
}

function textSources(message: MessageContent): string[] {
  const sources = [message.subject];
  if (message.text !== null) sources.push(message.text);
  if (message.html !== null) sources.push(htmlToText(message.html.slice(0, MAX_CODE_HTML)));
  return sources;
}

/**
 * A one-time code: 4-8 digits (also written "123 456" or "123-456", returned without the
 * separator; Google's "G-482917" as its digits) or 6-8 capital letters and digits (optionally
 * one hyphen, kept: "XKT-4M9"; capitals only when set apart, as in "Your code: QWERTZ"), close
 * to a word such as code, verification, OTP, passcode or PIN, or anywhere in the body of a mail
 * whose subject names a code ("Your login code" / "Use 771204 to sign in"). Dates, times, phone
 * numbers, amounts, card endings, addresses in URLs and e-mail addresses are ignored.
 */
export function extractCode(message: MessageContent): string | null {
  const sources = textSources(message).map((source) => blankOut(source.slice(0, MAX_CODE_SOURCE)));
  const messageHasKeyword = sources.some((source) => codeKeywords(source).length > 0);
  const subjectNamesCode = codeKeywords(sources[0]!).length > 0;
  let best: CodeCandidate | null = null;
  for (const source of sources) {
    for (const candidate of codeCandidates(source, messageHasKeyword, subjectNamesCode)) {
      if (!best || candidate.score > best.score) best = candidate;
    }
  }
  return best?.code ?? null;
}

// ---- Verification links

const LINK_TEXT_KEYWORD = /verif|confirm|activat|magic|sign[\s-]?in|log[\s-]?in|reset|validat|accept invit/i;
const LINK_URL_KEYWORD =
  /verif|confirm|activat|magic|sign[-_]?in|log[-_]?in|\bauth\b|token=|reset|validat|passwordless|\botp\b|invit/i;
const NOT_A_LINK =
  /unsubscribe|opt[-_\s]?out|email[-_\s]?preferences|(?:manage|update)[-_\s]?(?:your[-_\s]?)?(?:email[-_\s]?)?(?:preferences|subscriptions?|notifications?)|notification[-_\s]settings/i;
const IMAGE_URL = /\.(?:png|jpe?g|gif|svg|webp|bmp|ico)(?:[?#]|$)/i;
const TEXT_URL = /\bhttps?:\/\/[^\s<>"'`]{1,4096}/gi;

interface LinkCandidate {
  url: string;
  label: string;
}

function htmlLinks(html: string): LinkCandidate[] {
  const links: LinkCandidate[] = [];
  let current: LinkCandidate | null = null;
  for (const token of tokenizeHtml(html)) {
    if (token.kind === 'text') {
      if (current && current.label.length < 200) current.label += decodeEntities(html.slice(token.start, token.end));
      continue;
    }
    if (token.name === 'a') {
      current = null;
      if (token.closing) continue;
      const href = parseAttributes(token.attrs).get('href');
      if (href) {
        current = { url: href.trim(), label: '' };
        links.push(current);
      }
    } else if (token.name === 'img' && current && !token.closing) {
      current.label += ` ${parseAttributes(token.attrs).get('alt') ?? ''}`;
    }
  }
  return links;
}

// The words right before a URL in text act as its label ("Confirm your account: https://...").
// Kept short: a sentence further back ("if you did not sign in, visit ...") is not about the link.
const TEXT_LABEL_LENGTH = 48;

function textLinks(text: string): LinkCandidate[] {
  return [...text.matchAll(TEXT_URL)].map((match) => {
    const url = trimTrailingPunctuation(match[0]).replace(/&amp;/g, '&');
    const lineStart = text.lastIndexOf('\n', match.index - 1) + 1;
    let label = text.slice(Math.max(lineStart, match.index - TEXT_LABEL_LENGTH), match.index);
    if (label.trim() === '' && lineStart > 0) {
      // The URL starts its line: the line above introduces it.
      const previous = text.slice(Math.max(0, lineStart - 1 - TEXT_LABEL_LENGTH), lineStart - 1);
      label = previous.slice(previous.lastIndexOf('\n') + 1);
    }
    return { url, label };
  });
}

function trimTrailingPunctuation(url: string): string {
  let end = url.length;
  while (end > 0 && '.,;:!?)]}>'.includes(url[end - 1]!)) end--;
  return url.slice(0, end);
}

function linkScore(link: LinkCandidate): number {
  if (!/^https?:\/\//i.test(link.url)) return 0;
  if (NOT_A_LINK.test(link.url) || NOT_A_LINK.test(link.label)) return 0;
  if (IMAGE_URL.test(link.url)) return 0;
  let score = 0;
  if (LINK_TEXT_KEYWORD.test(link.label)) score += 10;
  if (LINK_URL_KEYWORD.test(link.url)) score += 6;
  // A long random-looking segment is the token that makes a link single-use.
  if (score > 0 && /[A-Za-z0-9_-]{16,}/.test(link.url)) score += 2;
  return score;
}

/**
 * The verification, confirmation, magic sign-in or reset link: an http(s) href in the html
 * or a URL in the text whose label or address says so. Unsubscribe and preference links,
 * images, mailto: and other schemes are ignored; `&amp;` in an href is decoded.
 */
export function extractLink(message: MessageContent): string | null {
  const links = [
    ...(message.html !== null ? htmlLinks(message.html) : []),
    ...(message.text !== null ? textLinks(message.text) : []),
  ];
  let best: { url: string; score: number } | null = null;
  for (const link of links) {
    const score = linkScore(link);
    if (score > 0 && (!best || score > best.score)) best = { url: link.url, score };
  }
  return best?.url ?? null;
}
