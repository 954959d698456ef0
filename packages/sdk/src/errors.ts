// One error type for every failure the service reports, carrying the problem+json (or the
// legacy {error, message} envelope) so callers branch on `code` and recover from `errors[]`.

export type FieldError = { field: string; code: string; detail?: string | undefined; [extra: string]: unknown };

/** The figures of a `quota_exceeded` refusal (counts are int64, within JavaScript's safe range). */
export type QuotaFigures = {
  reason: string;
  used: number;
  delta: number;
  limit: number;
  remaining: number;
  consumed: number;
  reserved: number;
  /** Absent for counts that never reset (inboxes, domains, members, webhooks). */
  next_reset_at?: string;
  upgrade_required: boolean;
};

export class AgentInboxError extends Error {
  readonly status: number;
  /** The contract's closed code enum when the body is problem+json; the legacy `error` otherwise. */
  readonly code: string;
  readonly detail?: string | undefined;
  readonly errors: FieldError[];
  readonly requestId?: string | undefined;
  readonly retryAfterSeconds?: number | undefined;
  /** The whole parsed body, for members such as `sent_message_id` or quota figures. */
  readonly body: Record<string, unknown>;

  constructor(status: number, body: Record<string, unknown>, retryAfterSeconds?: number) {
    const code = typeof body.code === 'string' ? body.code : typeof body.error === 'string' ? body.error : `http_${status}`;
    const detail = typeof body.detail === 'string' ? body.detail : typeof body.message === 'string' ? body.message : undefined;
    super(detail ? `${code}: ${detail}` : code);
    this.name = 'AgentInboxError';
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.errors = Array.isArray(body.errors) ? (body.errors as FieldError[]) : [];
    this.requestId = typeof body.request_id === 'string' ? body.request_id : undefined;
    this.retryAfterSeconds = retryAfterSeconds;
    this.body = body;
  }

  /** The verbs legal now, from a review 409's repeated `allowed_action` entries. */
  get allowedActions(): string[] {
    return this.errors.filter((e) => e.field === 'allowed_action').map((e) => String(e.detail ?? e.code));
  }

  /** The quota figures of a `quota_exceeded` refusal (problem+json or the older envelope), else null. */
  get quota(): QuotaFigures | null {
    if (this.code !== 'quota_exceeded' || typeof this.body.reason !== 'string') return null;
    const b = this.body;
    return {
      reason: b.reason as string,
      used: Number(b.used),
      delta: Number(b.delta),
      limit: Number(b.limit),
      remaining: Number(b.remaining),
      consumed: Number(b.consumed),
      reserved: Number(b.reserved),
      ...(typeof b.next_reset_at === 'string' ? { next_reset_at: b.next_reset_at } : {}),
      upgrade_required: b.upgrade_required === true,
    };
  }

  /** The example intent of a 422 `intent_required`, ready to splice into the retried request. */
  get retryWith(): unknown {
    return this.errors.find((e) => e.field === 'retry_with')?.example;
  }
}

/** A failure to reach the service at all (DNS, refused connection, reset, timeout). */
export class NetworkError extends Error {
  constructor(message: string, readonly cause?: unknown) {
    super(message);
    this.name = 'NetworkError';
  }
}
