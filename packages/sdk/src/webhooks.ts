// Verifying a webhook delivery on the receiving side. X-Service-Signature is
// `t=<unix seconds>,v1=<hex>[,v1=<hex>...]`, each v1 an HMAC-SHA256 keyed by a webhook secret over
// `<t>.<raw body>`. After a secret rotation a delivery carries one v1 per live secret, so any one
// matching is enough. Use the raw body bytes as received: re-serialized JSON differs from them.
// Web Crypto (Node 20+, browsers, edge runtimes); its HMAC verify compares in constant time.

export type VerifyOptions = {
  /** How far `t` may be from now, either way. Default 300 s. */
  toleranceSeconds?: number | undefined;
  /** The current time in unix seconds, for receivers with their own clock. Default: the system clock. */
  now?: number | undefined;
};

export type VerifyResult = { ok: true; timestamp: number } | { ok: false; reason: 'malformed' | 'stale' | 'mismatch' };

const encoder = new TextEncoder();

function parseHeader(header: string): { t: number; signatures: Uint8Array<ArrayBuffer>[] } | null {
  let t: number | null = null;
  const signatures: Uint8Array<ArrayBuffer>[] = [];
  for (const part of (header ?? '').split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) t = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) {
      signatures.push(Uint8Array.from(value.match(/../g)!, (byte) => parseInt(byte, 16)));
    }
  }
  return t === null || signatures.length === 0 ? null : { t, signatures };
}

/** Why a delivery fails verification, or ok with its signed timestamp. */
export async function checkWebhookSignature(
  rawBody: string | Uint8Array,
  header: string,
  secret: string,
  opts: VerifyOptions = {},
): Promise<VerifyResult> {
  const parsed = parseHeader(header);
  if (!parsed) return { ok: false, reason: 'malformed' };
  const now = opts.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - parsed.t) > (opts.toleranceSeconds ?? 300)) return { ok: false, reason: 'stale' };
  const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : rawBody;
  const prefix = encoder.encode(`${parsed.t}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  for (const signature of parsed.signatures) {
    if (await crypto.subtle.verify('HMAC', key, signature, signed)) return { ok: true, timestamp: parsed.t };
  }
  return { ok: false, reason: 'mismatch' };
}

/** True when the delivery was signed with `secret` within the tolerance (default five minutes). */
export async function verifyWebhook(rawBody: string | Uint8Array, header: string, secret: string, opts: VerifyOptions = {}): Promise<boolean> {
  return (await checkWebhookSignature(rawBody, header, secret, opts)).ok;
}
