// Screening of inbound mail for what an agent should not act on alone. A small heuristic, on
// purpose: each reason is one readable test, and a flagged message only means a human sees any
// reply to it or forward of it before it leaves. Reasons:
//   dmarc_fail        the From domain's owner says this mail is not theirs (DMARC fail)
//   prompt_injection  the text addresses the agent with instructions ("ignore previous
//                     instructions", "system prompt", a fake `system:` turn, <instructions> tags)
//   hidden_text       HTML text styled so a person cannot see it (display:none, visibility:hidden,
//                     zero font size or opacity) - text meant for the model only
//   lookalike_domain  the From domain imitates another: an IDN (punycode) label, a domain one or two
//                     edits from the inbox's own domain or a well-known one, or a display name
//                     carrying another domain's address
// Risk is `high` for the first three (each is an attack by itself) and `medium` for a lookalike.

export type ScreeningReason = 'dmarc_fail' | 'prompt_injection' | 'hidden_text' | 'lookalike_domain';
export type Screening = { risk: 'high' | 'medium'; reasons: ScreeningReason[] };

export type ScreenInput = {
  from_email: string | null;
  from_name: string | null;
  subject: string;
  text: string | null;
  html: string | null;
  dmarc: string | null;
  /** The receiving inbox's domain: mail imitating it is the classic lookalike. */
  inbox_domain: string;
};

const INJECTION_PATTERNS: RegExp[] = [
  /\b(ignore|disregard|forget|override)\s+(all\s+|any\s+|the\s+|your\s+)?(previous|prior|above|earlier|preceding|existing)\s+(instructions|prompts?|directions|rules|messages)/i,
  /\b(system|developer)\s+prompt\b/i,
  /^\s*(system|assistant)\s*:/im,
  /<\/?\s*(system|instructions?|assistant)\s*>/i,
  /\bnew\s+instructions\s*:/i,
  /\b(you|the)\s+(ai|assistant|agent|model)\s+(must|should|will)\s+(now\s+)?(forward|send|reply|transfer|reveal|ignore)/i,
  /\bdo\s+not\s+(tell|inform|notify)\s+(the\s+)?(user|human|owner|operator)/i,
];
// Each pattern above reads as one rule; they are tried as one alternation, so a message is read
// once, not once a pattern (measured: about a third of the time on 10 KB mail).
const INJECTION = new RegExp(INJECTION_PATTERNS.map((re) => `(?:${re.source})`).join('|'), 'im');

// An element whose style hides it, with text right inside it.
const HIDDEN = /<[a-z][^>]*\sstyle\s*=\s*("[^"]*|'[^']*)(display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0+(\.0+)?\s*(px|pt|em|rem|%)?\s*(;|"|'|$)|opacity\s*:\s*0+(\.0+)?\s*(;|"|'|$))[^>]*>\s*[^<\s]/i;

const WELL_KNOWN = ['gmail.com', 'google.com', 'outlook.com', 'microsoft.com', 'office365.com', 'yahoo.com', 'icloud.com', 'apple.com',
  'amazon.com', 'paypal.com', 'stripe.com', 'github.com', 'linkedin.com', 'docusign.com', 'dropbox.com', 'slack.com'];

/** Levenshtein distance, stopping early once it passes `max`. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    if (Math.min(...row) > max) return max + 1;
    prev = row;
  }
  return prev[b.length]!;
}

const domainOf = (email: string | null) => email?.split('@').pop()?.toLowerCase() ?? '';
/** The label before the public suffix, roughly: `paypa1` of `paypa1.com`, `example` of `mail.example.co.uk`. */
const nameOf = (domain: string) => {
  const labels = domain.split('.');
  const suffix = labels.length > 2 && labels.at(-2)!.length <= 3 && labels.at(-1)!.length === 2 ? 2 : 1;
  return labels.at(-1 - suffix) ?? '';
};

export function isLookalike(fromDomain: string, fromName: string | null, references: string[]): boolean {
  if (!fromDomain) return false;
  if (fromDomain.split('.').some((label) => label.startsWith('xn--'))) return true;
  const mine = nameOf(fromDomain);
  // The same name under another suffix (google.de) is usually the same owner; a name one or two
  // edits away (paypa1, rnicrosoft) is the imitation.
  for (const ref of references) {
    const theirs = nameOf(ref.toLowerCase());
    if (mine === theirs || theirs.length < 4) continue;
    const d = distance(mine, theirs, 2);
    if (d <= (theirs.length > 6 ? 2 : 1)) return true;
  }
  const named = fromName?.match(/[^\s<>"'@]+@([a-z0-9.-]+\.[a-z]{2,})/i)?.[1]?.toLowerCase();
  return !!named && nameOf(named) !== mine;
}

export function screenMessage(m: ScreenInput): Screening | null {
  const reasons: ScreeningReason[] = [];
  if (m.dmarc === 'fail') reasons.push('dmarc_fail');
  const words = `${m.subject}\n${m.text ?? ''}\n${(m.html ?? '').replace(/<[^>]*>/g, ' ')}`;
  if (INJECTION.test(words)) reasons.push('prompt_injection');
  if (m.html && HIDDEN.test(m.html)) reasons.push('hidden_text');
  if (isLookalike(domainOf(m.from_email), m.from_name, [m.inbox_domain, ...WELL_KNOWN])) reasons.push('lookalike_domain');
  if (reasons.length === 0) return null;
  return { risk: reasons.some((r) => r !== 'lookalike_domain') ? 'high' : 'medium', reasons };
}
