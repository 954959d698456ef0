// Whether a received mail says it was sent automatically, and how: RFC 3834 `Auto-Submitted`
// (anything but `no`), the older `X-Autoreply` / `X-Autorespond`, Exchange's
// `X-Auto-Response-Suppress` on its own auto-replies, `Precedence: bulk|auto_reply|list|junk`,
// and out-of-office subjects. An agent answering such mail is how two auto-responders end up
// answering each other forever (see loop-guard.ts).

const PRECEDENCE = new Set(['bulk', 'auto_reply', 'list', 'junk']);
const OUT_OF_OFFICE = /^(auto(matic)?[ -]?(reply|response)|out of (the )?office|abwesenheitsnotiz|r[ée]ponse automatique|respuesta autom[aá]tica|automatisch antwoord|vacation|away from (my|the) (desk|office))\b/i;

/** The header signal that marked the mail (e.g. `auto-submitted: auto-replied`), or null when none did. */
export function autoSubmitted(headers: Record<string, string>, subject: string): string | null {
  const auto = (headers['auto-submitted'] ?? '').trim().toLowerCase();
  if (auto && !auto.startsWith('no')) return `auto-submitted: ${auto.split(/[;\s]/)[0]}`;
  if (headers['x-autoreply'] !== undefined) return 'x-autoreply';
  if (headers['x-autorespond'] !== undefined) return 'x-autorespond';
  const suppress = (headers['x-auto-response-suppress'] ?? '').trim().toLowerCase();
  if (suppress && suppress !== 'none') return 'x-auto-response-suppress';
  const precedence = (headers['precedence'] ?? headers['x-precedence'] ?? '').trim().toLowerCase();
  if (PRECEDENCE.has(precedence)) return `precedence: ${precedence}`;
  if (OUT_OF_OFFICE.test(subject.replace(/^(re|aw|fw|fwd):\s*/i, '').trim())) return 'out-of-office';
  return null;
}
