// Writing-rule revisions, the per-project rules high-water and the audit of human changes.
// A revision's status is its machine's state (machine_instances, kind 'rule'); reads join it in.
import type { Executor } from './db.ts';

export type RuleRevision = {
  org_id: string;
  /** '' for an org-layer rule. */
  project_id: string;
  id: string;
  lineage_id: string;
  rev: number;
  rule_layer: 'org' | 'project';
  scope: 'general' | 'category';
  category_id: string | null;
  scope_agent_id: string | null;
  rule_text: string;
  kind: 'soft' | 'hard';
  priority: number;
  supersedes_id: string | null;
  author_kind: 'agent' | 'human';
  author_agent_id: string | null;
  author_email: string | null;
  /** The review whose edit the rule was proposed from (POST A/reviews/{id}/propose-rule). */
  source_review_id: string | null;
  created_at: Date;
};

export type RuleRow = RuleRevision & { status: string; updated_at: Date };

const COLUMNS = `r.org_id, r.project_id, r.id, r.lineage_id, r.rev, r.rule_layer, r.scope, r.category_id, r.scope_agent_id,
  r.rule_text, r.kind, r.priority, r.supersedes_id, r.author_kind, r.author_agent_id, r.author_email, r.source_review_id, r.created_at,
  m.state AS status, m.updated_at`;
const JOIN = `rules r JOIN machine_instances m ON m.org_id = r.org_id AND m.kind = 'rule' AND m.id = r.id`;

export async function insertRule(db: Executor, r: Omit<RuleRevision, 'created_at' | 'source_review_id'> & { source_review_id?: string | null }): Promise<void> {
  await db.query(
    `INSERT INTO rules (org_id, project_id, id, lineage_id, rev, rule_layer, scope, category_id, scope_agent_id, rule_text,
                        kind, priority, supersedes_id, author_kind, author_agent_id, author_email, source_review_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
    [r.org_id, r.project_id, r.id, r.lineage_id, r.rev, r.rule_layer, r.scope, r.category_id, r.scope_agent_id, r.rule_text,
      r.kind, r.priority, r.supersedes_id, r.author_kind, r.author_agent_id, r.author_email, r.source_review_id ?? null],
  );
}

/** One revision, confined to its org and layer home (project id, or '' for the org layer). */
export async function findRule(db: Executor, orgId: string, projectId: string, id: string): Promise<RuleRow | null> {
  const { rows } = await db.query<RuleRow>(`SELECT ${COLUMNS} FROM ${JOIN} WHERE r.org_id = $1 AND r.project_id = $2 AND r.id = $3`, [orgId, projectId, id]);
  return rows[0] ?? null;
}

/**
 * The newest revision of a lineage, locked: concurrent edits of one lineage take turns, so each
 * one supersedes exactly the head it read.
 */
export async function lockLineageHead(db: Executor, orgId: string, lineageId: string): Promise<RuleRow | null> {
  const { rows } = await db.query<RuleRow>(
    `SELECT ${COLUMNS} FROM ${JOIN} WHERE r.org_id = $1 AND r.lineage_id = $2 ORDER BY r.rev DESC LIMIT 1 FOR UPDATE OF r`,
    [orgId, lineageId],
  );
  return rows[0] ?? null;
}

export type RuleFilter = { status?: string | null; lineage_id?: string | null };

/** The revisions whose home is `projectId` ('' = the org layer), newest first. */
export async function listRules(db: Executor, orgId: string, projectId: string, f: RuleFilter = {}): Promise<RuleRow[]> {
  const { rows } = await db.query<RuleRow>(
    `SELECT ${COLUMNS} FROM ${JOIN}
      WHERE r.org_id = $1 AND r.project_id = $2 AND ($3::text IS NULL OR m.state = $3) AND ($4::text IS NULL OR r.lineage_id = $4)
      ORDER BY r.created_at DESC, r.id DESC LIMIT 1000`,
    [orgId, projectId, f.status ?? null, f.lineage_id ?? null],
  );
  return rows;
}

/**
 * The active rules that apply to an agent composing in a project, in ladder order: hard before
 * soft; then project and per-agent rules over org rules (a per-agent rule over a rule for all
 * agents); then by priority, highest first. With a category, its category rules join the
 * general ones; without, only general rules apply.
 */
export async function ladder(db: Executor, q: { org_id: string; project_id: string; agent_id: string; category_id: string | null }): Promise<RuleRow[]> {
  const { rows } = await db.query<RuleRow>({
    name: 'rules-ladder',
    text: `SELECT ${COLUMNS} FROM ${JOIN}
            WHERE r.org_id = $1 AND r.project_id IN ($2, '') AND m.state = 'active'
              AND (r.scope_agent_id IS NULL OR r.scope_agent_id = $3)
              AND (r.scope = 'general' OR r.category_id = $4)
            ORDER BY (r.kind = 'hard') DESC, (r.rule_layer = 'project') DESC, (r.scope_agent_id IS NOT NULL) DESC,
                     r.priority DESC, r.created_at, r.id`,
    values: [q.org_id, q.project_id, q.agent_id, q.category_id],
  });
  return rows;
}

export async function highWater(db: Executor, orgId: string, projectId: string): Promise<number> {
  const { rows } = await db.query<{ version: number }>('SELECT version FROM rules_high_water WHERE org_id = $1 AND project_id = $2', [orgId, projectId]);
  return rows[0]?.version ?? 0;
}

/**
 * Records that a redraft of the review met born_stale at this high-water; false when one already
 * had (born_stale is answered at most once per review and high-water). Committed on its own: the
 * redraft it refuses changes nothing, but the answer must be remembered.
 */
export async function claimBornStale(db: Executor, orgId: string, reviewId: string, version: number): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO review_born_stale (org_id, review_id, rules_version) VALUES ($1, $2, $3)
     ON CONFLICT (org_id, review_id) DO UPDATE SET rules_version = EXCLUDED.rules_version, answered_at = now()
      WHERE review_born_stale.rules_version < EXCLUDED.rules_version`,
    [orgId, reviewId, version],
  );
  return (rowCount ?? 0) > 0;
}

