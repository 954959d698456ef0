// The rule actor: writing-rule revisions as persisted machines (kind 'rule'), their lineages,
// the rules high-water and the audit of human changes with its undo.
//
// Every operation is one transaction: the revision rows, the machine snapshots and transitions,
// the `rule.*` events, the high-water raise and the audit row commit together or not at all.
import type pg from 'pg';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { Problem, badRequest, notFound, type FieldError } from '../machines/problems.ts';
import {
  RULE_MACHINE_VERSION,
  allowedRuleVerbs,
  ruleMachine,
  type RuleActionParams,
  type RuleEvent,
  type RuleSnapshot,
} from '../machines/rule.ts';
import type { Queue } from '../service/queue.ts';
import { withTransaction, type Pool } from '../storage/db.ts';
import { newId } from '../storage/ids.ts';
import { findAgentInOrg } from '../storage/agents.ts';
import { categoryVisible } from '../storage/categories.ts';
import {
  findRule,
  highWater,
  insertAudit,
  ladder,
  insertRule,
  lockAudit,
  lockLineageHead,
  markUndone,
  raiseHighWater,
  type AuditAction,
  type AuditRow,
  type RuleRevision,
  type RuleRow,
} from '../storage/rules.ts';
import { findReview, listFeedback } from '../storage/reviews.ts';
import { listProjects } from '../storage/tenancy.ts';
import { broadcastRuleChange } from '../storage/review-events.ts';
import { publishEvent } from './events.ts';
import { ruleView, type RuleView } from './present/rules.ts';
import { applyEventIn, createInstanceIn, type EffectContext, type MachineAction, type MachineKind } from './run-machine.ts';
import type { MachineRow } from '../storage/machines.ts';

/** Longest rule text accepted (characters); the OpenAPI schema states the same limit. */
export const MAX_RULE_TEXT = 2000;

type Deps = { db: Pool; queue: Queue };

/** Where a rule lives: a project, or the org layer (project_id ''). */
export type RuleHome = { org_id: string; project_id: string };

export type RuleAuthor = { kind: 'human'; email: string } | { kind: 'agent'; agent_id: string };

export type RuleInput = {
  rule_text: string;
  scope?: 'general' | 'category';
  category_id?: string | null;
  scope_agent_id?: string | null;
  kind?: 'soft' | 'hard';
  priority?: number;
  /** Human rules start `active` unless asked otherwise; agent proposals are always `proposed`. */
  status?: 'proposed' | 'active';
};

export type RuleChanges = Partial<Omit<RuleInput, 'status'>>;


// ---- The machine kind

async function performRuleAction(action: MachineAction, ctx: EffectContext): Promise<void> {
  const row = ctx.row;
  switch (action.type) {
    case 'emitRuleEvent': {
      const { type } = action.params as RuleActionParams['emitRuleEvent'];
      const rule = await findRule(ctx.tx, row.org_id, row.project_id, row.id);
      if (!rule) throw new Error(`rule ${row.id} has a machine but no revision row`);
      await publishRuleEvent(ctx.tx, ctx.queue, rule, type);
      return;
    }
    case 'raiseHighWater': {
      await raiseHighWater(ctx.tx, row.org_id, row.project_id);
      // Every live draft the rule applies to learns that its rules moved on.
      const rule = await findRule(ctx.tx, row.org_id, row.project_id, row.id);
      if (!rule) throw new Error(`rule ${row.id} has a machine but no revision row`);
      await broadcastRuleChange(ctx.tx, {
        org_id: rule.org_id,
        project_id: rule.project_id,
        rule_id: rule.id,
        scope_agent_id: rule.scope_agent_id,
        category_id: rule.scope === 'category' ? rule.category_id : null,
        broadcast_id: newId('brd'),
      });
      return;
    }
    default:
      return;
  }
}

