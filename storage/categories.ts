// Categories: the row a human names and sets (categories) joined with the graduation machine
// (machine_instances, kind 'category'); the daily auto-send counters; the queue of a category's
// drafts (backlog, recheck broadcasts); whether a recipient was mailed before (first contact).
import type { Executor, Pool } from './db.ts';
import { lockKey, lockStatement, notifyOnCommit, withTransaction, writeBeforeCommit } from './db.ts';
import { REVIEW_EVENTS_CHANNEL } from './review-events.ts';

export type CategoryScope = 'org_shared' | 'agent_private';

export type CategoryRow = {
  org_id: string;
  project_id: string;
  id: string;
  name: string;
  description: string;
  scope: CategoryScope;
  agent_id: string | null;
  risk: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
  state: string;
  version: number;
  snapshot: { context: { clean_approvals: number; drift_count: number; created_ms: number }; value: unknown; status: string };
};

const COLUMNS = `c.org_id, c.project_id, c.id, c.name, c.description, c.scope, c.agent_id, c.risk, c.created_at, c.updated_at,
  m.state, m.version, m.snapshot`;
const FROM = `categories c JOIN machine_instances m ON m.org_id = c.org_id AND m.kind = 'category' AND m.id = c.id`;

/** Who reads: a project, and the agent whose private categories it also sees (null: a human, who sees all). */
export type CategoryReader = { org_id: string; project_id: string; agent_id: string | null };

export async function insertCategory(
  tx: Executor,
  c: Pick<CategoryRow, 'org_id' | 'project_id' | 'id' | 'name' | 'description' | 'scope' | 'agent_id' | 'risk'>,
): Promise<Date> {
  const { rows } = await tx.query<{ created_at: Date }>(
    `INSERT INTO categories (org_id, project_id, id, name, description, scope, agent_id, risk)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING created_at`,
    [c.org_id, c.project_id, c.id, c.name, c.description, c.scope, c.agent_id, c.risk === null ? null : JSON.stringify(c.risk)],
  );
  return rows[0]!.created_at;
}

const VISIBLE_TO_READER = `c.org_id = $1 AND c.project_id = $2 AND c.id = $3 AND ($4::text IS NULL OR c.scope = 'org_shared' OR c.agent_id = $4)`;

/** A category the reader may see; another agent's private one is not found. */
export async function findCategory(db: Executor, r: CategoryReader, id: string): Promise<CategoryRow | null> {
  const { rows } = await db.query<CategoryRow>({
    name: 'categories-find',
    text: `SELECT ${COLUMNS} FROM ${FROM} WHERE ${VISIBLE_TO_READER}`,
    values: [r.org_id, r.project_id, id, r.agent_id],
  });
  return rows[0] ?? null;
}

/**
 * findCategory with its account's risk dial as stored (review_settings, null when never set) in
 * the same round trip: what a send's release gates need.
 */
export async function findCategoryWithAccountDial(
  db: Executor,
  r: CategoryReader,
  id: string,
): Promise<(CategoryRow & { account_dial: Record<string, unknown> | null }) | null> {
  const { rows } = await db.query<CategoryRow & { account_dial: Record<string, unknown> | null }>({
    name: 'categories-find-with-account-dial',
    text: `SELECT ${COLUMNS}, (SELECT to_jsonb(s) FROM review_settings s WHERE s.org_id = c.org_id) AS account_dial
             FROM ${FROM} WHERE ${VISIBLE_TO_READER}`,
    values: [r.org_id, r.project_id, id, r.agent_id],
  });
  return rows[0] ?? null;
}

/**
 * Whether category `id` exists as the reader sees it (an agent sees the shared ones and its own),
 * as an SQL expression: in the project, or with no project (an org-layer rule) in any of the org's.
 */
export function categoryVisibleSql(org: string, project: string, agent: string, id: string): string {
  return `EXISTS (SELECT 1 FROM categories c WHERE c.org_id = ${org} AND c.id = ${id}::text AND (${project}::text IS NULL OR c.project_id = ${project})
                     AND (${agent}::text IS NULL OR c.scope = 'org_shared' OR c.agent_id = ${agent}))`;
}

/** Whether a category exists where a rule or a send may name it (categoryVisibleSql). */
export async function categoryVisible(db: Executor, r: { org_id: string; project_id: string | null; agent_id: string | null }, id: string): Promise<boolean> {
  const { rows } = await db.query<{ visible: boolean }>({
    name: 'categories-visible',
    text: `SELECT ${categoryVisibleSql('$1', '$3', '$4', '$2')} AS visible`,
    values: [r.org_id, id, r.project_id, r.agent_id],
  });
  return rows[0]!.visible;
}