/**
 * Raises the high-water of every project the rule applies to (one project, or every project of
 * the org for an org-layer rule) in one statement; answers the new values.
 */
export async function raiseHighWater(db: Executor, orgId: string, projectId: string): Promise<{ project_id: string; version: number }[]> {
  const { rows } = await db.query<{ project_id: string; version: number }>(
    `INSERT INTO rules_high_water (org_id, project_id, version)
     SELECT org_id, id, 1 FROM projects WHERE org_id = $1 AND ($2 = '' OR id = $2)
     ON CONFLICT (org_id, project_id) DO UPDATE SET version = rules_high_water.version + 1, updated_at = now()
     RETURNING project_id, version`,
    [orgId, projectId],
  );
  return rows;
}

export type AuditAction = 'create' | 'revise' | 'activate' | 'retire' | 'undo';

export type AuditRow = {
  org_id: string;
  project_id: string;
  id: string;
  lineage_id: string;
  action: AuditAction;
  before: Record<string, unknown> | null;
  after: Record<string, unknown>;
  actor_email: string | null;
  undone_at: Date | null;
  undone_by: string | null;
  created_at: Date;
};

export async function insertAudit(db: Executor, a: Omit<AuditRow, 'undone_at' | 'undone_by' | 'created_at'>): Promise<AuditRow> {
  const { rows } = await db.query<AuditRow>(
    `INSERT INTO rule_audit (org_id, project_id, id, lineage_id, action, before, after, actor_email)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
    [a.org_id, a.project_id, a.id, a.lineage_id, a.action, a.before === null ? null : JSON.stringify(a.before), JSON.stringify(a.after), a.actor_email],
  );
  return rows[0]!;
}

export async function lockAudit(db: Executor, orgId: string, projectId: string, id: string): Promise<AuditRow | null> {
  const { rows } = await db.query<AuditRow>('SELECT * FROM rule_audit WHERE org_id = $1 AND project_id = $2 AND id = $3 FOR UPDATE', [orgId, projectId, id]);
  return rows[0] ?? null;
}

export async function markUndone(db: Executor, orgId: string, id: string, undoneBy: string): Promise<AuditRow> {
  const { rows } = await db.query<AuditRow>(
    'UPDATE rule_audit SET undone_at = now(), undone_by = $3 WHERE org_id = $1 AND id = $2 RETURNING *',
    [orgId, id, undoneBy],
  );
  return rows[0]!;
}

/** Audit rows of one home, newest first, `limit` at a time after the (created_at, id) cursor. */
export async function listAudit(db: Executor, orgId: string, projectId: string, limit: number): Promise<AuditRow[]> {
  const { rows } = await db.query<AuditRow>(
    'SELECT * FROM rule_audit WHERE org_id = $1 AND project_id = $2 ORDER BY created_at DESC, id DESC LIMIT $3',
    [orgId, projectId, limit],
  );
  return rows;
}
