// One-time console sign-in links: stored as the code's hash, spent by the first redemption.
import type { Executor } from './db.ts';

export async function insertSignInLink(db: Executor, link: { code_hash: Buffer; email: string; expires_at: Date }): Promise<void> {
  await db.query('INSERT INTO console_sign_in_links (code_hash, email, expires_at) VALUES ($1, lower($2), $3)', [
    link.code_hash,
    link.email,
    link.expires_at,
  ]);
  // Links past their time are of no use to anyone: dropped whenever a new one is made.
  await db.query("DELETE FROM console_sign_in_links WHERE expires_at < now() - interval '1 day'");
}

/**
 * Spends the link in one statement, so two redemptions racing get one session between them.
 * Null when the code is unknown, already used or expired.
 */
export async function spendSignInLink(db: Executor, codeHash: Buffer, now: Date): Promise<{ email: string } | null> {
  const { rows } = await db.query<{ email: string }>(
    `UPDATE console_sign_in_links SET used_at = $2
      WHERE code_hash = $1 AND used_at IS NULL AND expires_at > $2
      RETURNING email`,
    [codeHash, now],
  );
  return rows[0] ?? null;
}