/** A rule event lands in the log of every project the rule applies to (all projects for an org rule). */
async function publishRuleEvent(tx: pg.ClientBase, queue: Queue, rule: RuleRow, type: string): Promise<void> {
  const projects = rule.project_id ? [rule.project_id] : (await listProjects(tx, rule.org_id)).map((p) => p.id);
  const payload = { rule: ruleView(rule) };
  for (const project_id of projects) await publishEvent(tx, queue, { org_id: rule.org_id, project_id, type, payload });
}

function rejectRuleEvent(s: AnyMachineSnapshot, event: EventObject, _row: MachineRow): Error | null {
  const snapshot = s as RuleSnapshot;
  return snapshot.can(event as RuleEvent) ? null : illegal(event.type, String(snapshot.value), allowedRuleVerbs(snapshot));
}

/** 409 with the rule's status and each verb legal now in `errors[]`. */
function illegal(verb: string, status: string, allowed: string[]): Problem {
  const errors: FieldError[] = [
    { field: 'status', code: status, detail: `The rule is ${status}.` },
    ...allowed.map((v) => ({ field: 'allowed_action', code: v, detail: `${v} is legal now.` })),
  ];
  return new Problem('conflict', { detail: `${verb} is not legal while the rule is ${status}.`, errors });
}

const isLive = (r: RuleRow): r is RuleRow & { status: 'proposed' | 'active' } => r.status === 'proposed' || r.status === 'active';

export const ruleKind: MachineKind = {
  kind: 'rule',
  machine: ruleMachine,
  version: RULE_MACHINE_VERSION,
  perform: performRuleAction,
  reject: rejectRuleEvent,
  allowed: (s) => allowedRuleVerbs(s as RuleSnapshot),
};

// ---- Writing

/** `viewer`: the agent proposing the rule, whose private categories it may name; null for a human, who sees every one. */
async function checkInput(
  tx: pg.ClientBase,
  home: RuleHome,
  r: Pick<RuleRevision, 'scope' | 'category_id' | 'scope_agent_id' | 'rule_text'>,
  viewer: string | null,
): Promise<void> {
  if (r.rule_text.trim() === '') throw badRequest('rule_text', 'rule_text must not be empty.');
  if (r.rule_text.length > MAX_RULE_TEXT) throw badRequest('rule_text', `rule_text is longer than ${MAX_RULE_TEXT} characters.`, 'too_long');
  if (r.scope === 'category' && !r.category_id) throw badRequest('category_id', 'A rule of scope category needs a category_id.', 'required');
  if (r.scope !== 'category' && r.category_id) throw badRequest('category_id', 'category_id is set only when scope is category.');
  // A category that does not exist, or that the caller cannot see, is 404 as if it did not exist.
  if (r.category_id && !(await categoryVisible(tx, { org_id: home.org_id, project_id: home.project_id || null, agent_id: viewer }, r.category_id))) {
    throw new Problem('not_found', { detail: `No such category ${r.category_id}.`, errors: [{ field: 'category_id', code: 'not_found' }] });
  }
  if (r.scope_agent_id) {
    const agent = await findAgentInOrg(tx, home.org_id, r.scope_agent_id);
    if (!agent || (home.project_id && agent.project_id !== home.project_id)) throw badRequest('scope_agent_id', 'No such agent here.', 'not_found');
  }
}

const auditRef = (r: RuleRow) => ruleView(r) as unknown as Record<string, unknown>;

async function audit(tx: pg.ClientBase, home: RuleHome, action: AuditAction, before: RuleRow | null, after: RuleRow, email: string): Promise<AuditRow> {
  return insertAudit(tx, {
    org_id: home.org_id,
    project_id: home.project_id,
    id: newId('udo'),
    lineage_id: after.lineage_id,
    action,
    before: before ? auditRef(before) : null,
    after: auditRef(after),
    actor_email: email,
  });
}

