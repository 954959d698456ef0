// Support feedback, cases, case updates and the org's reporting policy. Every function takes the
// executor so it joins the caller's transaction.
import type { Executor } from './db.ts';

export type FeedbackRow = {
  org_id: string;
  project_id: string;
  id: string;
  agent_id: string;
  client_id: string;
  fingerprint: string;
  evidence: Record<string, unknown>;
  repeat_count: number;
  redacted_fields: string[];
  diagnostics: unknown[];
  observed_runtime: Record<string, unknown>;
  api_build: string;
  created_at: Date;
  updated_at: Date;
};

export type CaseRow = {
  org_id: string;
  project_id: string;
  id: string;
  number: string;
  feedback_id: string;
  agent_id: string;
  title: string;
  impact: string;
  contact_email: string | null;
  resolved_at: Date | null;
  resolution_kind: string | null;
  resolution_summary: string | null;
  customer_confirmed_at: Date | null;
  mailed_version: number;
  deleted_at: Date | null;
  deleted_by: string | null;
  delete_client_id: string | null;
  created_at: Date;
  updated_at: Date;
  /** From the case's machine instance. */
  status: string;
  version: number;
};

export type CaseUpdateRow = {
  org_id: string;
  case_id: string;
  sequence: string;
  id: string;
  kind: string;
  actor_kind: 'customer' | 'staff';
  actor: string;
  body: string;
  client_id: string | null;
  observed_runtime: Record<string, unknown> | null;
  created_at: Date;
};

export async function automaticFeedbackAllowed(db: Executor, orgId: string): Promise<boolean> {
  const { rows } = await db.query<{ automatic_feedback: boolean }>('SELECT automatic_feedback FROM support_org_settings WHERE org_id = $1', [orgId]);
  return rows[0]?.automatic_feedback ?? false;
}

export async function setAutomaticFeedback(db: Executor, orgId: string, allowed: boolean, by: string): Promise<void> {
  await db.query(
    `INSERT INTO support_org_settings (org_id, automatic_feedback, updated_by) VALUES ($1, $2, $3)
     ON CONFLICT (org_id) DO UPDATE SET automatic_feedback = $2, updated_by = $3, updated_at = now()`,
    [orgId, allowed, by],
  );
}

export type NewFeedback = Omit<FeedbackRow, 'repeat_count' | 'created_at' | 'updated_at'>;

/**
 * Inserts the record, or when the same agent filed the same evidence before, raises that record's
 * repeat_count instead. `created` tells which happened.
 */
export async function insertOrRepeatFeedback(tx: Executor, f: NewFeedback): Promise<{ row: FeedbackRow; created: boolean }> {
  const { rows } = await tx.query<FeedbackRow & { created: boolean }>(
    `INSERT INTO support_feedback (org_id, project_id, id, agent_id, client_id, fingerprint, evidence, redacted_fields, diagnostics, observed_runtime, api_build)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (org_id, project_id, agent_id, fingerprint)
       DO UPDATE SET repeat_count = support_feedback.repeat_count + 1, updated_at = now(),
                     diagnostics = EXCLUDED.diagnostics, observed_runtime = EXCLUDED.observed_runtime
     RETURNING *, (xmax = 0) AS created`,
    [f.org_id, f.project_id, f.id, f.agent_id, f.client_id, f.fingerprint, JSON.stringify(f.evidence), JSON.stringify(f.redacted_fields),
      JSON.stringify(f.diagnostics), JSON.stringify(f.observed_runtime), f.api_build],
  );
  const { created, ...row } = rows[0]!;
  return { row, created };
}

export type FeedbackCursor = { t: string; id: string };

export async function listFeedbackRows(
  db: Executor,
  q: { org_id: string; project_id: string; agent_id: string | null; limit: number; after: FeedbackCursor | null },
): Promise<FeedbackRow[]> {
  const { rows } = await db.query<FeedbackRow>(
    `SELECT * FROM support_feedback
      WHERE org_id = $1 AND project_id = $2 AND ($3::text IS NULL OR agent_id = $3)
        AND ($4::timestamptz IS NULL OR (created_at, id) < ($4, $5))
      ORDER BY created_at DESC, id DESC LIMIT $6`,
    [q.org_id, q.project_id, q.agent_id, q.after?.t ?? null, q.after?.id ?? null, q.limit + 1],
  );
  return rows;
}

