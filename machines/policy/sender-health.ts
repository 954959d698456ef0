// Sender health: an inbox whose recent sends bounce or draw complaints too often has its new
// sends held for a human (`sender_health`) until one clears it. Mailbox providers judge a sender
// by these two rates (bounces past a few percent, complaints past 0.1%, and they start refusing
// the domain's mail); holding the agent's sends stops it digging deeper.

export type SenderHealthLimits = { minSends: number; maxBounceRate: number; maxComplaintRate: number };
export type SenderHealthCounts = { sends: number; bounces: number; complaints: number };

/** How many of an inbox's latest sends (one per recipient taken) the rates are counted over. */
export const SENDER_HEALTH_WINDOW = 1000;

export type SenderHealth = {
  healthy: boolean;
  /** Which rate is past its limit. */
  reason: 'bounce_rate' | 'complaint_rate' | null;
  bounce_rate: number;
  complaint_rate: number;
};

/**
 * The bounce rate counts only over at least `minSends` sends (a first bounce out of three is not
 * a pattern); the complaint rate over any number, as a complaint is a person's own word.
 */
export function senderHealth(c: SenderHealthCounts, limits: SenderHealthLimits): SenderHealth {
  const bounce_rate = c.sends > 0 ? c.bounces / c.sends : 0;
  const complaint_rate = c.sends > 0 ? c.complaints / c.sends : 0;
  const reason =
    c.sends >= limits.minSends && bounce_rate > limits.maxBounceRate ? 'bounce_rate' : complaint_rate > limits.maxComplaintRate ? 'complaint_rate' : null;
  return { healthy: reason === null, reason, bounce_rate, complaint_rate };
}
