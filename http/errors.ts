// The one serializer of the problem vocabulary (machines/problems.ts) for both envelopes:
// problem+json (RFC 9457) with the contract's closed `code` enum, and the legacy {error, message}.
import { ERROR_CODES, LegacyError, Problem, type ErrorCode } from '../machines/problems.ts';

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
