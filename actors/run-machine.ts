// The one runner that applies an event to a persisted machine. In one transaction: lock the row,
// restore the snapshot, `transition()` (pure), write the next snapshot with version + 1, record the
// transition, and perform the returned actions (event-log rows, jobs) through the same transaction.
// State, events and effects commit together or not at all.
import type pg from 'pg';
import { initialTransition, transition, type AnyStateMachine, type AnyMachineSnapshot, type EventObject } from 'xstate';
import { withTransaction, writeBeforeCommit, type Executor, type Pool } from '../storage/db.ts';
import {
  findMachine,
  insertMachine,
  insertMachineStatement,
  listTransitions,
  lockMachine,
  updateMachine,
  type MachineRow,
  type TransitionRow,
} from '../storage/machines.ts';
import type { Queue } from '../service/queue.ts';
import { Problem, notFound } from '../machines/problems.ts';

export type MachineAction = { type: string; params?: unknown };

export type EffectContext = {
  tx: pg.ClientBase;
  queue: Queue;
  /** The row as written by this transition (version already incremented). */
  row: MachineRow;
  snapshot: AnyMachineSnapshot;
  previousState: string | null;
  event: EventObject;
  /** Enqueues a job in this transaction and wakes its workers when the transaction commits. */
  enqueue(name: string, data: object, options?: Parameters<Queue['send']>[3]): Promise<void>;
};

export type MachineKind = {
  kind: string;
  machine: AnyStateMachine;
  /** Stored with each snapshot: a snapshot of an older shape must not be restored blindly. */
  version: number;
  /** Performs one action returned by the transition, inside the transaction. */
  perform(action: MachineAction, ctx: EffectContext): Promise<void>;
  /** Why the machine refuses the event (thrown as is), or null when it accepts it. */
  reject?(snapshot: AnyMachineSnapshot, event: EventObject, row: MachineRow): Error | null;
  /** The verbs legal now, for operators and conflict hints. */
  allowed?(snapshot: AnyMachineSnapshot): string[];
};

export type Applied = { row: MachineRow; snapshot: AnyMachineSnapshot; actions: MachineAction[]; previousState: string | null };

export type MachineRef = { org_id: string; project_id: string; id: string; inbox_id?: string | null; agent_id?: string | null };

const stateName = (s: AnyMachineSnapshot): string => (typeof s.value === 'string' ? s.value : JSON.stringify(s.value));

function restore(def: MachineKind, row: MachineRow): AnyMachineSnapshot {
  if (row.machine_version !== def.version) {
    throw new Error(`${def.kind} ${row.id} was stored by machine version ${row.machine_version}; this build runs ${def.version}`);
  }
  return def.machine.resolveState(row.snapshot as any);
}

// A machine's initial snapshot is the same every time; transition() never changes its input.
const initialSnapshots = new WeakMap<AnyStateMachine, AnyMachineSnapshot>();
function initialSnapshot(machine: AnyStateMachine): AnyMachineSnapshot {
  let snapshot = initialSnapshots.get(machine);
  if (!snapshot) initialSnapshots.set(machine, (snapshot = initialTransition(machine)[0]));
  return snapshot;
}

/** The pure step: the event checked against the snapshot, then the next snapshot and its actions. */
function step(def: MachineKind, from: AnyMachineSnapshot, event: EventObject, row: MachineRow | null) {
  const reason = row ? def.reject?.(from, event, row) : null;
  const refused = reason ?? (from.can(event) ? null : new Problem('conflict', { detail: `${event.type} is not possible now.` }));
  if (refused) throw refused;
  const [snapshot, actions] = transition(def.machine, from, event);
  return {
    snapshot,
    state: stateName(snapshot),
    persisted: def.machine.getPersistedSnapshot(snapshot),
    actions: actions.map((a) => ({ type: a.type, params: (a as { params?: unknown }).params })) as MachineAction[],
  };
}

/** Performs the transition's actions in the transaction that wrote it. */
async function perform(tx: pg.ClientBase, queue: Queue, def: MachineKind, applied: Applied, event: EventObject): Promise<Applied> {
  const woken = new Set<string>();
  const ctx: EffectContext = {
    tx,
    queue,
    row: applied.row,
    snapshot: applied.snapshot,
    previousState: applied.previousState,
    event,
    async enqueue(name, data, options) {
      await queue.send(tx, name, data, options);
      if (!woken.has(name) && !(options && 'startAfter' in options)) {
        woken.add(name);
        // Delivered on commit only: workers fetch the job at once instead of at their next poll.
        await queue.wake(tx, name);
      }
    },
  };
  for (const action of applied.actions) await def.perform(action, ctx);
  return applied;
}

