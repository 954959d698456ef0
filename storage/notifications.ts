// Review notifications: members' preferences, the notifications sent, one-time decision links,
// the channel of each human decision, and a project's chat-ops channel.
import { readAhead, takeRead, writeBeforeCommit, type Executor, type PreparedStatement } from './db.ts';
import { newId } from './ids.ts';

export type NotifyMode = 'instant' | 'digest' | 'off';
export type DecisionVia = 'console' | 'mail_link' | 'mail_reply';

export type PreferenceRow = { mode: NotifyMode; digest_minutes: number; updated_at: Date | null };

export const DEFAULT_PREFERENCE: PreferenceRow = { mode: 'instant', digest_minutes: 60, updated_at: null };

export async function findPreference(db: Executor, at: { org_id: string; project_id: string; user_id: string }): Promise<PreferenceRow> {
  const { rows } = await db.query<PreferenceRow>(
    'SELECT mode, digest_minutes, updated_at FROM notification_preferences WHERE org_id = $1 AND project_id = $2 AND user_id = $3',
    [at.org_id, at.project_id, at.user_id],
  );
  return rows[0] ?? DEFAULT_PREFERENCE;
}

export async function upsertPreference(
  db: Executor,
  at: { org_id: string; project_id: string; user_id: string },
  p: { mode: NotifyMode; digest_minutes: number },
): Promise<PreferenceRow> {
  const { rows } = await db.query<PreferenceRow>(
    `INSERT INTO notification_preferences (org_id, project_id, user_id, mode, digest_minutes) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (org_id, project_id, user_id) DO UPDATE SET mode = excluded.mode, digest_minutes = excluded.digest_minutes, updated_at = now()
     RETURNING mode, digest_minutes, updated_at`,
    [at.org_id, at.project_id, at.user_id, p.mode, p.digest_minutes],
  );
  return rows[0]!;
}

export type Decider = { user_id: string; email: string; mode: NotifyMode; digest_minutes: number };

/**
 * The members who may decide on the project's reviews (a writing role org-wide or in the project),
 * with their preference. Only this org's memberships are read.
 * Read with whether the project has a chat-ops channel, in one round trip.
 */
export async function noticeTargets(db: Executor, orgId: string, projectId: string): Promise<{ deciders: Decider[]; chatops: boolean }> {
  const { rows } = await takeRead<{ deciders: Decider[]; chatops: boolean }>(db, noticeTargetsStatement(orgId, projectId));
  return rows[0]!;
}

/**
 * Starts the read of the project's notice targets in a transaction that will announce a review
 * (readAhead): it then travels with an earlier statement, and noticeTargets takes its result.
 */
export function readNoticeTargetsAhead(tx: Executor, orgId: string, projectId: string): void {
  readAhead(tx, noticeTargetsStatement(orgId, projectId));
}

function noticeTargetsStatement(orgId: string, projectId: string): PreparedStatement {
  return {
    name: 'notifications-targets',
    text: `SELECT coalesce((
             SELECT json_agg(d ORDER BY d.email) FROM (
               SELECT u.id AS user_id, u.email, coalesce(p.mode, 'instant') AS mode, coalesce(p.digest_minutes, 60) AS digest_minutes
                 FROM users u
                 LEFT JOIN notification_preferences p ON p.org_id = $1 AND p.project_id = $2 AND p.user_id = u.id
                WHERE EXISTS (SELECT 1 FROM memberships m WHERE m.org_id = $1 AND m.user_id = u.id
                                 AND (m.project_id IS NULL OR m.project_id = $2) AND m.role IN ('owner', 'admin', 'member'))) d), '[]') AS deciders,
           EXISTS (SELECT 1 FROM chatops_channels WHERE org_id = $1 AND project_id = $2) AS chatops`,
    values: [orgId, projectId],
  };
}