async function reread(tx: pg.ClientBase, home: RuleHome, id: string): Promise<RuleRow> {
  const rule = await findRule(tx, home.org_id, home.project_id, id);
  if (!rule) throw new Error(`rule ${id} vanished inside its own transaction`);
  return rule;
}

/** Writes a revision row and starts its machine (`create`), in the caller's transaction. */
async function writeRevision(
  tx: pg.ClientBase,
  queue: Queue,
  rev: Omit<RuleRevision, 'created_at' | 'source_review_id'> & { source_review_id?: string | null },
  status: 'proposed' | 'active',
  opts: { restores?: boolean; replaces_active?: boolean } = {},
): Promise<RuleRow> {
  await insertRule(tx, rev);
  const machineRef = { org_id: rev.org_id, project_id: rev.project_id, id: rev.id, agent_id: rev.scope_agent_id };
  const create: RuleEvent = { type: 'create', author_kind: rev.author_kind, status, ...opts };
  await createInstanceIn(tx, queue, ruleKind, machineRef, create);
  return reread(tx, { org_id: rev.org_id, project_id: rev.project_id }, rev.id);
}

/** A new lineage at rev 1. A human's rule is audited; an agent's lands `proposed`. */
export async function createRule(
  deps: Deps,
  home: RuleHome,
  input: RuleInput,
  author: RuleAuthor,
  source: { review_id: string } | null = null,
): Promise<RuleRow> {
  return withTransaction(deps.db, async (tx) => {
    const rev: Omit<RuleRevision, 'created_at'> = {
      org_id: home.org_id,
      project_id: home.project_id,
      id: newId('rule'),
      lineage_id: newId('rln'),
      rev: 1,
      rule_layer: home.project_id ? 'project' : 'org',
      scope: input.scope ?? 'general',
      category_id: input.category_id ?? null,
      scope_agent_id: input.scope_agent_id ?? null,
      rule_text: input.rule_text,
      kind: input.kind ?? 'soft',
      priority: input.priority ?? 0,
      supersedes_id: null,
      author_kind: author.kind,
      author_agent_id: author.kind === 'agent' ? author.agent_id : null,
      author_email: author.kind === 'human' ? author.email : null,
      source_review_id: source?.review_id ?? null,
    };
    await checkInput(tx, home, rev, author.kind === 'agent' ? author.agent_id : null);
    const status = author.kind === 'agent' ? 'proposed' : (input.status ?? 'active');
    const created = await writeRevision(tx, deps.queue, rev, status);
    if (author.kind === 'human') await audit(tx, home, 'create', null, created, author.email);
    return created;
  });
}

/** Finds the rule and locks its lineage's head, which must be the rule itself. */
async function lockHead(tx: pg.ClientBase, home: RuleHome, id: string): Promise<RuleRow> {
  const rule = await findRule(tx, home.org_id, home.project_id, id);
  if (!rule) throw notFound('rule');
  const head = await lockLineageHead(tx, home.org_id, rule.lineage_id);
  if (!head || head.id !== rule.id) {
    throw new Problem('stale', {
      detail: `${id} is not the newest revision of its lineage; act on ${head?.id}.`,
      errors: [{ field: 'id', code: 'superseded', detail: `The newest revision is ${head?.id}.` }],
    });
  }
  return head;
}

/**
 * An edit: a new revision of the same lineage (rev + 1, supersedes_id set) with the same status,
 * and the prior revision superseded in the same transaction.
 */
export async function reviseRule(deps: Deps, home: RuleHome, id: string, changes: RuleChanges, email: string): Promise<RuleRow> {
  return withTransaction(deps.db, async (tx) => {
    const prior = await lockHead(tx, home, id);
    if (!isLive(prior)) throw illegal('revise', prior.status, []);
    const scope = changes.scope ?? prior.scope;
    const next = await newRevisionOf(tx, deps.queue, home, prior, {
      scope,
      category_id: changes.category_id !== undefined ? changes.category_id : scope === 'category' ? prior.category_id : null,
      scope_agent_id: changes.scope_agent_id !== undefined ? changes.scope_agent_id : prior.scope_agent_id,
      rule_text: changes.rule_text ?? prior.rule_text,
      kind: changes.kind ?? prior.kind,
      priority: changes.priority ?? prior.priority,
      author_kind: 'human',
      author_agent_id: null,
      author_email: email,
    }, prior.status);
    await audit(tx, home, 'revise', prior, next, email);
    return next;
  });
}

