// Calls to the console plane's public API. The session rides in an HttpOnly cookie, so the page
// never holds a token; every error is kept whole (status, code, detail, facts, legal verbs).
export class ApiError extends Error {
  constructor(status, body) {
    super(body.detail ?? body.message ?? `HTTP ${status}`);
    this.status = status;
    this.code = body.code ?? body.error ?? 'error';
    this.body = body;
    // A review that moved on names the verbs still legal on it (from its machine).
    this.allowedActions = (body.errors ?? []).filter((e) => e.field === 'allowed_action').map((e) => e.code);
  }
}

export async function call(method, path, body) {
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 204) return null;
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

export const get = (path) => call('GET', path);
export const post = (path, body) => call('POST', path, body);
export const patch = (path, body) => call('PATCH', path, body);
export const del = (path) => call('DELETE', path);

/** `/v1/admin/orgs/{org}/projects/{project}`: the prefix of every project call. */
export const projectPath = (org, project) => `/v1/admin/orgs/${encodeURIComponent(org)}/projects/${encodeURIComponent(project)}`;
