// Posting a webhook: signing, the target check against the addresses a name resolves to (at
// registration, and again at connect time on every delivery, since DNS can change), and one POST
// with a timeout that never follows a redirect.
import crypto from 'node:crypto';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { literalHost, resolvedProblem, urlProblem } from '../machines/policy/webhook-target.ts';

/** `t=<unix>,v1=<hex>` with one `v1` per secret, the current one first. */
export function signatureHeader(t: number, rawBody: Buffer, secrets: string[]): string {
  const signed = Buffer.concat([Buffer.from(`${t}.`), rawBody]);
  return [`t=${t}`, ...secrets.map((s) => `v1=${crypto.createHmac('sha256', s).update(signed).digest('hex')}`)].join(',');
}

/** Why the URL may not be a webhook target, or null. Resolves the host unless private targets are allowed. */
export async function webhookTargetProblem(raw: string, allowPrivate: boolean): Promise<string | null> {
  const early = urlProblem(raw, allowPrivate);
  if (early || allowPrivate) return early;
  const url = new URL(raw);
  if (literalHost(url)) return null;
  try {
    const found = await dns.promises.lookup(url.hostname, { all: true, verbatim: true });
    return resolvedProblem(url.hostname, found.map((a) => a.address));
  } catch {
    return `host ${url.hostname} does not resolve`;
  }
}

/** A lookup that refuses the connection when any address of the name is not public. */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true, verbatim: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const list = addresses as dns.LookupAddress[];
    const problem = resolvedProblem(hostname, list.map((a) => a.address));
    if (problem) return callback(Object.assign(new Error(problem), { code: 'ETARGETREFUSED' }), '', 0);
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};

export type PostResult = { status: number | null; error: string | null; durationMs: number };

const MAX_RESPONSE_BYTES = 64 * 1024;

export function postWebhook(input: {
  url: string;
  body: Buffer;
  headers: Record<string, string>;
  timeoutMs: number;
  allowPrivate: boolean;
}): Promise<PostResult> {
  const started = performance.now();
  const done = (status: number | null, error: string | null): PostResult => ({
    status,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  const refused = urlProblem(input.url, input.allowPrivate);
  if (refused) return Promise.resolve(done(null, `target refused: url ${refused}`));
  const url = new URL(input.url);
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (status: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      resolve(done(status, error));
    };
    const req = transport.request(
      url,
      {
        method: 'POST',
        headers: { ...input.headers, 'Content-Length': String(input.body.length) },
        agent: false,
        ...(input.allowPrivate ? {} : { lookup: guardedLookup }),
      },
      (res) => {
        // The status is the answer. The body is drained, bounded, only to end the exchange cleanly.
        finish(res.statusCode ?? null, null);
        let seen = 0;
        res.on('data', (chunk: Buffer) => {
          seen += chunk.length;
          if (seen > MAX_RESPONSE_BYTES) res.destroy();
        });
        res.on('close', () => clearTimeout(timer));
        res.on('error', () => {});
      },
    );
    // Also ends a response whose body never finishes.
    const timer = setTimeout(() => {
      finish(null, `timed out after ${input.timeoutMs} ms`);
      req.destroy();
    }, input.timeoutMs);
    timer.unref();
    req.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      finish(null, err.code === 'ETARGETREFUSED' ? `target refused: ${err.message}` : `${err.code ?? 'error'}: ${err.message}`);
    });
    req.end(input.body);
  });
}
