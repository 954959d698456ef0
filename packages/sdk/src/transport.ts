// HTTP transport: auth, JSON, typed errors and the contract's retry rules. GET and DELETE retry
// on 429, 5xx and network errors with jittered backoff honouring Retry-After; any other method
// retries only when the caller gave an idempotency key, so a send is never duplicated.
import { AgentInboxError, NetworkError } from './errors.ts';

export type TransportOptions = {
  baseUrl: string;
  apiKey?: string | undefined;
  /** Retries after the first attempt. Default 3. */
  maxRetries?: number | undefined;
  /** Backoff base and cap in milliseconds. Defaults 250 and 10,000. */
  backoffMs?: { base: number; max: number } | undefined;
  timeoutMs?: number | undefined;
  fetch?: typeof fetch | undefined;
  headers?: Record<string, string> | undefined;
};

export type RequestOptions = {
  query?: Record<string, unknown> | undefined;
  body?: unknown;
  idempotencyKey?: string | undefined;
  headers?: Record<string, string> | undefined;
  signal?: AbortSignal | undefined;
  /** Response handling: parsed JSON (default), raw bytes, or the streaming Response itself. */
  as?: 'json' | 'bytes' | 'response' | undefined;
  timeoutMs?: number | undefined;
};

const RETRYABLE_STATUS = (s: number) => s === 429 || s >= 500;

export class Transport {
  readonly baseUrl: string;
  private opts: TransportOptions;

  constructor(opts: TransportOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.opts = opts;
  }

  /** Switches the key used from now on (e.g. to the one an enrollment just returned). */
  setApiKey(apiKey: string | undefined): void {
    this.opts = { ...this.opts, apiKey };
  }

  hasApiKey(): boolean {
    return !!this.opts.apiKey;
  }

  url(path: string, query?: Record<string, unknown>): string {
    const u = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(query ?? {})) {
      if (v === undefined || v === null) continue;
      u.searchParams.set(k, Array.isArray(v) ? v.join(',') : v instanceof Date ? v.toISOString() : String(v));
    }
    return u.toString();
  }

  async request<T = any>(method: string, path: string, o: RequestOptions = {}): Promise<T> {
    const retries = this.opts.maxRetries ?? 3;
    const mayRetry = method === 'GET' || method === 'DELETE' || o.idempotencyKey !== undefined;
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await this.once(method, path, o);
      } catch (err) {
        if (err instanceof NetworkError && mayRetry && attempt < retries && !o.signal?.aborted) {
          await sleep(this.backoff(attempt, undefined), o.signal);
          continue;
        }
        throw err;
      }
      if (res.ok) {
        if (o.as === 'response') return res as T;
        if (o.as === 'bytes') return new Uint8Array(await res.arrayBuffer()) as T;
        if (res.status === 204) return undefined as T;
        const text = await res.text();
        return (text ? JSON.parse(text) : undefined) as T;
      }
      const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
      if (mayRetry && RETRYABLE_STATUS(res.status) && attempt < retries) {
        await res.body?.cancel().catch(() => {});
        await sleep(this.backoff(attempt, retryAfter), o.signal);
        continue;
      }
      throw new AgentInboxError(res.status, await errorBody(res), retryAfter);
    }
  }

  private async once(method: string, path: string, o: RequestOptions): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json', ...this.opts.headers, ...o.headers };
    if (this.opts.apiKey) headers.authorization = `Bearer ${this.opts.apiKey}`;
    if (o.idempotencyKey !== undefined) headers['idempotency-key'] = o.idempotencyKey;
    let body: string | undefined;
    if (o.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(o.body);
    }
    const timeoutMs = o.timeoutMs ?? this.opts.timeoutMs;
    const signals = [o.signal, timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined].filter(Boolean) as AbortSignal[];
    try {
      return await (this.opts.fetch ?? fetch)(this.url(path, o.query), {
        method,
        headers,
        body: body ?? null,
        signal: signals.length ? AbortSignal.any(signals) : null,
        redirect: 'error',
      });
    } catch (err) {
      if (o.signal?.aborted) throw err;
      throw new NetworkError(`${method} ${path} failed: ${(err as Error).message}`, err);
    }
  }

  private backoff(attempt: number, retryAfterSeconds: number | undefined): number {
    if (retryAfterSeconds !== undefined) return retryAfterSeconds * 1000;
    const { base, max } = this.opts.backoffMs ?? { base: 250, max: 10_000 };
    const ceiling = Math.min(max, base * 2 ** attempt);
    return ceiling / 2 + Math.random() * (ceiling / 2); // jitter keeps retrying clients apart
  }
}

function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}

async function errorBody(res: Response): Promise<Record<string, unknown>> {
  const text = await res.text().catch(() => '');
  try {
    const parsed = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? parsed : { detail: text };
  } catch {
    return text ? { detail: text } : {};
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(signal.reason);
    }, { once: true });
  });
}