type RevisionFields = Pick<RuleRevision, 'scope' | 'category_id' | 'scope_agent_id' | 'rule_text' | 'kind' | 'priority' | 'author_kind' | 'author_agent_id' | 'author_email'>;

/** Appends a revision after `head` and supersedes `head` when it is still live. */
async function newRevisionOf(
  tx: pg.ClientBase,
  queue: Queue,
  home: RuleHome,
  head: RuleRow,
  fields: RevisionFields,
  status: 'proposed' | 'active',
  restores = false,
): Promise<RuleRow> {
  await checkInput(tx, home, fields, null);
  const next = await writeRevision(
    tx,
    queue,
    { ...fields, org_id: home.org_id, project_id: home.project_id, id: newId('rule'), lineage_id: head.lineage_id, rev: head.rev + 1, rule_layer: head.rule_layer, supersedes_id: head.id },
    status,
    { restores, replaces_active: head.status === 'active' },
  );
  if (isLive(head)) {
    const supersede: RuleEvent = { type: 'supersede', by_id: next.id };
    await applyEventIn(tx, queue, ruleKind, { id: head.id, org_id: home.org_id }, supersede);
  }
  return next;
}

/** activate (a human accepts a proposal) or retire (withdraw an active rule, decline a proposal). */
export async function decideRule(deps: Deps, home: RuleHome, id: string, verb: 'activate' | 'retire', email: string): Promise<RuleRow> {
  return withTransaction(deps.db, async (tx) => {
    const before = await lockHead(tx, home, id);
    await applyEventIn(tx, deps.queue, ruleKind, { id, org_id: home.org_id }, { type: verb });
    const after = await reread(tx, home, id);
    await audit(tx, home, verb, before, after, email);
    return after;
  });
}

/**
 * Undoes one audited human change: the version recorded as `before` comes back as a forward
 * restore revision (with its status), or, for a creation, the lineage is retired. The audit row is
 * marked undone; a second undo of it is `409`.
 */
export async function undoRuleChange(deps: Deps, home: RuleHome, udoId: string, email: string): Promise<RuleRow> {
  return withTransaction(deps.db, async (tx) => {
    const row = await lockAudit(tx, home.org_id, home.project_id, udoId);
    if (!row) throw notFound('audit entry');
    if (row.undone_at) {
      throw new Problem('conflict', {
        detail: `${udoId} was already undone.`,
        errors: [{ field: 'udo_id', code: 'already_undone', detail: `Undone at ${row.undone_at.toISOString()}.` }],
      });
    }
    const head = await lockLineageHead(tx, home.org_id, row.lineage_id);
    if (!head) throw notFound('rule');
    let restored: RuleRow;
    if (row.before) {
      const b = row.before as unknown as RuleView;
      const status = b.status === 'active' || b.status === 'proposed' ? b.status : 'active';
      restored = await newRevisionOf(tx, deps.queue, home, head, {
        scope: b.scope,
        category_id: b.category_id,
        scope_agent_id: b.scope_agent_id,
        rule_text: b.rule_text,
        kind: b.kind,
        priority: b.priority,
        author_kind: 'human',
        author_agent_id: null,
        author_email: email,
      }, status, true);
    } else {
      // Nothing came before a creation: undoing it withdraws the rule.
      if (!isLive(head)) throw illegal('undo', head.status, []);
      const retire: RuleEvent = { type: 'retire', undo: true };
      await applyEventIn(tx, deps.queue, ruleKind, { id: head.id, org_id: home.org_id }, retire);
      restored = await reread(tx, home, head.id);
    }
    const undo = await audit(tx, home, 'undo', head, restored, email);
    await markUndone(tx, home.org_id, row.id, undo.id);
    return restored;
  });
}

