import { readAhead, takeRead, writeBeforeCommit, type Executor, type PreparedStatement } from './db.ts';

export type MachineRow = {
  org_id: string;
  project_id: string;
  kind: string;
  id: string;
  inbox_id: string | null;
  agent_id: string | null;
  state: string;
  version: number;
  machine_version: number;
  snapshot: unknown;
  created_at: Date;
  updated_at: Date;
};

export type TransitionRow = {
  version: number;
  event: Record<string, unknown>;
  from_state: string | null;
  to_state: string;
  actions: unknown[];
  created_at: Date;
};

const lockMachineStatement = (kind: string, id: string): PreparedStatement => ({
  name: 'machines-lock',
  text: 'SELECT * FROM machine_instances WHERE kind = $1 AND id = $2 FOR UPDATE',
  values: [kind, id],
});

/** The instance, locked until the transaction ends; read and locked by an earlier statement when lockMachineAhead started it. */
export async function lockMachine(db: Executor, kind: string, id: string): Promise<MachineRow | null> {
  const { rows } = await takeRead<MachineRow>(db, lockMachineStatement(kind, id));
  return rows[0] ?? null;
}

/**
 * Sends lockMachine's read with the transaction's next statement (readAhead): the row is locked
 * from then on, which a transaction that will apply an event to it anyway can afford.
 */
export function lockMachineAhead(tx: Executor, kind: string, id: string): void {
  readAhead(tx, lockMachineStatement(kind, id));
}

export async function findMachine(db: Executor, orgId: string, kind: string, id: string): Promise<MachineRow | null> {
  const { rows } = await db.query<MachineRow>('SELECT * FROM machine_instances WHERE org_id = $1 AND kind = $2 AND id = $3', [orgId, kind, id]);
  return rows[0] ?? null;
}

/** The record of one applied event, written with the snapshot it produced. */
export type NewTransition = Omit<TransitionRow, 'created_at' | 'version'>;

const transitionValues = (t: NewTransition) => [JSON.stringify(t.event), t.from_state, t.to_state, JSON.stringify(t.actions)];

/** A new instance at version 1 and its first transition, in one statement. */
export async function insertMachine(
  db: Executor,
  m: Omit<MachineRow, 'created_at' | 'updated_at' | 'version'>,
  t: NewTransition,
): Promise<MachineRow> {
  // Only the times come back: the snapshot was just written, and reading it back costs both ends a JSON pass.
  const { rows } = await db.query<Pick<MachineRow, 'created_at' | 'updated_at'>>(insertMachineStatement(m, t));
  return { ...m, version: 1, ...rows[0]! };
}

/** insertMachine's statement, for a caller that knows its times already (the transaction's now()) and can leave it for the commit. */
export function insertMachineStatement(m: Omit<MachineRow, 'created_at' | 'updated_at' | 'version'>, t: NewTransition): PreparedStatement {
  return {
    name: 'machines-insert',
    text: `WITH m AS (
             INSERT INTO machine_instances (org_id, project_id, kind, id, inbox_id, agent_id, state, version, machine_version, snapshot)
             VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8, $9) RETURNING org_id, kind, id, version, created_at, updated_at),
           t AS (
             INSERT INTO machine_transitions (org_id, kind, id, version, event, from_state, to_state, actions)
             SELECT m.org_id, m.kind, m.id, m.version, $10, $11, $12, $13 FROM m)
           SELECT created_at, updated_at FROM m`,
    values: [m.org_id, m.project_id, m.kind, m.id, m.inbox_id, m.agent_id, m.state, m.machine_version, JSON.stringify(m.snapshot), ...transitionValues(t)],
  };
}

/**
 * Writes the next snapshot and its transition, in one statement, for a row the transaction locked
 * at `version` (lockMachine): nothing reads the result, so it goes with the transaction's next
 * statement (writeBeforeCommit).
 */
export async function updateMachine(
  tx: Executor,
  m: { org_id: string; kind: string; id: string; version: number; state: string; machine_version: number; snapshot: unknown },
  t: NewTransition,
): Promise<void> {
  await writeBeforeCommit(tx, {
    name: 'machines-update',
    text: `WITH m AS (
             UPDATE machine_instances SET state = $5, version = version + 1, machine_version = $6, snapshot = $7, updated_at = now()
              WHERE org_id = $1 AND kind = $2 AND id = $3 AND version = $4
             RETURNING org_id, kind, id, version),
           t AS (
             INSERT INTO machine_transitions (org_id, kind, id, version, event, from_state, to_state, actions)
             SELECT m.org_id, m.kind, m.id, m.version, $8, $9, $10, $11 FROM m)
           SELECT 1 FROM m`,
    values: [m.org_id, m.kind, m.id, m.version, m.state, m.machine_version, JSON.stringify(m.snapshot), ...transitionValues(t)],
  });
}

export async function listTransitions(db: Executor, orgId: string, kind: string, id: string): Promise<TransitionRow[]> {
  const { rows } = await db.query<TransitionRow>(
    `SELECT version, event, from_state, to_state, actions, created_at FROM machine_transitions
      WHERE org_id = $1 AND kind = $2 AND id = $3 ORDER BY version`,
    [orgId, kind, id],
  );
  return rows;
}

/** The org of a machine instance, found by its kind and id alone (for operators). */
export async function machineOrgOf(db: Executor, kind: string, id: string): Promise<string | null> {
  const { rows } = await db.query<{ org_id: string }>('SELECT org_id FROM machine_instances WHERE kind = $1 AND id = $2', [kind, id]);
  return rows[0]?.org_id ?? null;
}
