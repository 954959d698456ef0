// The account's review settings: the default review policy (orgs.default_review_policy) and the
// risk dial (review_settings; a null field means the built-in default).
import { RISK_DIAL_FIELDS, type RiskDial } from '../machines/policy/risk-dial.ts';
import type { ReviewPolicy } from '../machines/policy/review-policy.ts';
import type { Executor } from './db.ts';
import type { InboxWithPolicy } from './inboxes.ts';

export type StoredReviewSettings = {
  default_review_policy: ReviewPolicy;
  dial: Partial<Record<keyof RiskDial, unknown>> | null;
  updated_at: Date | null;
};

export async function readReviewSettings(db: Executor, orgId: string): Promise<StoredReviewSettings | null> {
  const { rows } = await db.query<{ default_review_policy: ReviewPolicy; dial: Record<string, unknown> | null; updated_at: Date | null }>({
    name: 'review-settings-read',
    text: `SELECT o.default_review_policy, to_jsonb(s) AS dial, s.updated_at
       FROM orgs o LEFT JOIN review_settings s ON s.org_id = o.id WHERE o.id = $1`,
    values: [orgId],
  });
  return rows[0] ?? null;
}

export async function writeReviewSettings(
  tx: Executor,
  orgId: string,
  change: Partial<RiskDial> & { default_review_policy?: ReviewPolicy },
): Promise<void> {
  if (change.default_review_policy !== undefined) {
    await tx.query('UPDATE orgs SET default_review_policy = $2 WHERE id = $1', [orgId, change.default_review_policy]);
  }
  const fields = RISK_DIAL_FIELDS.filter((f) => change[f] !== undefined);
  if (fields.length === 0) return;
  await tx.query(
    `INSERT INTO review_settings (org_id, ${fields.join(', ')}) VALUES ($1, ${fields.map((_, i) => `$${i + 2}`).join(', ')})
     ON CONFLICT (org_id) DO UPDATE SET ${fields.map((f) => `${f} = EXCLUDED.${f}`).join(', ')}, updated_at = now()`,
    [orgId, ...fields.map((f) => change[f])],
  );
}

/**
 * Sets an inbox's review policy override and/or recipient limit; the inbox (with its org's
 * default policy) after the change, or null when the project has no such inbox.
 */
export async function updateInboxReviewSettings(
  db: Executor,
  at: { org_id: string; project_id: string; inbox: string },
  change: { review_policy?: ReviewPolicy | null; recipient_limit_24h?: number },
): Promise<InboxWithPolicy | null> {
  const { rows } = await db.query<InboxWithPolicy>(
    `WITH changed AS (
       UPDATE inboxes SET
         review_policy = CASE WHEN $4 THEN $5 ELSE review_policy END,
         recipient_limit_24h = coalesce($6, recipient_limit_24h)
        WHERE org_id = $1 AND project_id = $2 AND (id = $3 OR address = lower($3))
       RETURNING *)
     SELECT c.*, o.default_review_policy FROM changed c JOIN orgs o ON o.id = c.org_id`,
    [at.org_id, at.project_id, at.inbox, change.review_policy !== undefined, change.review_policy ?? null, change.recipient_limit_24h ?? null],
  );
  return rows[0] ?? null;
}