export async function listCategories(db: Executor, r: CategoryReader): Promise<CategoryRow[]> {
  const { rows } = await db.query<CategoryRow>(
    `SELECT ${COLUMNS} FROM ${FROM}
      WHERE c.org_id = $1 AND c.project_id = $2 AND ($3::text IS NULL OR c.scope = 'org_shared' OR c.agent_id = $3)
      ORDER BY c.created_at, c.id LIMIT 1000`,
    [r.org_id, r.project_id, r.agent_id],
  );
  return rows;
}

export async function updateCategory(
  tx: Executor,
  at: { org_id: string; project_id: string; id: string },
  change: { name?: string; description?: string; risk?: Record<string, unknown> | null },
): Promise<boolean> {
  const { rowCount } = await tx.query(
    `UPDATE categories SET name = coalesce($4, name), description = coalesce($5, description),
            risk = CASE WHEN $6 THEN $7::jsonb ELSE risk END, updated_at = now()
      WHERE org_id = $1 AND project_id = $2 AND id = $3`,
    [at.org_id, at.project_id, at.id, change.name ?? null, change.description ?? null, change.risk !== undefined,
      change.risk == null ? null : JSON.stringify(change.risk)],
  );
  return rowCount === 1;
}

// ---- The daily auto-send cap

/**
 * Slots a customer's daily count is spread over. One row would make every auto-send of a customer
 * wait for the previous one's commit (the row lock is held until then): measured on the review
 * bench, that halved auto-sends a second. Slot i may count `cap / SLOTS` (one more for the first
 * `cap % SLOTS`), so the slots together never count more than the cap.
 */
export const AUTO_SEND_SLOTS = 16;

const TODAY = `(now() AT TIME ZONE 'UTC')::date`;
const SLOT_CAP = `($2::int / ${AUTO_SEND_SLOTS} + CASE WHEN c.slot < $2::int % ${AUTO_SEND_SLOTS} THEN 1 ELSE 0 END)`;

/**
 * Counts one auto-send in a slot with room: first one no other sender holds (from a random start,
 * so senders spread), else waiting for one. Waiting senders lock slots in slot order: a slot found
 * full once its lock came stays locked while the scan goes on, and two waiters scanning from
 * different starts would each hold the slot the other waits for. One row: the slot taken (or
 * null), and whether the org has slots today at all.
 */
function takeSlot(skipLocked: boolean) {
  return {
    name: `categories-take-auto-send-${skipLocked ? 'skip' : 'wait'}`,
    text: `WITH pick AS (
             SELECT c.slot FROM auto_send_counters c
              WHERE c.org_id = $1 AND c.day = ${TODAY} AND c.sent < ${SLOT_CAP}
              ORDER BY ${skipLocked ? `(c.slot + ${AUTO_SEND_SLOTS} - $3::int) % ${AUTO_SEND_SLOTS}` : 'c.slot'}
              LIMIT 1 FOR UPDATE ${skipLocked ? 'SKIP LOCKED' : ''}),
           taken AS (
             UPDATE auto_send_counters c SET sent = c.sent + 1 FROM pick
              WHERE c.org_id = $1 AND c.day = ${TODAY} AND c.slot = pick.slot
             RETURNING c.slot)
           SELECT (SELECT slot FROM taken) AS slot,
                  EXISTS (SELECT 1 FROM auto_send_counters WHERE org_id = $1 AND day = ${TODAY}) AS day_made`,
  };
}

/**
 * Counts one auto-send for the org today (UTC) only if the day's count is below `cap`, in the
 * caller's transaction. A slot with room that no other sender holds is taken at once; when none
 * is free, the sender waits for the held ones, and a slot filled meanwhile is passed over (its
 * condition is checked again on the locked row), so a send is held only when every slot is full.
 * False when the cap is reached: the hold is counted instead. Null, counting nothing, when the
 * org has no slots today: the caller makes them (makeTodaysAutoSendSlots) outside its
 * transaction, then tries again in a new one.
 */
