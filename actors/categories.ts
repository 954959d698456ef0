// The category actor: categories as persisted graduation machines (kind 'category'), the human
// verbs on them (graduate, demote, pin), the outcomes of review decisions that feed them, and the
// reads of both planes (records, backlog status). Every change goes through the one runner.
import type pg from 'pg';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import {
  CATEGORY_MACHINE_VERSION,
  allowedCategoryVerbs,
  categoryMachine,
  graduationGaps,
  rungOf,
  type CategoryActionParams,
  type CategoryEvent,
  type CategorySnapshot,
  type GraduationGates,
  type Outcome,
} from '../machines/category.ts';
import { Problem, badRequest, notFound, type FieldError } from '../machines/problems.ts';
import { RISK_DIAL_FIELDS, effectiveRiskDial, type RiskDial } from '../machines/policy/risk-dial.ts';
import type { Queue } from '../service/queue.ts';
import { withTransaction, type Executor, type Pool } from '../storage/db.ts';
import { findAgentInOrg } from '../storage/agents.ts';
import {
  broadcastRecheck,
  categoryBacklog,
  findCategory,
  insertCategory,
  listCategories,
  updateCategory,
  type CategoryReader,
  type CategoryRow,
  type CategoryScope,
} from '../storage/categories.ts';
import { newId } from '../storage/ids.ts';
import type { MachineRow } from '../storage/machines.ts';
import { publishEvent } from './events.ts';
import { categoryView, type CategoryView } from './present/categories.ts';
import { reviewSettings } from './review-settings.ts';
import { applyEventIn, createInstanceIn, type EffectContext, type MachineAction, type MachineKind } from './run-machine.ts';

type Deps = { db: Pool; queue: Queue };

/**
 * How many rules versions behind the high-water a queued draft may be and still count
 * current-enough. 0, like the born_stale check of a redraft: only the current rules are enough.
 */
export const BACKLOG_STALENESS_TOLERANCE = 0;

/** The dial fields a category may override; the auto-send cap is per customer, never per category. */
export const CATEGORY_RISK_FIELDS = RISK_DIAL_FIELDS.filter((f) => f !== 'auto_send_cap_per_day');

// ---- The record

/** The account dial with the category's own values over it (null inherits it whole). */
export async function categoryDial(db: Executor, c: Pick<CategoryRow, 'org_id' | 'risk'>): Promise<RiskDial> {
  const { dial } = await reviewSettings(db, c.org_id);
  return withCategoryRisk(dial, c);
}

/** categoryDial from the account's dial as stored (null when never set), read with the category. */
export function categoryDialFromStored(stored: Record<string, unknown> | null, c: Pick<CategoryRow, 'risk'>): RiskDial {
  return withCategoryRisk(effectiveRiskDial(stored), c);
}

function withCategoryRisk(account: RiskDial, c: Pick<CategoryRow, 'risk'>): RiskDial {
  const out = { ...account } as Record<string, unknown>;
  for (const f of CATEGORY_RISK_FIELDS) if (c.risk?.[f] != null) out[f] = c.risk[f];
  return out as RiskDial;
}

const gatesOf = (d: RiskDial): GraduationGates => ({
  graduate_min_approvals: d.graduate_min_approvals,
  graduate_min_age_hours: d.graduate_min_age_hours,
  drift_demote_after: d.drift_demote_after,
});

// ---- The machine kind

async function performCategoryAction(action: MachineAction, ctx: EffectContext): Promise<void> {
  const row = ctx.row;
  switch (action.type) {
    case 'emitCategoryEvent': {
      const p = action.params as CategoryActionParams['emitCategoryEvent'];
      const category = await findCategory(ctx.tx, { org_id: row.org_id, project_id: row.project_id, agent_id: null }, row.id);
      if (!category) throw new Error(`category ${row.id} has a machine but no category row`);
      // The record as of this transition: the row read above still holds the previous snapshot.
      const view = categoryView({ ...category, state: row.state, snapshot: row.snapshot as CategoryRow['snapshot'] });
      await publishEvent(ctx.tx, ctx.queue, {
        org_id: row.org_id,
        project_id: row.project_id,
        // A private category's events are its agent's alone.
        agent_id: category.agent_id,
        type: p.type,
        payload: { category: view, from_rung: p.from_rung, to_rung: p.to_rung, by: p.by },
      });
      return;
    }
    case 'broadcastRecheck': {
      const p = action.params as CategoryActionParams['broadcastRecheck'];
      await broadcastRecheck(ctx.tx, { org_id: row.org_id, project_id: row.project_id, category_id: row.id, rung: p.rung, broadcast_id: newId('brd') });
      return;
    }
    default:
      return;
  }
}

function rejectCategoryEvent(s: AnyMachineSnapshot, event: EventObject, _row: MachineRow): Error | null {
  const snapshot = s as CategorySnapshot;
  const e = event as CategoryEvent;
  if (snapshot.can(e)) return null;
  const state = String(snapshot.value);
  const hints: FieldError[] = [
    { field: 'rung', code: rungOf(state), detail: `The category is ${rungOf(state)}${state === 'pinned' ? ' and pinned' : ''}.` },
    ...allowedCategoryVerbs(snapshot).map((v) => ({ field: 'allowed_action', code: v, detail: `${v} is legal now.` })),
  ];
  if (e.type === 'graduate' && state === 'pinned') {
    return new Problem('graduation_locked', { detail: 'The category is pinned at supervised (never_graduate); nothing changed. Unpin it first.', errors: hints });
  }
  if (e.type === 'graduate' && (state === 'supervised' || state === 'auto_notify')) {
    const gaps = graduationGaps(snapshot.context, e.at, e.gates);
    return new Problem('maturity_gate_unmet', {
      detail: `The next rung is not earned yet: ${gaps.map((g) => g.detail).join('; ')}. Nothing changed.`,
      errors: [...gaps, ...hints],
    });
  }
  return new Problem('conflict', { detail: `${e.type} is not possible while the category is ${state}.`, errors: hints });
}

