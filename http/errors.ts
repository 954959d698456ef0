// The one registry of error codes, and the one serializer for both envelopes:
// problem+json (RFC 9457) with the contract's closed `code` enum, and the legacy {error, message}.

export const ERROR_CODES = {
  bad_request: { status: 400, title: 'Bad request' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  forbidden_scope: { status: 403, title: 'Forbidden: missing scope' },
  not_found: { status: 404, title: 'Not found' },
  conflict: { status: 409, title: 'Conflict' },
  support_record_deleted: { status: 410, title: 'Support record deleted' },
  idempotency_conflict: { status: 409, title: 'Idempotency key reused with a different request' },
  breadth_required: { status: 400, title: 'Breadth required' },
  quota_exceeded: { status: 403, title: 'Quota exceeded' },
  rate_limited: { status: 429, title: 'Rate limited' },
  domain_not_allowed: { status: 400, title: 'Domain not allowed' },
  recipient_blocked: { status: 403, title: 'Recipient blocked' },
  recipient_suppressed: { status: 422, title: 'Recipient suppressed' },
  intent_required: { status: 422, title: 'Intent required' },
  wrong_state: { status: 409, title: 'Wrong state' },
  terminal: { status: 409, title: 'Review already finished' },
  stale: { status: 409, title: 'Stale revision or version' },
  born_stale: { status: 409, title: 'Built against older rules' },
  send_needs_reconciliation: { status: 409, title: 'Send needs reconciliation' },
  graduation_locked: { status: 409, title: 'Graduation locked' },
  maturity_gate_unmet: { status: 409, title: 'Maturity gate unmet' },
  scope_taken: { status: 409, title: 'Scope taken' },
  not_configured: { status: 503, title: 'Not configured' },
  unavailable: { status: 503, title: 'Unavailable' },
  domain_unavailable: { status: 409, title: 'Domain unavailable' },
  internal: { status: 500, title: 'Internal server error' },
  reply_context_required: { status: 409, title: 'Reply context required' },
  reply_context_changed: { status: 409, title: 'Reply context changed' },
  reply_workflow_required: { status: 409, title: 'Reply workflow required' },
  reply_already_pending: { status: 409, title: 'Reply already pending' },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;
export type FieldError = { field: string; code: string; detail?: string };

type ProblemInit = {
  status?: number;
  detail?: string;
  errors?: FieldError[];
  headers?: Record<string, string>;
  /** Extra members carried at the top level (e.g. `sent_message_id`, `reason`). */
  extra?: Record<string, unknown>;
};

export class Problem extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly detail?: string;
  readonly errors?: FieldError[];
  readonly headers: Record<string, string>;
  readonly extra: Record<string, unknown>;

  constructor(code: ErrorCode, init: ProblemInit = {}) {
    super(init.detail ?? ERROR_CODES[code].title);
    this.code = code;
    this.status = init.status ?? ERROR_CODES[code].status;
    this.detail = init.detail;
    this.errors = init.errors;
    this.headers = init.headers ?? {};
    this.extra = init.extra ?? {};
  }
}

/** The retiring `{error, message}` envelope, used only where the contract still names it. */
export class LegacyError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (field: string, detail: string, code = 'invalid'): Problem =>
  new Problem('bad_request', { detail, errors: [{ field, code, detail }] });

export const notFound = (what = 'resource'): Problem => new Problem('not_found', { detail: `No such ${what}.` });

// The legacy envelope's `error` strings for the codes the console plane can raise.
const LEGACY_ERROR: Partial<Record<ErrorCode, string>> = {
  bad_request: 'invalid',
  forbidden_scope: 'forbidden',
  domain_not_allowed: 'domain_not_allowed',
};

/** The same error in the legacy `{error, message}` envelope. */
export function toLegacy(p: Problem): LegacyError {
  return new LegacyError(p.status, LEGACY_ERROR[p.code] ?? p.code, p.detail ?? ERROR_CODES[p.code].title, p.extra, p.headers);
}

export type ErrorResponse = { status: number; contentType: string; body: Record<string, unknown>; headers: Record<string, string> };

export function errorResponse(err: unknown, requestId: string, problemsBase: string, envelope: 'problem' | 'legacy' = 'problem'): ErrorResponse {
  if (envelope === 'legacy' && err instanceof Problem) err = toLegacy(err);
  if (err instanceof LegacyError) {
    return {
      status: err.status,
      contentType: 'application/json',
      body: { error: err.error, message: err.message, ...err.extra, request_id: requestId },
      headers: err.headers,
    };
  }
  const problem = err instanceof Problem ? err : new Problem('internal', { detail: 'The server failed to handle the request.' });
  const body: Record<string, unknown> = {
    type: `${problemsBase}/${problem.code}`,
    title: ERROR_CODES[problem.code].title,
    status: problem.status,
    code: problem.code,
    ...(problem.detail ? { detail: problem.detail } : {}),
    request_id: requestId,
    ...(problem.errors?.length ? { errors: problem.errors } : {}),
    ...problem.extra,
  };
  return { status: problem.status, contentType: 'application/problem+json', body, headers: problem.headers };
}