export async function takeAutoSend(tx: Executor, orgId: string, cap: number): Promise<boolean | null> {
  const start = Math.floor(Math.random() * AUTO_SEND_SLOTS);
  const values = [orgId, Math.max(0, cap), start];
  // A slot that looked free but was filled meanwhile stays locked by the attempt that found it full.
  // Held out of slot order while this sender waits below, it closed a circle with the waiters
  // (deadlock detected): the attempt runs in a savepoint, rolled back when it took nothing.
  await writeBeforeCommit(tx, 'SAVEPOINT auto_send_slot');
  const free = (await tx.query<TakenSlot>({ ...takeSlot(true), values })).rows[0]!;
  if (free.slot !== null) return true;
  await tx.query('ROLLBACK TO SAVEPOINT auto_send_slot');
  if (!free.day_made) return null;
  if ((await tx.query<TakenSlot>({ ...takeSlot(false), values: values.slice(0, 2) })).rows[0]!.slot !== null) return true;
  // The last slot, so this lock too is taken in slot order.
  await tx.query(`UPDATE auto_send_counters SET held = held + 1 WHERE org_id = $1 AND day = ${TODAY} AND slot = ${AUTO_SEND_SLOTS - 1}`, [orgId]);
  return false;
}

type TakenSlot = { slot: number | null; day_made: boolean };

/**
 * Makes the org's slots of today (UTC) unless they are there, in a transaction of its own,
 * committed at once. Made inside a send, they were seen by no other sender until that send
 * committed: each sender arriving meanwhile waited for it, then for one another on the first
 * slot. The makers take turns on a lock, so each reads what the one before it committed and adds
 * nothing; an insert meeting rows already there would wait for every sender holding one of them.
 */
export async function makeTodaysAutoSendSlots(db: Pool, orgId: string): Promise<void> {
  await withTransaction(
    db,
    (tx) =>
      tx.query(
        `INSERT INTO auto_send_counters (org_id, day, slot) SELECT $1, ${TODAY}, s FROM generate_series(0, ${AUTO_SEND_SLOTS - 1}) s
          WHERE NOT EXISTS (SELECT 1 FROM auto_send_counters WHERE org_id = $1 AND day = ${TODAY})`,
        [orgId],
      ),
    lockStatement([lockKey(`auto-send-day:${orgId}`)]),
  );
}

export type AutoSendDay = { org_id: string; day: string; sent: number; held: number };

/**
 * Removes the counters of days before today (UTC) and answers each customer's day, for the daily
 * report. A day made ahead (below) in which the customer auto-sent nothing is not reported.
 */
export async function closeAutoSendDays(db: Executor): Promise<AutoSendDay[]> {
  const { rows } = await db.query<AutoSendDay>(
    `WITH gone AS (DELETE FROM auto_send_counters WHERE day < ${TODAY} RETURNING org_id, day, sent, held)
     SELECT org_id, to_char(day, 'YYYY-MM-DD') AS day, sum(sent)::int AS sent, sum(held)::int AS held
       FROM gone GROUP BY org_id, day HAVING sum(sent) + sum(held) > 0 ORDER BY day, org_id`,
  );
  return rows;
}

/**
 * Makes tomorrow's slots (UTC) for every customer that auto-sent today, so they are there at
 * midnight: the day's first sends then need no attempt given up and no making of their own
 * (makeTodaysAutoSendSlots). Answers how many customers' days were made.
 */
export async function makeTomorrowsAutoSendSlots(db: Executor): Promise<number> {
  const { rowCount } = await db.query(
    `INSERT INTO auto_send_counters (org_id, day, slot)
     SELECT o.org_id, ${TODAY} + 1, s
       FROM (SELECT DISTINCT org_id FROM auto_send_counters WHERE day = ${TODAY}) o, generate_series(0, ${AUTO_SEND_SLOTS - 1}) s
     ON CONFLICT DO NOTHING`,
  );
  return (rowCount ?? 0) / AUTO_SEND_SLOTS;
}

export async function autoSendsToday(db: Executor, orgId: string): Promise<{ sent: number; held: number }> {
  const { rows } = await db.query<{ sent: number; held: number }>(
    `SELECT coalesce(sum(sent), 0)::int AS sent, coalesce(sum(held), 0)::int AS held FROM auto_send_counters WHERE org_id = $1 AND day = ${TODAY}`,
    [orgId],
  );
  return rows[0]!;
}

// ---- First contact

