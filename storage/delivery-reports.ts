// What became of sent mail, per recipient (migration 0030): the rows a send's delivery, its
// bounces, complaints and delays leave, and what is read back from them (a send's status per
// recipient, a recipient's soft bounces in a row, an inbox's sender health).
import { writeBeforeCommit, type Executor } from './db.ts';
import { newId } from './ids.ts';

export type ReportKind = 'delivered' | 'bounced' | 'complained' | 'delayed';

export type NewDeliveryReport = {
  org_id: string;
  project_id: string;
  inbox_id: string;
  review_id: string;
  message_id: string | null;
  recipient: string;
  kind: ReportKind;
  type: 'hard' | 'soft' | null;
  status: string | null;
  diagnostic: string | null;
  raw: Buffer | null;
};

export type RecipientStatus = {
  recipient: string;
  status: ReportKind;
  type: 'hard' | 'soft' | null;
  status_code: string | null;
  diagnostic: string | null;
  updated_at: Date;
};

/** One statement for every row, with the transaction's next statement (writeBeforeCommit). */
export async function insertDeliveryReports(tx: Executor, rows: NewDeliveryReport[]): Promise<void> {
  if (rows.length === 0) return;
  const col = <K extends keyof NewDeliveryReport>(k: K) => rows.map((r) => r[k]);
  await writeBeforeCommit(tx, {
    name: 'delivery-reports-insert',
    text: `INSERT INTO delivery_reports (org_id, project_id, id, inbox_id, review_id, message_id, recipient, kind, type, status, diagnostic, raw, raw_sha256)
     SELECT *, CASE WHEN raw IS NULL THEN NULL ELSE sha256(raw) END
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
                   $10::text[], $11::text[], $12::bytea[]) AS r(org_id, project_id, id, inbox_id, review_id, message_id, recipient, kind, type, status, diagnostic, raw)`,
    values: [col('org_id'), col('project_id'), rows.map(() => newId('dlr')), col('inbox_id'), col('review_id'), col('message_id'),
      rows.map((r) => r.recipient.toLowerCase()), col('kind'), col('type'), col('status'), col('diagnostic'), col('raw')],
  });
}

/**
 * The latest report per recipient of a send. A bounce, complaint or delay reported after the
 * relay took the mail outranks that `delivered`; among them the latest wins.
 */
export async function deliveryStatusOf(db: Executor, orgId: string, reviewId: string): Promise<RecipientStatus[]> {
  const { rows } = await db.query<RecipientStatus>(
    `SELECT DISTINCT ON (recipient) recipient, kind AS status, type, status AS status_code, diagnostic, created_at AS updated_at
       FROM delivery_reports WHERE org_id = $1 AND review_id = $2
      ORDER BY recipient, (kind <> 'delivered') DESC, created_at DESC`,
    [orgId, reviewId],
  );
  return rows;
}

/**
 * Whether the recipient's last `n` sends in the project each came back with a soft bounce. A delay
 * (a relay deferral, a delay notice) is not one: the mail may still arrive.
 */
export async function softBouncesInARow(db: Executor, at: { org_id: string; project_id: string }, recipient: string, n: number): Promise<boolean> {
  const { rows } = await db.query<{ soft: boolean }>(
    `SELECT bool_or(kind = 'bounced' AND type = 'soft') AS soft
       FROM delivery_reports
      WHERE org_id = $1 AND project_id = $2 AND recipient = lower($3) AND kind IN ('delivered', 'bounced', 'delayed')
      GROUP BY review_id ORDER BY max(created_at) DESC LIMIT $4`,
    [at.org_id, at.project_id, recipient, n],
  );
  return rows.length === n && rows.every((r) => r.soft);
}

export type SenderHealthCounts = { sends: number; bounces: number; complaints: number; cleared_at: Date | null };

/**
 * An inbox's most recent `window` sends (one a recipient the relay or a hosted inbox took) since a
 * human last cleared its health, and how many of them hard-bounced or were complained about.
 */
export async function senderHealthCounts(db: Executor, orgId: string, inboxId: string, window: number): Promise<SenderHealthCounts> {
  const { rows } = await db.query<{ counts: Omit<SenderHealthCounts, 'cleared_at'> }>(
    `SELECT ${senderHealthSql('$1', '$2', '$3')} AS counts, (SELECT sender_health_cleared_at FROM inboxes WHERE org_id = $1 AND id = $2) AS cleared_at`,
    [orgId, inboxId, window],
  );
  const { counts, ...rest } = rows[0]! as { counts: Omit<SenderHealthCounts, 'cleared_at'>; cleared_at: Date | null };
  return { ...counts, ...rest };
}

/** When the inbox's sender health was last cleared (-infinity for never), as an SQL expression. */
const clearedAt = (org: string, inbox: string): string =>
  `coalesce((SELECT sender_health_cleared_at FROM inboxes WHERE org_id = ${org} AND id = ${inbox}), '-infinity')`;