/** Whether this email holds a deciding role in the project now. */
export async function isDecider(db: Executor, orgId: string, projectId: string, userId: string): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM memberships m WHERE m.org_id = $1 AND m.user_id = $3 AND (m.project_id IS NULL OR m.project_id = $2)
        AND m.role IN ('owner', 'admin', 'member') LIMIT 1`,
    [orgId, projectId, userId],
  );
  return rows.length > 0;
}

export type NotificationRow = {
  org_id: string;
  project_id: string;
  id: string;
  review_id: string;
  revision: number;
  user_id: string;
  email: string;
  reason: string;
  delivery: 'instant' | 'digest';
  status: 'pending' | 'sent' | 'skipped' | 'failed';
  route: string | null;
  created_at: Date;
  sent_at: Date | null;
};

const NOTIFICATION_COLUMNS = 'org_id, project_id, id, review_id, revision, user_id, email, reason, delivery, status, route, created_at, sent_at';

type NewNotification = Omit<NotificationRow, 'status' | 'route' | 'created_at' | 'sent_at'> & { dedupe_key: string };

/** A notification's insert, once per job key (a second is nothing). */
function notificationInsert(n: NewNotification, returning: string): PreparedStatement {
  return {
    name: `notifications-insert${returning ? '-returning' : ''}`,
    text: `INSERT INTO review_notifications (org_id, project_id, id, review_id, revision, user_id, email, reason, dedupe_key, delivery)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
           ON CONFLICT (org_id, review_id, user_id, dedupe_key) DO NOTHING ${returning}`,
    values: [n.org_id, n.project_id, n.id, n.review_id, n.revision, n.user_id, n.email, n.reason, n.dedupe_key, n.delivery],
  };
}

/** Records a notification once per job key; null when this job already recorded it. */
export async function claimNotification(db: Executor, n: NewNotification): Promise<NotificationRow | null> {
  const { rows } = await db.query<NotificationRow>(notificationInsert(n, `RETURNING ${NOTIFICATION_COLUMNS}`));
  return rows[0] ?? null;
}

/**
 * Records a review's notice for each decider who takes a digest, in the caller's transaction (each
 * insert goes with its next statement), and says whether anyone is to be told at once (an instant
 * decider, a chat-ops channel): that is the notify job's work.
 */
export async function recordDigestNotices(
  tx: Executor,
  n: Pick<NotificationRow, 'org_id' | 'project_id' | 'review_id' | 'revision' | 'reason'> & { dedupe_key: string },
): Promise<{ atOnce: boolean }> {
  const { deciders, chatops } = await noticeTargets(tx, n.org_id, n.project_id);
  for (const d of deciders) {
    if (d.mode !== 'digest') continue;
    await writeBeforeCommit(tx, notificationInsert({ ...n, id: newId('ntf'), user_id: d.user_id, email: d.email, delivery: 'digest' }, ''));
  }
  return { atOnce: chatops || deciders.some((d) => d.mode === 'instant') };
}

/** Inside a transaction it goes with the transaction's next statement (writeBeforeCommit). */
export async function markNotifications(db: Executor, orgId: string, ids: string[], status: NotificationRow['status'], route: string | null): Promise<void> {
  await writeBeforeCommit(db, {
    name: 'notifications-mark',
    text: 'UPDATE review_notifications SET status = $3, route = $4, sent_at = now() WHERE org_id = $1 AND id = ANY($2)',
    values: [orgId, ids, status, route],
  });
}

/** Members with pending digest notifications whose oldest has waited their digest interval by `now`. */
export async function dueDigests(db: Executor, now: Date): Promise<Array<{ org_id: string; project_id: string; user_id: string }>> {
  const { rows } = await db.query(
    `SELECT n.org_id, n.project_id, n.user_id
       FROM review_notifications n
       LEFT JOIN notification_preferences p ON p.org_id = n.org_id AND p.project_id = n.project_id AND p.user_id = n.user_id
      WHERE n.status = 'pending' AND n.delivery = 'digest'
      GROUP BY n.org_id, n.project_id, n.user_id, p.digest_minutes
     HAVING min(n.created_at) + make_interval(mins => coalesce(p.digest_minutes, 60)) <= $1`,
    [now],
  );
  return rows;
}

/** A member's pending digest notifications, locked: two digest runs never send the same ones. */
export async function lockPendingDigest(db: Executor, at: { org_id: string; project_id: string; user_id: string }): Promise<NotificationRow[]> {
  const { rows } = await db.query<NotificationRow>(
    `SELECT ${NOTIFICATION_COLUMNS} FROM review_notifications
      WHERE org_id = $1 AND project_id = $2 AND user_id = $3 AND status = 'pending' AND delivery = 'digest'
      ORDER BY created_at, id FOR UPDATE SKIP LOCKED`,
    [at.org_id, at.project_id, at.user_id],
  );
  return rows;
}

export async function listNotifications(db: Executor, orgId: string, reviewId: string): Promise<NotificationRow[]> {
  const { rows } = await db.query<NotificationRow>(
    `SELECT ${NOTIFICATION_COLUMNS} FROM review_notifications WHERE org_id = $1 AND review_id = $2 ORDER BY created_at, id`,
    [orgId, reviewId],
  );
  return rows;
}

export type DecisionLinkRow = {
  org_id: string;
  project_id: string;
  id: string;
  token_hash: Buffer;
  review_id: string;
  revision: number;
  user_id: string;
  email: string;
  notification_id: string | null;
  expires_at: Date;
  used_at: Date | null;
  used_action: string | null;
  created_at: Date;
};

const LINK_COLUMNS = 'org_id, project_id, id, token_hash, review_id, revision, user_id, email, notification_id, expires_at, used_at, used_action, created_at';

/** Inside a transaction it goes with the transaction's next statement (writeBeforeCommit): the link is valid once that commits. */
export async function insertDecisionLink(db: Executor, l: Omit<DecisionLinkRow, 'used_at' | 'used_action' | 'created_at'>): Promise<void> {
  await writeBeforeCommit(db, {
    name: 'notifications-insert-link',
    text: `INSERT INTO decision_links (org_id, project_id, id, token_hash, review_id, revision, user_id, email, notification_id, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    values: [l.org_id, l.project_id, l.id, l.token_hash, l.review_id, l.revision, l.user_id, l.email, l.notification_id, l.expires_at],
  });
}

