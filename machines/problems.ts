// The problem vocabulary of the whole service: the closed registry of error codes (the contract's
// `code` enum, with each code's status and title), the `Problem` a command raises, and the legacy
// quota error. Pure data and types, below every layer, so actors, workers and any transport raise
// and read domain errors without reaching into http/, which only renders them.

/** One code of the registry: its typical status and title, and the text of its problem type page. */
export type ErrorEntry = {
  status: number;
  title: string;
  /** When the service answers with this code. */
  meaning: string;
  /** What a client should do about it. */
  action: string;
};

export const ERROR_CODES = {
  bad_request: {
    status: 400,
    title: 'Bad request',
    meaning: 'The request is malformed: invalid JSON, a bad cursor, a disallowed `include`, an unknown body key, a value outside its schema or a conflicting alias. `errors[]` names each offending field.',
    action: 'Fix the fields named in `errors[]` and send the request again; repeating it unchanged fails the same way.',
  },
  unauthorized: {
    status: 401,
    title: 'Unauthorized',
    meaning: 'The credential is missing, invalid, expired or revoked.',
    action: 'Send a valid `Authorization: Bearer` credential: an agent key on the agent plane, a console session token on `/v1/admin`. A revoked key stays revoked; ask an operator for a new one.',
  },
  forbidden_scope: {
    status: 403,
    title: 'Forbidden: missing scope',
    meaning: 'The credential is valid but lacks the scope or tier for this call, including a non-org key on the org wildcard, an escalating create, or a `project_id` that is not the key\'s.',
    action: 'Use a key that holds the permission named in `detail`, or drop the mismatched `project_id`. Retrying with the same key fails the same way.',
  },
  cross_origin_refused: {
    status: 403,
    title: 'Cross-origin request refused',
    meaning: 'A console-plane write (POST, PUT, PATCH, DELETE) authenticated by the web console\'s session cookie came from another origin: its `Origin` header, or without one its `Sec-Fetch-Site`, was not the console\'s own. Nothing changed.',
    action: 'Make the change from the console page itself, or from another client send the session token as `Authorization: Bearer <token>` instead of the cookie.',
  },
  not_found: {
    status: 404,
    title: 'Not found',
    meaning: 'No such resource, or it lies outside the credential\'s ceiling (the two are not told apart).',
    action: 'Check the id and that the key\'s org, project or inbox covers it. Do not retry unchanged.',
  },
  conflict: {
    status: 409,
    title: 'Conflict',
    meaning: 'An unclassified state conflict, or a request with the same Idempotency-Key still running.',
    action: 'Treat it as `wrong_state`: re-read the resource and choose a legal next step; do not loop. With `Retry-After`, retry once after it.',
  },
  support_record_deleted: {
    status: 410,
    title: 'Support record deleted',
    meaning: 'The support case this request refers to was deleted by an organization administrator; its text is gone.',
    action: 'Stop referring to it; file new feedback if the problem is still there.',
  },
  idempotency_conflict: {
    status: 409,
    title: 'Idempotency key reused with a different request',
    meaning: 'The same Idempotency-Key (or `client_id`) was used earlier with a different request body or path.',
    action: 'A caller bug: use a new key for a new request. Never resend under the old key.',
  },
  breadth_required: {
    status: 400,
    title: 'Breadth required',
    meaning: 'An org-wide key listed without choosing a breadth.',
    action: 'Make the call that `errors[]` and `detail` name: the project-scoped path, or the all-projects form.',
  },
  quota_exceeded: {
    status: 403,
    title: 'Quota exceeded',
    meaning: 'An inbox, auto-send or plan quota is exhausted (some creates answer 409).',
    action: 'Wait for the reset named in the body, free capacity (delete an inbox), or move to a larger plan. Retrying at once fails the same way.',
  },
  rate_limited: {
    status: 429,
    title: 'Rate limited',
    meaning: 'The key is over its per-minute request window.',
    action: 'Wait the `Retry-After` seconds, then retry; spread requests out.',
  },
  domain_not_allowed: {
    status: 400,
    title: 'Domain not allowed',
    meaning: 'The domain is outside the domains the key may use.',
    action: 'Use one of the key\'s allowed domains, or a key allowed on this one.',
  },
  recipient_blocked: {
    status: 403,
    title: 'Recipient blocked',
    meaning: 'A recipient is blocked by the inbox\'s own contact list.',
    action: 'Remove the blocked recipient, or change the inbox\'s contact list if the block is wrong.',
  },
  recipient_suppressed: {
    status: 422,
    title: 'Recipient suppressed',
    meaning: 'Recipients opted out by list-unsubscribe; `errors[]` names only the suppressed addresses.',
    action: 'Send again without the addresses in `errors[]`. Nothing was sent or queued.',
  },
  intent_required: {
    status: 422,
    title: 'Intent required',
    meaning: 'The inbox\'s policy routes sends to a human and no `intent` was given; nothing was sent or queued.',
    action: 'Add `intent.summary` (8 to 200 characters: who, what, why), for example the `retry_with` entry in `errors[]`, and send the same request again.',
  },
  wrong_state: {
    status: 409,
    title: 'Wrong state',
    meaning: 'The verb is not legal from the review\'s current state; the draft is still live.',
    action: 'Never repeat the same verb: read `state` and the `allowed_action` entries in `errors[]` and choose a legal verb.',
  },
  terminal: {
    status: 409,
    title: 'Review already finished',
    meaning: 'The review is already `sent`, `auto_sent` or `cancelled`.',
    action: 'Stop acting on this review; a `front_run_next` event holds the outcome, and `sent_message_id` names the sent message.',
  },
  stale: {
    status: 409,
    title: 'Stale revision or version',
    meaning: 'The named revision or version is no longer current; nothing changed.',
    action: 'Re-read the review and its feedback, re-apply your change on top and resubmit with the current revision as `parent_revision`; at most 3 times.',
  },
  born_stale: {
    status: 409,
    title: 'Built against older rules',
    meaning: 'A redraft was built against an older writing-rule high-water mark; nothing changed.',
    action: 'Re-read the rules and resubmit, or restamp the review when nothing needs to change; at most once per rule high-water mark.',
  },
  send_needs_reconciliation: {
    status: 409,
    title: 'Send needs reconciliation',
    meaning: 'An earlier send is unconfirmed and parked for recovery by its Message-ID.',
    action: 'Do not resend: poll the review until an operator reconciles it (`agent-inbox reconcile`).',
  },
  graduation_locked: {
    status: 409,
    title: 'Graduation locked',
    meaning: 'Graduation was requested for a category pinned at `supervised`.',
    action: 'Leave it supervised, or have a human unpin the category first.',
  },
  maturity_gate_unmet: {
    status: 409,
    title: 'Maturity gate unmet',
    meaning: 'Graduation was requested before the category earned its rung.',
    action: 'Keep sending under review until the gate is met, then ask again.',
  },
  scope_taken: {
    status: 409,
    title: 'Scope taken',
    meaning: 'A review link already exists for that scope.',
    action: 'Use the existing link, or remove it before creating another.',
  },
  not_configured: {
    status: 503,
    title: 'Not configured',
    meaning: 'The capability is absent in this deployment; this is permanent.',
    action: 'Do not retry: ask the operator to configure the capability, or do without it.',
  },
  unavailable: {
    status: 503,
    title: 'Unavailable',
    meaning: 'A dependency (the database) could not be reached; the service failed closed and changed nothing.',
    action: 'Retry after the `Retry-After` seconds.',
  },
  domain_unavailable: {
    status: 409,
    title: 'Domain unavailable',
    meaning: 'The domain cannot be purchased or onboarded.',
    action: 'Choose another domain.',
  },
  internal: {
    status: 500,
    title: 'Internal server error',
    meaning: 'The server failed to handle the request.',
    action: 'Retry later with the same Idempotency-Key; report the `request_id` if it persists.',
  },
  reply_context_required: {
    status: 409,
    title: 'Reply context required',
    meaning: 'A reply to a support case did not name the `sequence` of the newest update it answers. Nothing was stored.',
    action: 'Read the case, then send the reply again with `sequence` set to its newest update\'s sequence.',
  },
  reply_context_changed: {
    status: 409,
    title: 'Reply context changed',
    meaning: 'The support case moved on after the update the reply answers: `latest_update` holds the newer update (`truncated` when its body was cut) and `unsent_text` the reply, which was not stored.',
    action: 'Read `latest_update`, rewrite the reply against it and send it with that update\'s `sequence`.',
  },
  reply_workflow_required: {
    status: 409,
    title: 'Reply workflow required',
    meaning: 'The support case was resolved longer ago than its reopen window (14 days), so a reply no longer reopens it. Nothing was stored; `unsent_text` holds the reply.',
    action: 'File new feedback about the problem instead of replying.',
  },
  reply_already_pending: {
    status: 409,
    title: 'Reply already pending',
    meaning: 'Your previous reply to this support case has not been answered by staff yet. Nothing was stored; `unsent_text` holds the reply.',
    action: 'Wait for the next staff update, then reply to it.',
  },
} as const satisfies Record<string, ErrorEntry>;

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
  /** When the quota resets; absent for counts that never reset (inboxes, domains, members, webhooks). */
  next_reset_at?: string;
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