export async function findFeedbackByClient(db: Executor, who: { org_id: string; project_id: string; agent_id: string }, clientId: string): Promise<FeedbackRow | null> {
  const { rows } = await db.query<FeedbackRow>(
    'SELECT * FROM support_feedback WHERE org_id = $1 AND project_id = $2 AND agent_id = $3 AND client_id = $4',
    [who.org_id, who.project_id, who.agent_id, clientId],
  );
  return rows[0] ?? null;
}

export async function findFeedback(db: Executor, orgId: string, projectId: string, id: string): Promise<FeedbackRow | null> {
  const { rows } = await db.query<FeedbackRow>('SELECT * FROM support_feedback WHERE org_id = $1 AND project_id = $2 AND id = $3', [orgId, projectId, id]);
  return rows[0] ?? null;
}

const CASE_SELECT = `SELECT c.*, m.state AS status, m.version FROM support_cases c
  JOIN machine_instances m ON m.org_id = c.org_id AND m.kind = 'support_case' AND m.id = c.id`;

export async function insertCase(
  tx: Executor,
  c: Pick<CaseRow, 'org_id' | 'project_id' | 'id' | 'feedback_id' | 'agent_id' | 'title' | 'impact' | 'contact_email'>,
): Promise<void> {
  await tx.query(
    `INSERT INTO support_cases (org_id, project_id, id, feedback_id, agent_id, title, impact, contact_email) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [c.org_id, c.project_id, c.id, c.feedback_id, c.agent_id, c.title, c.impact, c.contact_email],
  );
}

/** A case by id; `at` confines it to an org (and project) unless null (staff see every org). */
export async function findCase(db: Executor, at: { org_id: string; project_id?: string } | null, id: string): Promise<CaseRow | null> {
  const { rows } = await db.query<CaseRow>(
    `${CASE_SELECT} WHERE c.id = $1 AND ($2::text IS NULL OR c.org_id = $2) AND ($3::text IS NULL OR c.project_id = $3)`,
    [id, at?.org_id ?? null, at?.project_id ?? null],
  );
  return rows[0] ?? null;
}

export async function casesOfFeedback(db: Executor, orgId: string, feedbackIds: string[], limit: number): Promise<CaseRow[]> {
  if (feedbackIds.length === 0) return [];
  const { rows } = await db.query<CaseRow>(
    `SELECT * FROM (${CASE_SELECT} WHERE c.org_id = $1 AND c.feedback_id = ANY($2) AND c.deleted_at IS NULL) x
      ORDER BY created_at LIMIT $3`,
    [orgId, feedbackIds, limit * feedbackIds.length + 1],
  );
  return rows;
}

/** Cases, newest first: of one project (optionally one agent's), or with `at` null every org's. */
export async function listCases(
  db: Executor,
  q: { org_id: string | null; project_id: string | null; agent_id: string | null; status: string | null; limit: number; before_number: string | null },
): Promise<CaseRow[]> {
  const { rows } = await db.query<CaseRow>(
    `${CASE_SELECT}
      WHERE c.deleted_at IS NULL AND ($1::text IS NULL OR c.org_id = $1) AND ($2::text IS NULL OR c.project_id = $2)
        AND ($3::text IS NULL OR c.agent_id = $3) AND ($4::text IS NULL OR m.state = $4)
        AND ($5::bigint IS NULL OR c.number < $5)
      ORDER BY c.number DESC LIMIT $6`,
    [q.org_id, q.project_id, q.agent_id, q.status, q.before_number, q.limit + 1],
  );
  return rows;
}

export async function setCaseResolution(tx: Executor, orgId: string, id: string, r: { resolved: boolean; kind: string | null; summary: string | null }): Promise<void> {
  await tx.query(
    `UPDATE support_cases SET updated_at = now(),
        resolved_at = CASE WHEN $3 THEN now() ELSE NULL END,
        resolution_kind = CASE WHEN $3 THEN $4 ELSE NULL END,
        resolution_summary = CASE WHEN $3 THEN $5 ELSE NULL END
      WHERE org_id = $1 AND id = $2`,
    [orgId, id, r.resolved, r.kind, r.summary],
  );
}

export async function touchCase(tx: Executor, orgId: string, id: string): Promise<void> {
  await tx.query('UPDATE support_cases SET updated_at = now() WHERE org_id = $1 AND id = $2', [orgId, id]);
}

/** Marks a case deleted and erases its text: the updates go, the tombstone answers later reads. */
export async function markCaseDeleted(tx: Executor, orgId: string, id: string, by: string, clientId: string): Promise<void> {
  await tx.query(
    `UPDATE support_cases SET deleted_at = now(), deleted_by = $3, delete_client_id = $4, title = '', resolution_summary = NULL, updated_at = now()
      WHERE org_id = $1 AND id = $2`,
    [orgId, id, by, clientId],
  );
  await tx.query('DELETE FROM support_case_updates WHERE org_id = $1 AND case_id = $2', [orgId, id]);
}

export async function insertCaseUpdate(tx: Executor, u: Omit<CaseUpdateRow, 'sequence' | 'created_at'>): Promise<CaseUpdateRow> {
  const { rows } = await tx.query<CaseUpdateRow>(
    `INSERT INTO support_case_updates (org_id, case_id, sequence, id, kind, actor_kind, actor, body, client_id, observed_runtime)
     SELECT $1, $2, COALESCE(MAX(sequence), 0) + 1, $3, $4, $5, $6, $7, $8, $9 FROM support_case_updates WHERE org_id = $1 AND case_id = $2
     RETURNING *`,
    [u.org_id, u.case_id, u.id, u.kind, u.actor_kind, u.actor, u.body, u.client_id, u.observed_runtime ? JSON.stringify(u.observed_runtime) : null],
  );
  return rows[0]!;
}

export async function findCaseUpdateByClient(db: Executor, orgId: string, caseId: string, clientId: string): Promise<CaseUpdateRow | null> {
  const { rows } = await db.query<CaseUpdateRow>('SELECT * FROM support_case_updates WHERE org_id = $1 AND case_id = $2 AND client_id = $3', [orgId, caseId, clientId]);
  return rows[0] ?? null;
}

export async function latestCaseUpdate(db: Executor, orgId: string, caseId: string): Promise<CaseUpdateRow | null> {
  const { rows } = await db.query<CaseUpdateRow>(
    'SELECT * FROM support_case_updates WHERE org_id = $1 AND case_id = $2 ORDER BY sequence DESC LIMIT 1',
    [orgId, caseId],
  );
  return rows[0] ?? null;
}

export async function listCaseUpdates(db: Executor, orgId: string, caseId: string, q: { after: number; limit: number }): Promise<CaseUpdateRow[]> {
  const { rows } = await db.query<CaseUpdateRow>(
    'SELECT * FROM support_case_updates WHERE org_id = $1 AND case_id = $2 AND sequence > $3 ORDER BY sequence LIMIT $4',
    [orgId, caseId, q.after, q.limit + 1],
  );
  return rows;
}

/** Claims the mail of a status change once: false when that version (or a later one) was mailed. */
export async function claimCaseMail(tx: Executor, orgId: string, id: string, version: number): Promise<CaseRow | null> {
  const { rows } = await tx.query<{ id: string }>(
    `UPDATE support_cases SET mailed_version = $3 WHERE org_id = $1 AND id = $2 AND mailed_version < $3 AND deleted_at IS NULL RETURNING id`,
    [orgId, id, version],
  );
  return rows[0] ? findCase(tx, { org_id: orgId }, id) : null;
}

/** The state and org of a resource named in feedback, when it lies inside the caller's ceiling. */
export async function findResourceInScope(
  db: Executor,
  scope: { org_id: string; project_ids: string[]; inbox_id: string | null },
  ref: { type: string; id: string },
): Promise<{ state: string; org_id: string } | null> {
  const inboxFilter = '($3::text IS NULL OR inbox_id = $3)';
  const texts: Record<string, string> = {
    inbox: `SELECT status AS state, org_id FROM inboxes WHERE org_id = $1 AND project_id = ANY($2) AND ($3::text IS NULL OR id = $3) AND (id = $4 OR address = lower($4))`,
    review: `SELECT state, org_id FROM machine_instances WHERE org_id = $1 AND project_id = ANY($2) AND kind = 'review' AND ${inboxFilter} AND id = $4`,
    thread: `SELECT 'active' AS state, org_id FROM threads WHERE org_id = $1 AND project_id = ANY($2) AND ${inboxFilter} AND id = $4`,
    domain: `SELECT 'active' AS state, org_id FROM inboxes WHERE org_id = $1 AND project_id = ANY($2) AND ($3::text IS NULL OR id = $3) AND domain = lower($4) LIMIT 1`,
  };
  const text = texts[ref.type];
  if (!text) return null;
  const { rows } = await db.query<{ state: string; org_id: string }>(text, [scope.org_id, scope.project_ids, scope.inbox_id, ref.id]);
  return rows[0] ?? null;
}