export async function findDecisionLink(db: Executor, id: string, lock = false): Promise<DecisionLinkRow | null> {
  const { rows } = await db.query<DecisionLinkRow>(`SELECT ${LINK_COLUMNS} FROM decision_links WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
  return rows[0] ?? null;
}

/** Spends the link; false when it was spent already. */
export async function useDecisionLink(db: Executor, orgId: string, id: string, action: string): Promise<boolean> {
  const { rowCount } = await db.query(
    'UPDATE decision_links SET used_at = now(), used_action = $3 WHERE org_id = $1 AND id = $2 AND used_at IS NULL',
    [orgId, id, action],
  );
  return rowCount === 1;
}

export async function insertDecisionChannel(
  db: Executor,
  d: { org_id: string; project_id: string; review_id: string; revision: number; action: string; email: string; via: DecisionVia },
): Promise<void> {
  await db.query(
    `INSERT INTO review_decision_channels (org_id, project_id, review_id, revision, action, email, via) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [d.org_id, d.project_id, d.review_id, d.revision, d.action, d.email, d.via],
  );
}

export type DecisionChannelRow = { revision: number; action: string; email: string; via: DecisionVia; created_at: Date };

export async function listDecisionChannels(db: Executor, orgId: string, reviewId: string): Promise<DecisionChannelRow[]> {
  const { rows } = await db.query<DecisionChannelRow>(
    'SELECT revision, action, email, via, created_at FROM review_decision_channels WHERE org_id = $1 AND review_id = $2 ORDER BY created_at',
    [orgId, reviewId],
  );
  return rows;
}

