// Sliding-window estimate from two fixed windows: the previous window's hits are weighed by
// how much of it still overlaps the last 60 seconds.

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export function decideRate(c: { current: number; previous: number; elapsed: number }, limit: number): RateDecision {
  const overlap = Math.max(0, 1 - c.elapsed / 60);
  const estimate = c.previous * overlap + c.current;
  if (estimate <= limit) return { allowed: true };
  const untilNextWindow = Math.max(1, Math.ceil(60 - c.elapsed));
  if (c.current > limit || c.previous === 0) return { allowed: false, retryAfterSeconds: untilNextWindow };
  // Seconds until the previous window's weight has shrunk enough to fit under the limit.
  const excess = estimate - limit;
  const seconds = Math.ceil((excess / c.previous) * 60);
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.min(seconds, untilNextWindow)) };
}
