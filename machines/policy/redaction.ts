// Secrets taken out of support evidence before it is stored. Agents paste what they saw, and what
// they saw often holds their own key, a webhook secret, a session token or the code a sign-up mail
// carried. Each string of the evidence is scanned; a match is replaced by `[REDACTED]` and the
// field's path (`observed_behavior`, `attempts.2.summary`) is named in `redacted_fields`. Pure.

export const REDACTED = '[REDACTED]';

const PATTERNS: RegExp[] = [
  // Agent keys of every ceiling and enrollment tokens: pk_agent_..., pk_agent_org_..., pk_enroll_...
  /\bpk_(?:agent|enroll)[A-Za-z0-9_-]*/g,
  // Webhook signing secrets.
  /\bwhsec_[A-Za-z0-9_-]+/g,
  // Bearer credentials in a pasted header, whatever their form.
  /\b(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi,
  // JSON web tokens (console sessions).
  /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g,
  // One-time codes from mail: 4 to 8 digits shortly after "code", "otp", "pin" or "verification".
  /(\b(?:code|otp|pin|passcode|verification)\b[^0-9\n]{0,20})\d{4,8}\b/gi,
  // Signature headers of webhook deliveries.
  /\b(v1=)[0-9a-f]{32,}/gi,
];

/** The string with every secret replaced; `changed` when anything was. */
export function redactText(text: string): { text: string; changed: boolean } {
  let out = text;
  for (const re of PATTERNS) {
    out = out.replace(re, (_m, keep?: unknown) => (typeof keep === 'string' ? `${keep}${REDACTED}` : REDACTED));
  }
  return { text: out, changed: out !== text };
}

/** A deep copy of `value` with every string redacted, and the dotted paths of those that changed. */
export function redactEvidence<T>(value: T, path = ''): { value: T; redacted_fields: string[] } {
  const fields: string[] = [];
  const walk = (v: unknown, at: string): unknown => {
    if (typeof v === 'string') {
      const r = redactText(v);
      if (r.changed) fields.push(at);
      return r.text;
    }
    if (Array.isArray(v)) return v.map((item, i) => walk(item, at ? `${at}.${i}` : String(i)));
    if (v && typeof v === 'object') {
      return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, walk(item, at ? `${at}.${k}` : k)]));
    }
    return v;
  };
  return { value: walk(value, path) as T, redacted_fields: fields };
}
