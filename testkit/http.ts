// A small fetch wrapper for tests: JSON in, parsed JSON (or text) out, with status and headers.
export type Reply<T = any> = { status: number; headers: Headers; body: T; text: string };

export type Client = {
  request<T = any>(method: string, path: string, opts?: { body?: unknown; raw?: string; token?: string; headers?: Record<string, string> }): Promise<Reply<T>>;
  get<T = any>(path: string, token?: string, headers?: Record<string, string>): Promise<Reply<T>>;
  post<T = any>(path: string, body: unknown, token?: string, headers?: Record<string, string>): Promise<Reply<T>>;
  patch<T = any>(path: string, body: unknown, token?: string, headers?: Record<string, string>): Promise<Reply<T>>;
  del<T = any>(path: string, token?: string, headers?: Record<string, string>): Promise<Reply<T>>;
};

export function client(baseUrl: string): Client {
  const request: Client['request'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | undefined;
    if (opts.raw !== undefined) body = opts.raw;
    else if (opts.body !== undefined) body = JSON.stringify(opts.body);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    const res = await fetch(baseUrl + path, { method, headers, body });
    const text = await res.text();
    let parsed: any = text;
    if (/json/.test(res.headers.get('content-type') ?? '') && text) parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
  return {
    request,
    get: (path, token, headers) => request('GET', path, { token, headers }),
    post: (path, body, token, headers) => request('POST', path, { body, token, headers }),
    patch: (path, body, token, headers) => request('PATCH', path, { body, token, headers }),
    del: (path, token, headers) => request('DELETE', path, { token, headers }),
  };
}
