// What happens after a webhook delivery attempt: done, retry later (the schedule, with jitter so a
// receiver coming back is not hit by every queued retry at once), give up, or deactivate the webhook.

/** ±10 % of each delay. */
const JITTER = 0.1;

export type AttemptOutcome =
  | { kind: 'succeeded' }
  | { kind: 'retry'; delayMs: number }
  | { kind: 'gave_up' }
  | { kind: 'deactivated' };

/**
 * `attempt` is the 1-based number of the attempt that just ended; `consecFailures` the webhook's count
 * of consecutive failures including this attempt. `random` is in [0, 1).
 */
export function afterAttempt(input: {
  ok: boolean;
  attempt: number;
  consecFailures: number;
  schedule: readonly number[];
  deactivateAfter: number;
  random: number;
}): AttemptOutcome {
  if (input.ok) return { kind: 'succeeded' };
  if (input.consecFailures >= input.deactivateAfter) return { kind: 'deactivated' };
  const seconds = input.schedule[input.attempt - 1];
  if (seconds === undefined) return { kind: 'gave_up' };
  const factor = 1 + JITTER * (2 * input.random - 1);
  return { kind: 'retry', delayMs: Math.max(1, Math.round(seconds * 1000 * factor)) };
}

/** A 2xx ends delivery; redirects are not followed, so a 3xx is a failure like any other status. */
export const isDelivered = (status: number | null): boolean => status !== null && status >= 200 && status < 300;
