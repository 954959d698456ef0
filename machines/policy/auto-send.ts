// Whether a send in a category is released without review, and why (contract behaviour 5,
// decisions.md "Categories"). The rung decides first; on an auto rung the gates may still hold
// the send in review: a first mail to a recipient, a confidence below the dial's, the canary
// share on `autonomous`. The daily cap is counted last, in the send transaction, by the caller.
import type { RiskDial } from './risk-dial.ts';

export type AutoRung = 'supervised' | 'auto_notify' | 'autonomous';

/** Why a send was held for review or released: recorded on the review as `mode_reason`. */
export type ModeReason =
  | 'review_policy'
  | 'screening'
  | 'loop_suspected'
  | 'sender_health'
  | 'allow_direct'
  | 'category_supervised'
  | 'first_contact_gate'
  | 'min_confidence'
  | 'canary_rate'
  | 'auto_send_cap'
  | 'category_auto_notify'
  | 'category_autonomous';

export type AutoSendDecision = { release: boolean; reason: ModeReason };

/**
 * A number in [0, 1) fixed by the review id (FNV-1a, 32 bits): the canary decision for a review
 * is the same every time it is computed, so a replay decides the same.
 */
export function canaryPoint(reviewId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < reviewId.length; i++) {
    h ^= reviewId.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h / 2 ** 32;
}

export const inCanary = (reviewId: string, rate: number): boolean => canaryPoint(reviewId) < rate;

/** The confidence the send states in `intent.meta.confidence`, when it is a number. */
export function statedConfidence(intent: { meta?: Record<string, unknown> } | null): number | null {
  const c = intent?.meta?.confidence;
  return typeof c === 'number' && Number.isFinite(c) ? c : null;
}

/** The gates of a send in a category, before the cap. */
export function autoSendGate(input: {
  rung: AutoRung;
  dial: Pick<RiskDial, 'first_contact_gate' | 'min_confidence' | 'canary_rate'>;
  first_contacts: string[];
  confidence: number | null;
  review_id: string;
}): AutoSendDecision {
  if (input.rung === 'supervised') return { release: false, reason: 'category_supervised' };
  if (input.dial.first_contact_gate && input.first_contacts.length > 0) return { release: false, reason: 'first_contact_gate' };
  if (input.confidence !== null && input.confidence < input.dial.min_confidence) return { release: false, reason: 'min_confidence' };
  if (input.rung === 'autonomous' && inCanary(input.review_id, input.dial.canary_rate)) return { release: false, reason: 'canary_rate' };
  return { release: true, reason: input.rung === 'autonomous' ? 'category_autonomous' : 'category_auto_notify' };
}