export async function findChatops(db: Executor, orgId: string, projectId: string): Promise<{ webhook_url: string; updated_at: Date } | null> {
  const { rows } = await db.query('SELECT webhook_url, updated_at FROM chatops_channels WHERE org_id = $1 AND project_id = $2', [orgId, projectId]);
  return rows[0] ?? null;
}

export async function setChatops(db: Executor, orgId: string, projectId: string, url: string | null): Promise<void> {
  if (url === null) {
    await db.query('DELETE FROM chatops_channels WHERE org_id = $1 AND project_id = $2', [orgId, projectId]);
    return;
  }
  await db.query(
    `INSERT INTO chatops_channels (org_id, project_id, webhook_url) VALUES ($1, $2, $3)
     ON CONFLICT (org_id, project_id) DO UPDATE SET webhook_url = excluded.webhook_url, updated_at = now()`,
    [orgId, projectId, url],
  );
}

export async function userIdByEmail(db: Executor, email: string): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [email.trim().toLowerCase()]);
  return rows[0]?.id ?? null;
}

/** The notification a job key recorded for this recipient, or null. */
export async function findNotificationByKey(db: Executor, at: { org_id: string; review_id: string; user_id: string; dedupe_key: string }): Promise<NotificationRow | null> {
  const { rows } = await db.query<NotificationRow>(
    `SELECT ${NOTIFICATION_COLUMNS} FROM review_notifications WHERE org_id = $1 AND review_id = $2 AND user_id = $3 AND dedupe_key = $4`,
    [at.org_id, at.review_id, at.user_id, at.dedupe_key],
  );
  return rows[0] ?? null;
}

/** The status of the notification a job key recorded for this recipient, or null. */
export async function notificationStatus(db: Executor, at: { org_id: string; review_id: string; user_id: string; dedupe_key: string }): Promise<NotificationRow['status'] | null> {
  const { rows } = await db.query<{ status: NotificationRow['status'] }>(
    'SELECT status FROM review_notifications WHERE org_id = $1 AND review_id = $2 AND user_id = $3 AND dedupe_key = $4',
    [at.org_id, at.review_id, at.user_id, at.dedupe_key],
  );
  return rows[0]?.status ?? null;
}

export async function markNotificationByKey(db: Executor, at: { org_id: string; review_id: string; user_id: string; dedupe_key: string }, route: string): Promise<void> {
  await db.query(
    `UPDATE review_notifications SET status = 'sent', route = $5, sent_at = now() WHERE org_id = $1 AND review_id = $2 AND user_id = $3 AND dedupe_key = $4`,
    [at.org_id, at.review_id, at.user_id, at.dedupe_key, route],
  );
}

/** Locks these notifications and returns the ids still waiting to be sent (another run may have sent them). */
export async function lockStillPending(db: Executor, orgId: string, ids: string[]): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM review_notifications WHERE org_id = $1 AND id = ANY($2) AND status = 'pending' ORDER BY id FOR UPDATE`,
    [orgId, ids],
  );
  return rows.map((r) => r.id);
}

/** These notifications with the inbox of their review (for the event log). */
export async function listNotificationsById(db: Executor, orgId: string, ids: string[]): Promise<Array<NotificationRow & { inbox_id: string }>> {
  const { rows } = await db.query<NotificationRow & { inbox_id: string }>(
    `SELECT ${NOTIFICATION_COLUMNS.split(', ').map((c) => `n.${c}`).join(', ')}, r.inbox_id
       FROM review_notifications n JOIN reviews r ON r.org_id = n.org_id AND r.id = n.review_id
      WHERE n.org_id = $1 AND n.id = ANY($2) ORDER BY n.created_at, n.id`,
    [orgId, ids],
  );
  return rows;
}