/**
 * A reviewer's correction turned into a rule: a human proposes, from a review whose draft was
 * edited, a rule (in the review's project, `proposed`, naming the review) that the agent reads
 * once a human activates it. Scope `category` without a `category_id` takes the review's category.
 */
export async function proposeRuleFromReview(
  deps: Deps,
  home: RuleHome,
  reviewId: string,
  input: Omit<RuleInput, 'status'>,
  email: string,
): Promise<RuleRow> {
  const review = await findReview(deps.db, { ...home, agent_id: null, inbox_id: null }, reviewId);
  if (!review) throw notFound('review');
  const edits = (await listFeedback(deps.db, home.org_id, review.id)).filter((f) => f.kind === 'edit');
  if (edits.length === 0) {
    throw new Problem('conflict', {
      detail: `No reviewer has edited the draft of ${review.id}: there is no correction to learn a rule from. Write the rule with POST A/rules instead.`,
      errors: [{ field: 'review_id', code: 'not_edited', detail: review.id }],
    });
  }
  const scope = input.scope ?? 'general';
  const reviewCategory = (review.snapshot as { context?: { category_id?: string | null } }).context?.category_id ?? null;
  const category_id = input.category_id ?? (scope === 'category' ? reviewCategory : null);
  return createRule(deps, home, { ...input, scope, category_id, status: 'proposed' }, { kind: 'human', email }, { review_id: review.id });
}

// ---- The agent's side

/** The project whose rules apply to an agent: its key's project, or for an org-ceiling key the agent's own. */
export async function agentProject(db: Pool, who: { org_id: string; project_id: string | null; agent_id: string }): Promise<string> {
  if (who.project_id) return who.project_id;
  const agent = await findAgentInOrg(db, who.org_id, who.agent_id);
  if (!agent) throw notFound('agent');
  return agent.project_id;
}

export type Ladder = { rules_version: number; data: RuleView[] };

// Ladders recently read, by who reads them, each with the high-water it was read at. The ladder
// is a function of the rules high-water: every change to an active rule, the only rules in a
// ladder, raises it in the same transaction. So a ladder read at the current high-water is still
// the ladder, and a read costs one primary-key lookup instead of the rules and their statuses (at
// 1,000 rules the full read is what kept GET /v1/rules far above its 20 ms p99). Every process
// checks the high-water in the database, so none serves a ladder another one has changed. Bounded:
// a ladder of 1,000 rules is about 400 kB.
const LADDER_CACHE_MAX = 64;
const ladders = new Map<string, Ladder>();

/**
 * The ordered ladder that applies to the agent (hard first; project and per-agent over org; by
 * priority) and the project's rules high-water. Both are read in one snapshot, so the
 * `rules_version` answered is the one the ladder was at.
 */
export async function rulesFor(db: Pool, q: { org_id: string; project_id: string; agent_id: string; category_id: string | null }): Promise<Ladder> {
  const key = [q.org_id, q.project_id, q.agent_id, q.category_id ?? ''].join('\u0000');
  const known = ladders.get(key);
  if (known && known.rules_version === (await highWater(db, q.org_id, q.project_id))) return known;
  const read = await withTransaction(
    db,
    async (tx) => {
      const rules = await ladder(tx, q);
      return { rules_version: await highWater(tx, q.org_id, q.project_id), data: rules.map(ruleView) };
    },
    'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY',
  );
  ladders.delete(key);
  if (ladders.size >= LADDER_CACHE_MAX) ladders.delete(ladders.keys().next().value!);
  ladders.set(key, read);
  return read;
}
