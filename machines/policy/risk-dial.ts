// The account risk dial (contract: account-wide defaults inherited by a null per-category
// override), with the values an account starts from.

export type RiskDial = {
  min_confidence: number;
  first_contact_gate: boolean;
  drift_demote_after: number;
  canary_rate: number;
  graduate_min_approvals: number;
  graduate_min_age_hours: number;
  auto_send_cap_per_day: number;
};

export const RISK_DIAL_FIELDS = [
  'min_confidence',
  'first_contact_gate',
  'drift_demote_after',
  'canary_rate',
  'graduate_min_approvals',
  'graduate_min_age_hours',
  'auto_send_cap_per_day',
] as const satisfies ReadonlyArray<keyof RiskDial>;

/** Cautious on purpose: nothing graduates quickly and few sends skip a human. */
export const DEFAULT_RISK_DIAL: RiskDial = {
  min_confidence: 0.9,
  first_contact_gate: true,
  drift_demote_after: 3,
  canary_rate: 0.1,
  graduate_min_approvals: 20,
  graduate_min_age_hours: 72,
  auto_send_cap_per_day: 100,
};

/** Stored values over the defaults; a null (never set) field takes the default. */
export function effectiveRiskDial(stored: Partial<Record<keyof RiskDial, unknown>> | null): RiskDial {
  const out = { ...DEFAULT_RISK_DIAL } as Record<keyof RiskDial, unknown>;
  for (const field of RISK_DIAL_FIELDS) {
    const v = stored?.[field];
    if (v !== null && v !== undefined) out[field] = v;
  }
  return out as RiskDial;
}
