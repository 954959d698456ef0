// A storing failure caused by the message itself fails again on every retry: PostgreSQL's data
// exceptions (class 22: a value it cannot hold) and program limits (class 54: an index entry or a
// search vector too large). Answering those 451 had the sender retry for days and then bounce.
// Such a message is stored again with only its raw source; if even that fails, it is refused for
// good. Anything else (the database unreachable, a lock, a trigger) stays a 451.
import { smtpError } from './smtp-error.ts';

export function failsOnContent(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(22|54)[0-9A-Z]{3}$/.test(code);
}

/** 554: the sender bounces the message at once. */
export const refusedForGood = (what: string) => smtpError(554, what);
