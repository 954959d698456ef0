// The rolling 24-hour recipient limit of an inbox: what a send adds must fit in what is left.

export type RecipientLimitCheck = { allowed: boolean; used: number; delta: number; limit: number; remaining: number };

export function checkRecipientLimit(input: { used: number; delta: number; limit: number }): RecipientLimitCheck {
  const remaining = Math.max(0, input.limit - input.used);
  return { allowed: input.delta <= remaining, used: input.used, delta: input.delta, limit: input.limit, remaining };
}