export const categoryKind: MachineKind = {
  kind: 'category',
  machine: categoryMachine,
  version: CATEGORY_MACHINE_VERSION,
  perform: performCategoryAction,
  reject: rejectCategoryEvent,
  allowed: (s) => allowedCategoryVerbs(s as CategorySnapshot),
};

// ---- Console commands

export type CategoryInput = { name: string; description?: string; scope?: CategoryScope; agent_id?: string | null; risk?: Record<string, unknown> | null };

type Home = { org_id: string; project_id: string };

function checkName(name: string | undefined): void {
  if (name !== undefined && name.trim() === '') throw badRequest('name', 'name must not be empty.', 'required');
}

export function createCategory(d: Deps, at: Home, input: CategoryInput): Promise<CategoryView> {
  checkName(input.name);
  const scope = input.scope ?? 'org_shared';
  if (scope === 'agent_private' && !input.agent_id) throw badRequest('agent_id', 'An agent_private category names the agent it belongs to.', 'required');
  if (scope === 'org_shared' && input.agent_id) throw badRequest('agent_id', 'agent_id is set only when scope is agent_private.');
  return withTransaction(d.db, async (tx) => {
    const owner = input.agent_id ? await findAgentInOrg(tx, at.org_id, input.agent_id) : null;
    if (input.agent_id && owner?.project_id !== at.project_id) throw badRequest('agent_id', `No agent ${input.agent_id} in this project.`, 'not_found');
    const id = newId('cat');
    const created = await insertCategory(tx, {
      ...at,
      id,
      name: input.name.trim(),
      description: input.description ?? '',
      scope,
      agent_id: input.agent_id ?? null,
      risk: input.risk ?? null,
    });
    const create: CategoryEvent = { type: 'create', at: created.getTime() };
    await createInstanceIn(tx, d.queue, categoryKind, { ...at, id, agent_id: input.agent_id ?? null }, create);
    return categoryView((await findCategory(tx, { ...at, agent_id: null }, id))!);
  });
}

export function updateCategoryRecord(d: Deps, at: Home, id: string, change: { name?: string; description?: string; risk?: Record<string, unknown> | null }) {
  checkName(change.name);
  return withTransaction(d.db, async (tx) => {
    if (!(await updateCategory(tx, { ...at, id }, { ...change, name: change.name?.trim() }))) throw notFound('category');
    return categoryView((await findCategory(tx, { ...at, agent_id: null }, id))!);
  });
}

export type HumanCategoryVerb = 'graduate' | 'demote' | 'pin' | 'unpin';

/** A human's graduate, demote, pin or unpin, applied through the runner. */
export function categoryVerb(d: Deps, at: Home, id: string, verb: HumanCategoryVerb): Promise<CategoryView> {
  return withTransaction(d.db, async (tx) => {
    const category = await findCategory(tx, { ...at, agent_id: null }, id);
    if (!category) throw notFound('category');
    const event: CategoryEvent =
      verb === 'graduate' ? { type: 'graduate', at: Date.now(), gates: gatesOf(await categoryDial(tx, category)) } : { type: verb };
    const applied = await applyEventIn(tx, d.queue, categoryKind, { id, org_id: at.org_id }, event);
    return categoryView({ ...category, state: applied.row.state, snapshot: applied.row.snapshot as CategoryRow['snapshot'] });
  });
}

/**
 * A human's or reviewer agent's decision on a categorised draft, counted for its category in the
 * decision's transaction: a clean approval, an edit or a rejection.
 */
export async function recordOutcome(tx: pg.ClientBase, queue: Queue, at: Home & { category_id: string }, outcome: Outcome): Promise<void> {
  const category = await findCategory(tx, { org_id: at.org_id, project_id: at.project_id, agent_id: null }, at.category_id);
  if (!category) return;
  const gates = gatesOf(await categoryDial(tx, category));
  const event: CategoryEvent = { type: 'outcome', outcome, at: Date.now(), gates };
  await applyEventIn(tx, queue, categoryKind, { id: at.category_id, org_id: at.org_id }, event);
}

// ---- Reads

export async function listCategoryViews(db: Executor, r: CategoryReader): Promise<CategoryView[]> {
  return (await listCategories(db, r)).map(categoryView);
}

export async function getCategory(db: Executor, r: CategoryReader, id: string): Promise<CategoryView> {
  const c = await findCategory(db, r, id);
  if (!c) throw notFound('category');
  return categoryView(c);
}

/** Backlog status (contract): queued drafts, current-enough against the rules high-water, needing a redraft. */
export async function backlogStatus(db: Executor, r: CategoryReader, id: string) {
  const c = await findCategory(db, r, id);
  if (!c) throw notFound('category');
  const b = await categoryBacklog(db, { org_id: c.org_id, project_id: c.project_id, category_id: c.id }, BACKLOG_STALENESS_TOLERANCE);
  return {
    category_id: c.id,
    queued: b.queued,
    current_enough: b.current_enough,
    needs_redraft: b.needs_redraft,
    staleness_tolerance: BACKLOG_STALENESS_TOLERANCE,
    rules_version: b.rules_version,
  };
}
