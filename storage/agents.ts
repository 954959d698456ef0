import type { Executor } from './db.ts';

export type Agent = {
  org_id: string;
  project_id: string;
  id: string;
  handle: string;
  display_name: string | null;
  status: 'active' | 'disabled';
  enrollment_token_id: string | null;
  created_at: Date;
};

/** Inserts the agent, or returns the existing one with the same handle in the project. */
export async function upsertAgentByHandle(
  db: Executor,
  a: { org_id: string; project_id: string; id: string; handle: string; display_name?: string | null; enrollment_token_id?: string | null },
): Promise<{ agent: Agent; created: boolean }> {
  const inserted = await db.query<Agent>(
    `INSERT INTO agents (org_id, project_id, id, handle, display_name, enrollment_token_id)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (org_id, project_id, handle) DO NOTHING
     RETURNING *`,
    [a.org_id, a.project_id, a.id, a.handle, a.display_name ?? null, a.enrollment_token_id ?? null],
  );
  if (inserted.rows[0]) return { agent: inserted.rows[0], created: true };
  const { rows } = await db.query<Agent>(
    'SELECT * FROM agents WHERE org_id = $1 AND project_id = $2 AND handle = $3',
    [a.org_id, a.project_id, a.handle],
  );
  return { agent: rows[0]!, created: false };
}

export async function findAgent(db: Executor, orgId: string, projectId: string, id: string): Promise<Agent | null> {
  const { rows } = await db.query<Agent>('SELECT * FROM agents WHERE org_id = $1 AND project_id = $2 AND id = $3', [orgId, projectId, id]);
  return rows[0] ?? null;
}

export async function listAgents(db: Executor, orgId: string, projectId: string): Promise<Agent[]> {
  const { rows } = await db.query<Agent>(
    'SELECT * FROM agents WHERE org_id = $1 AND project_id = $2 ORDER BY created_at, id',
    [orgId, projectId],
  );
  return rows;
}

export async function findAgentInOrg(db: Executor, orgId: string, id: string): Promise<Agent | null> {
  const { rows } = await db.query<Agent>('SELECT * FROM agents WHERE org_id = $1 AND id = $2', [orgId, id]);
  return rows[0] ?? null;
}

/**
 * Agents by id, as far as a caller's scope reaches: its org, and its project and agent when the
 * scope narrows to them. An id outside the scope is simply not returned.
 */
export async function findAgentsInScope(
  db: Executor,
  scope: { org_id: string; project_id: string | null; agent_id: string | null },
  ids: string[],
): Promise<Agent[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<Agent>(
    `SELECT * FROM agents
      WHERE org_id = $1 AND ($2::text IS NULL OR project_id = $2) AND ($3::text IS NULL OR id = $3) AND id = ANY($4::text[])`,
    [scope.org_id, scope.project_id, scope.agent_id, ids],
  );
  return rows;
}
