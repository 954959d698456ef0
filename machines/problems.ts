// The problem vocabulary of the whole service: the closed registry of error codes (the contract's
// `code` enum, with each code's status and title), the `Problem` a command raises, and the legacy
// quota error. Pure data and types, below every layer, so actors, workers and any transport raise
// and read domain errors without reaching into http/, which only renders them.

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

/** The figures every quota refusal carries (the contract's quota fields, all counts int64). */
export type QuotaFigures = {
  reason: string;
  used: number;
  delta: number;
  limit: number;
  remaining: number;
  consumed: number;
  reserved: number;
  next_reset_at: string;
  upgrade_required: boolean;
};

/**
 * A quota refusal: problem+json `quota_exceeded` with the quota figures at the top level, and the
 * older envelope's `error` and `message` beside them so readers of `{error, message}` keep working.
 * On a legacy-envelope operation it renders as that envelope with the same figures.
 */
export const quotaExceeded = (detail: string, figures: QuotaFigures, status = 403): Problem =>
  new Problem('quota_exceeded', { status, detail, extra: { ...figures, error: 'quota_exceeded', message: detail } });

export const badRequest = (field: string, detail: string, code = 'invalid'): Problem =>
  new Problem('bad_request', { detail, errors: [{ field, code, detail }] });

export const notFound = (what = 'resource'): Problem => new Problem('not_found', { detail: `No such ${what}.` });