/** The recipients this inbox has never mailed before (no sent or auto-sent review to them). */
export async function firstContacts(db: Executor, at: { org_id: string; project_id: string; inbox_id: string }, recipients: string[]): Promise<string[]> {
  const { rows } = await db.query<{ email: string }>({
    name: 'categories-first-contacts',
    text: `SELECT r.email FROM unnest($4::text[]) AS r(email)
            WHERE NOT EXISTS (
              SELECT 1 FROM machine_instances m
               WHERE m.org_id = $1 AND m.project_id = $2 AND m.kind = 'review' AND m.inbox_id = $3
                 AND m.state IN ('sent', 'auto_sent')
                 AND (m.snapshot->'context'->'draft'->'to' @> jsonb_build_array(jsonb_build_object('email', r.email))
                   OR m.snapshot->'context'->'draft'->'cc' @> jsonb_build_array(jsonb_build_object('email', r.email))))`,
    values: [at.org_id, at.project_id, at.inbox_id, recipients.map((r) => r.toLowerCase())],
  });
  return rows.map((r) => r.email);
}

// ---- The queue of a category's drafts

const QUEUED = `('needs_review', 'in_review', 'chatting')`;

export type Backlog = { queued: number; current_enough: number; needs_redraft: number; rules_version: number };

/** Queued drafts of the category, split by whether they were composed within `tolerance` of the high-water. */
export async function categoryBacklog(db: Executor, at: { org_id: string; project_id: string; category_id: string }, tolerance: number): Promise<Backlog> {
  const { rows } = await db.query<Backlog>(
    `WITH h AS (SELECT coalesce((SELECT version FROM rules_high_water WHERE org_id = $1 AND project_id = $2), 0) AS v)
     SELECT count(m.id)::int AS queued,
            count(*) FILTER (WHERE (m.snapshot->'context'->>'rules_version')::int >= h.v - $4)::int AS current_enough,
            count(*) FILTER (WHERE (m.snapshot->'context'->>'rules_version')::int < h.v - $4)::int AS needs_redraft,
            h.v AS rules_version
       FROM h LEFT JOIN machine_instances m
         ON m.org_id = $1 AND m.project_id = $2 AND m.kind = 'review' AND m.state IN ${QUEUED}
        AND m.snapshot->'context'->>'category_id' = $3
      GROUP BY h.v`,
    [at.org_id, at.project_id, at.category_id, tolerance],
  );
  return rows[0]!;
}

/**
 * Appends one `review.recheck_category` item to every queued draft of the category, all sharing
 * `broadcast_id`, in one statement. Drafts locked by a decision in flight are skipped: they are
 * leaving the queue, and waiting for them could deadlock with that decision's own category update.
 */
export async function broadcastRecheck(tx: Executor, c: { org_id: string; project_id: string; category_id: string; rung: string; broadcast_id: string }): Promise<number> {
  const { rows } = await tx.query<{ agent_id: string; n: number }>({
    name: 'categories-recheck-broadcast',
    text: `WITH drafts AS (
             SELECT m.org_id, m.project_id, m.id, m.agent_id, m.inbox_id, m.state, m.snapshot->'context' AS ctx
               FROM machine_instances m
              WHERE m.org_id = $1 AND m.project_id = $2 AND m.kind = 'review' AND m.state IN ${QUEUED}
                AND m.snapshot->'context'->>'category_id' = $3
              ORDER BY m.id
              FOR UPDATE SKIP LOCKED),
           items AS (
             INSERT INTO review_events (org_id, project_id, review_id, seq, agent_id, inbox_id, type, state, from_state, category_id,
                                        revision, effective_mode, extra, broadcast_id)
             SELECT d.org_id, d.project_id, d.id,
                    coalesce((SELECT max(e.seq) FROM review_events e WHERE e.org_id = d.org_id AND e.review_id = d.id), 0) + 1,
                    d.agent_id, d.inbox_id, 'review.recheck_category', d.state, d.state, $3,
                    (d.ctx->>'revision')::int, d.ctx->>'effective_mode',
                    jsonb_build_object('broadcast_id', $5::text, 'rung', $4::text), $5
               FROM drafts d
             RETURNING agent_id)
           SELECT agent_id, count(*)::int AS n FROM items GROUP BY agent_id`,
    values: [c.org_id, c.project_id, c.category_id, c.rung, c.broadcast_id],
  });
  for (const r of rows) await notifyOnCommit(tx, REVIEW_EVENTS_CHANNEL, `${c.org_id} ${r.agent_id}`);
  return rows.reduce((n, r) => n + r.n, 0);
}
