// Metering: what each org (the billing owner) sent, received and stores, per UTC month and day,
// written in the transaction of the message it counts. Sends reserve their recipients first
// (usage_accounts.reserved, and the enrollment token's send_reserved); delivery consumes the
// reservation into the period counters, a cancel, reject or failure releases it.
//
// Exact under concurrency and across processes: a reservation locks the org's usage_accounts row
// (and its token's row) before it reads the period counters, and every statement that moves a
// reservation into a counter holds the same lock; READ COMMITTED gives each later statement a
// snapshot that sees whatever the previous holder committed.
//
// Counters are kept in slots (migration 0029): a transaction adds to its session's slot, so one
// org's stored messages do not queue behind one row lock, and a figure is the sum of the slots
// (a peak, their greatest).
import { writeBeforeCommit, type Executor, type PreparedStatement } from './db.ts';

// Period keys are computed by PostgreSQL from the transaction's time, in UTC.
const MONTH = `to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM')`;
const DAY = `to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
// The slot a session adds to: the same for its whole life, so its transactions never wait on each
// other, and a transaction touching two orgs still locks them in org order. Sixty-four, because
// a process holds some 45 sessions (API, workers, queue): with eight, sessions shared slots and a
// delivery's metering waited on another's commit.
const SLOT = `(pg_backend_pid() % 64)::smallint`;

/** The figures a send's caps are checked against, read after its reservation was taken. */
export type SendUsage = {
  /** Recipients reserved by the org's other pending sends. */
  reserved: number;
  /** Recipients delivered today (UTC) by the org. */
  day_sent: number;
  /** Messages this month: recipients sent plus copies received. */
  month_total: number;
  token: { reserved: number; day_sent: number } | null;
};

/**
 * Reserves `recipients` for the review against its org and, when given, its enrollment token, and
 * returns what was used before. The caller checks the caps and throws (rolling back) when over.
 */
export async function reserveSend(
  tx: Executor,
  r: { org_id: string; review_id: string; recipients: number; token_id: string | null },
): Promise<SendUsage> {
  const acc = await tx.query<{ before: number }>({
    name: 'usage-reserve-account',
    text: `INSERT INTO usage_accounts (org_id, reserved) VALUES ($1, $2)
           ON CONFLICT (org_id) DO UPDATE SET reserved = usage_accounts.reserved + EXCLUDED.reserved
           RETURNING reserved - $2 AS before`,
    values: [r.org_id, r.recipients],
  });
  let tokenBefore: number | null = null;
  if (r.token_id) {
    const t = await tx.query<{ before: number }>({
      name: 'usage-reserve-token',
      text: `UPDATE enrollment_tokens SET send_reserved = send_reserved + $3 WHERE org_id = $1 AND id = $2 RETURNING send_reserved - $3 AS before`,
      values: [r.org_id, r.token_id, r.recipients],
    });
    tokenBefore = t.rows[0]?.before ?? null;
  }
  // A new statement, after the locks: its snapshot holds every delivery committed before them.
  const { rows } = await tx.query<{ day_sent: number; month_total: number; token_day_sent: number }>({
    name: 'usage-reserve-read',
    text: `WITH mark AS (UPDATE reviews SET reserved_recipients = $3, reserved_token_id = $4 WHERE org_id = $1 AND id = $2)
           SELECT coalesce((SELECT sum(sent_recipients) FROM usage_periods WHERE org_id = $1 AND period = ${DAY}), 0)::bigint AS day_sent,
                  coalesce((SELECT sum(sent_recipients + received_recipients) FROM usage_periods WHERE org_id = $1 AND period = ${MONTH}), 0)::bigint AS month_total,
                  coalesce((SELECT recipients FROM enrollment_token_sends
                             WHERE org_id = $1 AND token_id = $4 AND day = (now() AT TIME ZONE 'UTC')::date), 0) AS token_day_sent`,
    values: [r.org_id, r.review_id, r.recipients, tokenBefore === null ? null : r.token_id],
  });
  const f = rows[0]!;
  return {
    reserved: acc.rows[0]!.before,
    day_sent: f.day_sent,
    month_total: f.month_total,
    token: tokenBefore === null ? null : { reserved: tokenBefore, day_sent: f.token_day_sent },
  };
}

/**
 * Settles a review's reservation: `consume` (delivered) counts the send in this month and day and
 * on its token's day; `release` (cancelled, rejected, failed) only gives the reservation back.
 * A review settled already holds nothing, so a second settlement moves no reservation (a consume
 * still counts: every delivery is a sent message). Returns the recipients the review held.
 */
export async function settleReservation(tx: Executor, r: Settlement): Promise<number> {
  const { rows } = await tx.query<{ n: number | null }>(settlementStatement(r));
  return rows[0]?.n ?? 0;
}

/** settleReservation for a caller that reads nothing back: with the transaction's next statement (writeBeforeCommit). */
export async function settleReservationAtCommit(tx: Executor, r: Settlement): Promise<void> {
  await writeBeforeCommit(tx, settlementStatement(r));
}

type Settlement = { org_id: string; review_id: string; outcome: 'consume' | 'release'; sent_recipients: number };

function settlementStatement(r: Settlement): PreparedStatement {
  // One statement; the select list reads each part in turn, so the rows lock in the same order
  // as every other writer's: the review, the account, the token, then the periods.
  return {
    name: 'usage-settle-review',
    text: `WITH held AS (
             UPDATE reviews x SET reserved_recipients = 0, reserved_token_id = NULL
               FROM (SELECT id, reserved_recipients, reserved_token_id FROM reviews WHERE org_id = $1 AND id = $2 FOR UPDATE) old
              WHERE x.org_id = $1 AND x.id = old.id AND old.reserved_recipients > 0
             RETURNING old.reserved_recipients AS n, old.reserved_token_id AS token_id),
           account AS (
             INSERT INTO usage_accounts (org_id) SELECT $1::text FROM held
             ON CONFLICT (org_id) DO UPDATE SET reserved = greatest(0, usage_accounts.reserved - (SELECT n FROM held))
             RETURNING 1),
           token AS (
             UPDATE enrollment_tokens t SET send_reserved = greatest(0, t.send_reserved - held.n)
               FROM held WHERE t.org_id = $1 AND t.id = held.token_id
             RETURNING 1),
           sent AS (
             INSERT INTO usage_periods (org_id, period, slot, sent_messages, sent_recipients)
             SELECT $1, p, ${SLOT}, 1, $4::int FROM unnest(ARRAY[${MONTH}, ${DAY}]) p WHERE $3::boolean
             ON CONFLICT (org_id, period, slot) DO UPDATE
               SET sent_messages = usage_periods.sent_messages + 1, sent_recipients = usage_periods.sent_recipients + EXCLUDED.sent_recipients
             RETURNING 1),
           token_sent AS (
             INSERT INTO enrollment_token_sends (org_id, token_id, day, recipients)
             SELECT $1, held.token_id, (now() AT TIME ZONE 'UTC')::date, $4::int FROM held WHERE $3 AND held.token_id IS NOT NULL
             ON CONFLICT (org_id, token_id, day) DO UPDATE SET recipients = enrollment_token_sends.recipients + EXCLUDED.recipients
             RETURNING 1)
           SELECT (SELECT n FROM held) AS n, (SELECT count(*) FROM account) AS a, (SELECT count(*) FROM token) AS t,
                  (SELECT count(*) FROM sent) AS s, (SELECT count(*) FROM token_sent) AS ts`,
    values: [r.org_id, r.review_id, r.outcome === 'consume', r.sent_recipients],
  };
}

/** What one org received in one transaction: messages, the copies stored (one per inbox), bytes. */
export type Received = { org_id: string; messages: number; copies: number; bytes: number };

/** An org's figures after counting received mail, for the inbound quota check. */
export type AfterReceipt = { org_id: string; plan_tier: string; storage_bytes: number; month_total: number };

/**
 * Counts received mail per org (in org order, so concurrent batches lock slots alike): stored
 * bytes, this month's and today's received counters and the storage peak, in this session's
 * slots. One statement an org; the figures it returns sum every slot, the others as last committed.
 */
export async function countReceived(tx: Executor, received: Received[]): Promise<AfterReceipt[]> {
  const out: AfterReceipt[] = [];
  for (const r of inOrgOrder(received)) out.push((await tx.query<AfterReceipt>(countReceivedStatement(r))).rows[0]!);
  return out;
}

/** countReceived when nobody reads the figures: the statements go with the transaction's next one (writeBeforeCommit), in the same order. */
export async function countReceivedAhead(tx: Executor, received: Received[]): Promise<void> {
  for (const r of inOrgOrder(received)) await writeBeforeCommit(tx, countReceivedStatement(r));
}

const inOrgOrder = (received: Received[]) => [...received].sort((a, b) => (a.org_id < b.org_id ? -1 : a.org_id > b.org_id ? 1 : 0));

function countReceivedStatement(r: Received): PreparedStatement {
  return {
    name: 'usage-count-received',
    text: `WITH acc AS (
             INSERT INTO usage_storage (org_id, slot, bytes) VALUES ($1, ${SLOT}, $4)
             ON CONFLICT (org_id, slot) DO UPDATE SET bytes = usage_storage.bytes + EXCLUDED.bytes
             RETURNING bytes),
           total AS (
             SELECT acc.bytes + coalesce((SELECT sum(bytes) FROM usage_storage WHERE org_id = $1 AND slot <> ${SLOT}), 0) AS storage_bytes
               FROM acc),
           per AS (
             INSERT INTO usage_periods (org_id, period, slot, received_messages, received_recipients, storage_peak_bytes)
             SELECT $1, p, ${SLOT}, $2, $3, total.storage_bytes FROM total, unnest(ARRAY[${MONTH}, ${DAY}]) p
             ON CONFLICT (org_id, period, slot) DO UPDATE
               SET received_messages = usage_periods.received_messages + EXCLUDED.received_messages,
                   received_recipients = usage_periods.received_recipients + EXCLUDED.received_recipients,
                   storage_peak_bytes = greatest(usage_periods.storage_peak_bytes, EXCLUDED.storage_peak_bytes)
             RETURNING period, sent_recipients + received_recipients AS total)
           SELECT $1::text AS org_id, (SELECT plan_tier FROM orgs WHERE id = $1) AS plan_tier, total.storage_bytes::bigint AS storage_bytes,
                  ((SELECT total FROM per WHERE length(period) = 7)
                    + coalesce((SELECT sum(sent_recipients + received_recipients) FROM usage_periods
                                 WHERE org_id = $1 AND period = ${MONTH} AND slot <> ${SLOT}), 0))::bigint AS month_total
             FROM total`,
    values: [r.org_id, r.messages, r.copies, r.bytes],
  };
}

/** Stored bytes given back (messages deleted). */
export async function releaseStorage(tx: Executor, orgId: string, bytes: number): Promise<void> {
  await tx.query(
    `INSERT INTO usage_storage (org_id, slot, bytes) VALUES ($1, ${SLOT}, -$2::bigint)
     ON CONFLICT (org_id, slot) DO UPDATE SET bytes = usage_storage.bytes + EXCLUDED.bytes`,
    [orgId, bytes],
  );
}

export type PeriodUsage = {
  sent_messages: number;
  sent_recipients: number;
  received_messages: number;
  received_recipients: number;
  storage_peak_bytes: number;
  closed_at: Date | null;
};

export type OrgUsage = {
  month: PeriodUsage;
  today: PeriodUsage;
  reserved: number;
  storage_bytes: number;
  mailbox_count: number;
};

const ZERO: PeriodUsage = { sent_messages: 0, sent_recipients: 0, received_messages: 0, received_recipients: 0, storage_peak_bytes: 0, closed_at: null };

/** A period's figures over its slots (closed once every slot is). */
const PERIOD_SUMS = `SELECT period, sum(sent_messages)::bigint AS sent_messages, sum(sent_recipients)::bigint AS sent_recipients,
         sum(received_messages)::bigint AS received_messages, sum(received_recipients)::bigint AS received_recipients,
         max(storage_peak_bytes)::bigint AS storage_peak_bytes, CASE WHEN bool_and(closed_at IS NOT NULL) THEN max(closed_at) END AS closed_at
    FROM usage_periods`;

/** An org's counters for `month` (`YYYY-MM`) and today (UTC), with what it holds now. */
export async function orgUsage(db: Executor, orgId: string, month: string): Promise<OrgUsage> {
  const { rows } = await db.query<{ period: string | null; reserved: number | null; storage_bytes: number; mailbox_count: number } & PeriodUsage>(
    `SELECT p.period, p.sent_messages, p.sent_recipients, p.received_messages, p.received_recipients, p.storage_peak_bytes, p.closed_at,
            a.reserved, greatest(0, coalesce((SELECT sum(bytes) FROM usage_storage WHERE org_id = $1), 0))::bigint AS storage_bytes,
            (SELECT count(*)::int FROM inboxes WHERE org_id = $1) AS mailbox_count
       FROM (SELECT 1) one
       LEFT JOIN usage_accounts a ON a.org_id = $1
       LEFT JOIN (${PERIOD_SUMS} WHERE org_id = $1 AND period IN ($2, ${DAY}) GROUP BY period) p ON true`,
    [orgId, month],
  );
  const pick = (period: (r: string) => boolean): PeriodUsage => {
    const row = rows.find((r) => r.period !== null && period(r.period));
    if (!row) return { ...ZERO };
    const { sent_messages, sent_recipients, received_messages, received_recipients, storage_peak_bytes, closed_at } = row;
    return { sent_messages, sent_recipients, received_messages, received_recipients, storage_peak_bytes, closed_at };
  };
  const first = rows[0]!;
  return {
    month: pick((p) => p === month),
    today: pick((p) => p.length === 10),
    reserved: first.reserved ?? 0,
    storage_bytes: first.storage_bytes,
    mailbox_count: first.mailbox_count,
  };
}

/** An enrollment token's pending reservations and today's delivered recipients. */
export async function tokenSendUsage(db: Executor, orgId: string, tokenId: string): Promise<{ limit: number | null; reserved: number; day_sent: number } | null> {
  const { rows } = await db.query<{ limit: number | null; reserved: number; day_sent: number }>(
    `SELECT t.daily_send_limit AS limit, t.send_reserved AS reserved,
            coalesce((SELECT recipients FROM enrollment_token_sends s
                       WHERE s.org_id = t.org_id AND s.token_id = t.id AND s.day = (now() AT TIME ZONE 'UTC')::date), 0) AS day_sent
       FROM enrollment_tokens t WHERE t.org_id = $1 AND t.id = $2`,
    [orgId, tokenId],
  );
  return rows[0] ?? null;
}

export type ClosedPeriod = { org_id: string; period: string } & PeriodUsage;

/**
 * Closes every period that ended before now (days before today, months before this month, UTC):
 * their counters are final. Returns those it closed, with the figures of all their slots; a second
 * run closes nothing. A slot written after its period closed (a transaction that began before the
 * boundary and committed after a close) closes at the next run, which reports the period again
 * with its full figures.
 */
export async function closeEndedPeriods(db: Executor): Promise<ClosedPeriod[]> {
  const { rows } = await db.query<ClosedPeriod>(
    `WITH closed AS (
       UPDATE usage_periods SET closed_at = now()
        WHERE closed_at IS NULL
          AND ((length(period) = 10 AND period < ${DAY}) OR (length(period) = 7 AND period < ${MONTH}))
        RETURNING org_id, period)
     SELECT p.org_id, p.period, sum(p.sent_messages)::bigint AS sent_messages, sum(p.sent_recipients)::bigint AS sent_recipients,
            sum(p.received_messages)::bigint AS received_messages, sum(p.received_recipients)::bigint AS received_recipients,
            max(p.storage_peak_bytes)::bigint AS storage_peak_bytes, now() AS closed_at
       FROM usage_periods p JOIN (SELECT DISTINCT org_id, period FROM closed) c ON c.org_id = p.org_id AND c.period = p.period
      GROUP BY p.org_id, p.period
      ORDER BY p.org_id, p.period`,
  );
  return rows;
}

/** Records today's over-quota notice of this kind for the org; false when one was recorded already. */
export async function claimQuotaNotice(tx: Executor, orgId: string, kind: string): Promise<boolean> {
  const { rowCount } = await tx.query(
    `INSERT INTO quota_notices (org_id, day, kind) VALUES ($1, (now() AT TIME ZONE 'UTC')::date, $2) ON CONFLICT DO NOTHING`,
    [orgId, kind],
  );
  return rowCount === 1;
}

/** What bounds an agent's sending: its org's plan and the enrollment key that enrolled it, if any. */
export type SendAllowances = {
  plan_tier: string;
  token_id: string | null;
  token_daily_send_limit: number | null;
  allowed_domains: string[] | null;
};

/** SendAllowances as one json value, for an org and an agent given as SQL expressions. */
export function sendAllowancesSql(org: string, agent: string): string {
  return `(SELECT json_build_object('plan_tier', o.plan_tier, 'token_id', t.id, 'token_daily_send_limit', t.daily_send_limit,
                                    'allowed_domains', t.allowed_domains)
             FROM orgs o
             LEFT JOIN agents a ON a.org_id = o.id AND a.id = ${agent}
             LEFT JOIN enrollment_tokens t ON t.org_id = a.org_id AND t.id = a.enrollment_token_id
            WHERE o.id = ${org})`;
}

export async function sendAllowances(db: Executor, orgId: string, agentId: string): Promise<SendAllowances> {
  const { rows } = await db.query<{ allowances: SendAllowances | null }>({
    name: 'usage-send-allowances',
    text: `SELECT ${sendAllowancesSql('$1', '$2')} AS allowances`,
    values: [orgId, agentId],
  });
  return rows[0]?.allowances ?? { plan_tier: 'free', token_id: null, token_daily_send_limit: null, allowed_domains: null };
}