/**
 * Creates an instance and applies its first event (e.g. `submit`), in the caller's transaction.
 * A caller that read the transaction's now() (`at`, the new row's times) needs nothing back from
 * the insert, which then goes with the transaction's next statement (writeBeforeCommit).
 */
export async function createInstanceIn(
  tx: pg.ClientBase,
  queue: Queue,
  def: MachineKind,
  ref: MachineRef,
  event: EventObject,
  opts: { at?: Date } = {},
): Promise<Applied> {
  const next = step(def, initialSnapshot(def.machine), event, null);
  const instance = {
    org_id: ref.org_id,
    project_id: ref.project_id,
    kind: def.kind,
    id: ref.id,
    inbox_id: ref.inbox_id ?? null,
    agent_id: ref.agent_id ?? null,
    state: next.state,
    machine_version: def.version,
    snapshot: next.persisted,
  };
  const transition = { event: event as unknown as Record<string, unknown>, from_state: null, to_state: next.state, actions: next.actions };
  let row: MachineRow;
  if (opts.at) {
    await writeBeforeCommit(tx, insertMachineStatement(instance, transition));
    row = { ...instance, version: 1, created_at: opts.at, updated_at: opts.at };
  } else {
    row = await insertMachine(tx, instance, transition);
  }
  return perform(tx, queue, def, { row, snapshot: next.snapshot, actions: next.actions, previousState: null }, event);
}

export function createInstance(pool: Pool, queue: Queue, def: MachineKind, ref: MachineRef, event: EventObject): Promise<Applied> {
  return withTransaction(pool, (tx) => createInstanceIn(tx, queue, def, ref, event));
}

/**
 * Applies `event` to the instance `id`. `orgId` (when given) confines the lookup to a tenant:
 * another tenant's instance is not found. `expectedVersion` turns a moved row into `stale`.
 */
export async function applyEventIn(
  tx: pg.ClientBase,
  queue: Queue,
  def: MachineKind,
  target: { id: string; org_id?: string; expectedVersion?: number },
  event: EventObject,
): Promise<Applied> {
  const row = await lockMachine(tx, def.kind, target.id);
  if (!row || (target.org_id && row.org_id !== target.org_id)) throw notFound(def.kind);
  if (target.expectedVersion !== undefined && target.expectedVersion !== row.version) {
    throw new Problem('stale', { detail: `${def.kind} ${row.id} is at version ${row.version}, not ${target.expectedVersion}.` });
  }
  const previous = restore(def, row);
  const next = step(def, previous, event, row);
  const previousState = stateName(previous);
  // Locked since it was read: the update finds the row at the version read.
  await updateMachine(
    tx,
    { org_id: row.org_id, kind: def.kind, id: row.id, version: row.version, state: next.state, machine_version: def.version, snapshot: next.persisted },
    { event: event as unknown as Record<string, unknown>, from_state: previousState, to_state: next.state, actions: next.actions },
  );
  const updated: MachineRow = { ...row, state: next.state, version: row.version + 1, snapshot: next.persisted, updated_at: new Date() };
  return perform(tx, queue, def, { row: updated, snapshot: next.snapshot, actions: next.actions, previousState }, event);
}

export function applyEvent(
  pool: Pool,
  queue: Queue,
  def: MachineKind,
  target: { id: string; org_id?: string; expectedVersion?: number },
  event: EventObject,
): Promise<Applied> {
  return withTransaction(pool, (tx) => applyEventIn(tx, queue, def, target, event));
}

export type MachineDescription = {
  kind: string;
  id: string;
  org_id: string;
  project_id: string;
  state: string;
  version: number;
  machine_version: number;
  snapshot: unknown;
  transitions: TransitionRow[];
  allowed_actions: string[];
};

/** What operators inspect: the persisted snapshot, the events that led there, the legal next verbs. */
export async function describeMachine(db: Executor, def: MachineKind, orgId: string, id: string): Promise<MachineDescription | null> {
  const row = await findMachine(db, orgId, def.kind, id);
  if (!row) return null;
  return {
    kind: def.kind,
    id: row.id,
    org_id: row.org_id,
    project_id: row.project_id,
    state: row.state,
    version: row.version,
    machine_version: row.machine_version,
    snapshot: row.snapshot,
    transitions: await listTransitions(db, row.org_id, def.kind, row.id),
    allowed_actions: def.allowed?.(restore(def, row)) ?? [],
  };
}