/**
 * senderHealthCounts' counts as one SQL expression (a json object of sends, bounces and
 * complaints) over an inbox given as SQL expressions, so another query can read them in its round trip.
 * The window's oldest send bounds the rest: a bounce or complaint counts when the send it reports
 * on is in the window, and it is recorded after that send's `delivered` (the report comes back
 * once the relay took the mail). So the inbox's few bounces and complaints are read, not a lookup
 * for each of its sends.
 */
export function senderHealthSql(org: string, inbox: string, window: string): string {
  return `(WITH recent AS (
            SELECT d.created_at FROM delivery_reports d
             WHERE d.org_id = ${org} AND d.inbox_id = ${inbox} AND d.kind = 'delivered'
               AND d.created_at > ${clearedAt(org, inbox)}
             ORDER BY d.created_at DESC LIMIT ${window}),
          edge AS (SELECT count(*)::int AS sends, min(created_at) AS since FROM recent),
          outcome AS (
            SELECT bool_or(b.kind = 'bounced' AND b.type = 'hard') AS bounced, bool_or(b.kind = 'complained') AS complained
              FROM edge, delivery_reports b
             WHERE b.org_id = ${org} AND b.inbox_id = ${inbox} AND b.kind IN ('bounced', 'complained') AND b.created_at >= edge.since
               AND EXISTS (SELECT 1 FROM delivery_reports d
                            WHERE d.org_id = ${org} AND d.review_id = b.review_id AND d.recipient = b.recipient
                              AND d.kind = 'delivered' AND d.created_at >= edge.since)
             GROUP BY b.review_id, b.recipient)
     SELECT json_build_object('sends', (SELECT sends FROM edge), 'bounces', (count(*) FILTER (WHERE bounced))::int,
                              'complaints', (count(*) FILTER (WHERE complained))::int) FROM outcome)`;
}

/**
 * senderHealthSql as far as a send's verdict needs it. With no bounce or complaint recorded since
 * the inbox was cleared both rates are 0 whatever the sends, which are then not counted (0): the
 * usual inbox is judged by one index probe rather than by reading its latest sends.
 */
export function senderHealthVerdictSql(org: string, inbox: string, window: string): string {
  return `(CASE WHEN EXISTS (
             SELECT 1 FROM delivery_reports b
              WHERE b.org_id = ${org} AND b.inbox_id = ${inbox} AND b.kind IN ('bounced', 'complained')
                AND b.created_at > ${clearedAt(org, inbox)})
           THEN ${senderHealthSql(org, inbox, window)}
           ELSE json_build_object('sends', 0, 'bounces', 0, 'complaints', 0) END)`;
}

/** An inbox's counts as far as a send's verdict needs them (senderHealthVerdictSql). */
export async function senderHealthVerdictCounts(db: Executor, orgId: string, inboxId: string, window: number): Promise<Omit<SenderHealthCounts, 'cleared_at'>> {
  const { rows } = await db.query<{ counts: Omit<SenderHealthCounts, 'cleared_at'> }>({
    name: 'delivery-reports-sender-health-verdict',
    text: `SELECT ${senderHealthVerdictSql('$1', '$2', '$3::int')} AS counts`,
    values: [orgId, inboxId, window],
  });
  return rows[0]!.counts;
}

/** The id of a project's inbox named by id or address. */
export async function inboxIdIn(db: Executor, at: { org_id: string; project_id: string }, ref: string): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    'SELECT id FROM inboxes WHERE org_id = $1 AND project_id = $2 AND (id = $3 OR address = lower($3))',
    [at.org_id, at.project_id, ref],
  );
  return rows[0]?.id ?? null;
}

/** A human clears the inbox's sender health: its rates count from now. */
export async function clearSenderHealth(db: Executor, orgId: string, inboxId: string): Promise<void> {
  await db.query(`UPDATE inboxes SET sender_health_cleared_at = clock_timestamp() WHERE org_id = $1 AND id = $2`, [orgId, inboxId]);
}

/** Takes the review's machine row lock, as appending to its event queue requires. */
export async function lockReviewInstance(tx: Executor, orgId: string, reviewId: string): Promise<boolean> {
  const { rowCount } = await tx.query(`SELECT 1 FROM machine_instances WHERE org_id = $1 AND kind = 'review' AND id = $2 FOR UPDATE`, [orgId, reviewId]);
  return rowCount === 1;
}

/** Whether this very report (the same bytes) was recorded for the review already. */
export async function reportRecorded(db: Executor, orgId: string, reviewId: string, raw: Buffer): Promise<boolean> {
  const { rows } = await db.query(
    'SELECT 1 FROM delivery_reports WHERE org_id = $1 AND review_id = $2 AND raw_sha256 = sha256($3::bytea) LIMIT 1',
    [orgId, reviewId, raw],
  );
  return rows.length > 0;
}
