// The intent gate: under require_review a send must say who it is for, what it asks and why
// (`intent.summary`, 8-200 characters) before any row is written, so a refused request can be
// retried unchanged plus the intent. An intent that is present is checked under any policy, and
// a defective one is a plain 400 naming the field.
import type { ReviewPolicy, ReviewPolicySource } from './review-policy.ts';

export const INTENT_SUMMARY_MIN = 8;
export const INTENT_SUMMARY_MAX = 200;

export interface IntentFieldError {
  field: string;
  code: string;
  detail: string;
  /** On the `policy` entry. */
  policy?: ReviewPolicy;
  source?: ReviewPolicySource;
  /** On the `retry_with` entry: the intent object to splice into the request as `intent`. */
  example?: Record<string, unknown>;
}

/** Problem pieces; the HTTP layer adds type, request_id and serializes them as problem+json. */
export interface IntentProblem {
  code: 'intent_required' | 'bad_request';
  status: 422 | 400;
  title: string;
  detail: string;
  errors: IntentFieldError[];
}

/** A fresh copy each time, so no caller can alter the example others receive. */
export function retryWithExample(): { summary: string; meta: Record<string, unknown> } {
  return {
    summary: 'Reply to Dana at Acme confirming the Tuesday 10:00 demo she asked for, so she can book the room',
    meta: { goal: 'confirm the demo slot', recipient: 'dana@acme.example', prior_touches: 1, urgency: 'normal' },
  };
}

const SOURCE_WORDS: Record<ReviewPolicySource, string> = {
  inbox_override: "this inbox's own review policy",
  account_default: "the account's default review policy",
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Field errors of an intent that was supplied; empty when it is valid. */
export function intentErrors(intent: unknown): IntentFieldError[] {
  const range = `${INTENT_SUMMARY_MIN}-${INTENT_SUMMARY_MAX} characters`;
  if (!isObject(intent)) {
    return [{ field: 'intent', code: 'invalid_type', detail: `intent must be an object with summary (${range})` }];
  }
  const errors: IntentFieldError[] = [];
  const summary = intent.summary;
  if (summary === undefined || summary === null) {
    errors.push({ field: 'intent.summary', code: 'required', detail: `intent.summary is required: ${range}` });
  } else if (typeof summary !== 'string') {
    errors.push({ field: 'intent.summary', code: 'invalid_type', detail: `intent.summary must be a string of ${range}` });
  } else {
    // Counted in code points after trimming, so padding and surrogate pairs do not game the bounds.
    const length = [...summary.trim()].length;
    if (length < INTENT_SUMMARY_MIN) {
      errors.push({ field: 'intent.summary', code: 'too_short', detail: `intent.summary has ${length} characters; ${range}` });
    } else if (length > INTENT_SUMMARY_MAX) {
      errors.push({ field: 'intent.summary', code: 'too_long', detail: `intent.summary has ${length} characters; ${range}` });
    }
  }
  if (intent.meta !== undefined && intent.meta !== null && !isObject(intent.meta)) {
    errors.push({
      field: 'intent.meta',
      code: 'invalid_type',
      detail: 'intent.meta must be an object (goal, recipient, prior_touches, urgency)',
    });
  }
  return errors;
}

/**
 * An intent that was given but is not valid: `400 bad_request` naming each defective field,
 * under any policy. `intent_required` is kept for an intent that was not given at all, so a
 * client can tell "add an intent" from "fix the one you sent".
 */
export function invalidIntent(intent: unknown): IntentProblem | null {
  if (intent === undefined || intent === null) return null;
  const defects = intentErrors(intent);
  if (defects.length === 0) return null;
  return {
    code: 'bad_request',
    status: 400,
    title: 'Invalid intent',
    detail: `The intent is invalid: ${defects.map((e) => e.detail).join('; ')}. Nothing was sent or queued.`,
    errors: defects,
  };
}

export function checkIntent(input: {
  policy: ReviewPolicy;
  source: ReviewPolicySource;
  intent: unknown;
  category_id?: string | null;
}): IntentProblem | null {
  const invalid = invalidIntent(input.intent);
  if (invalid) return invalid;
  const supplied = input.intent !== undefined && input.intent !== null;
  if (supplied || input.policy === 'allow_direct') return null;

  const summaryError: IntentFieldError = {
    field: 'intent.summary',
    code: 'required',
    detail: `required: ${INTENT_SUMMARY_MIN}-${INTENT_SUMMARY_MAX} characters saying who you are writing to, what you ask and why`,
  };
  const example = JSON.stringify({ intent: retryWithExample() });

  return {
    code: 'intent_required',
    status: 422,
    title: 'Intent required',
    detail:
      `The review policy is ${input.policy}, from ${SOURCE_WORDS[input.source]} (${input.source}): ` +
      'a human reviews this send and needs to know what it is for. ' +
      'Nothing was sent or queued. ' +
      `Add intent.summary (${INTENT_SUMMARY_MIN}-${INTENT_SUMMARY_MAX} characters: who, what, why) and retry the same request, ` +
      `for example with ${example}.`,
    errors: [
      summaryError,
      { field: 'intent.meta', code: 'optional', detail: 'optional object: goal, recipient, prior_touches, urgency' },
      {
        field: 'category_id',
        code: 'optional',
        detail:
          input.category_id != null
            ? `given: ${input.category_id}`
            : 'optional cat_... from GET /v1/categories (list_categories); a send in a graduated category can be auto-sent',
      },
      {
        field: 'policy',
        code: input.policy,
        detail: `${input.policy} (source: ${input.source})`,
        policy: input.policy,
        source: input.source,
      },
      {
        field: 'retry_with',
        code: 'example',
        detail: example,
        example: retryWithExample(),
      },
    ],
  };
}
