// The support commands: feedback agents file with evidence, and the replies, staff updates and
// deletions that move a support case.
//
// Every write is one transaction: the record, the case's machine snapshot and transition, its
// update row, the status event, the mail job and the idempotency receipt commit together.
import crypto from 'node:crypto';
import os from 'node:os';
import type pg from 'pg';
import { Problem, notFound } from '../../machines/problems.ts';
import { redactEvidence, redactText } from '../../machines/policy/redaction.ts';
import {
  REOPEN_WINDOW_MS,
  replyRefusal,
  supportCaseMachine,
  type SupportCaseSnapshot,
  type SupportCaseStatus,
  type SupportImpact,
} from '../../machines/support-case.ts';
import type { Config } from '../../service/config.ts';
import type { Queue } from '../../service/queue.ts';
import { withTransaction, type Executor, type Pool } from '../../storage/db.ts';
import { newId } from '../../storage/ids.ts';
import { firstActiveInboxAddress } from '../../storage/inboxes.ts';
import { lockMachine } from '../../storage/machines.ts';
import {
  automaticFeedbackAllowed,
  casesOfFeedback,
  findCase,
  findCaseUpdateByClient,
  findFeedbackByClient,
  findResourceInScope,
  insertCase,
  insertCaseUpdate,
  insertOrRepeatFeedback,
  latestCaseUpdate,
  markCaseDeleted,
  setAutomaticFeedback,
  setCaseResolution,
  touchCase,
  type CaseRow,
  type FeedbackRow,
} from '../../storage/support.ts';
import { membershipsOf } from '../../storage/tenancy.ts';
import { MAX_LINKED, caseView, feedbackView, updateView } from '../present/support.ts';
import { applyEventIn, createInstanceIn } from '../run-machine.ts';
import { caseDeleted, caseEvent, supportCaseKind } from './kind.ts';
import { supportProject, writesOthers, type CaseHome, type SupportCaller } from './reach.ts';

type Deps = { db: Pool; queue: Queue; config: Config };

/** What the service observed of the request that filed or answered: the `observed_runtime` fields it knows. */
export type RequestFacts = { request_id: string; transport: string; now: Date };

export const API_BUILD = '0.1.0-pre.6';
/** Longest update body carried in a `reply_context_changed` problem before `truncated`. */
const LATEST_UPDATE_CHARS = 2000;
const INSTANCE_ID = `${os.hostname()}:${process.pid}`;

// ---- Feedback

export type FeedbackInput = {
  client_id: string;
  submission_mode?: 'explicit' | 'automatic';
  category: string;
  user_intent: string;
  expected_behavior?: string;
  observed_behavior: string;
  outcome: 'blocked' | 'completed_with_workaround' | 'observation';
  attempts?: Array<{ operation: string; http_status?: number; error_code?: string; summary?: string }>;
  resource_refs?: Array<{ type: string; id: string }>;
  client_versions?: Record<string, string>;
  /** Open a case even when the outcome is not `blocked`. */
  open_case?: boolean;
};

const IMPACT: Record<FeedbackInput['outcome'], SupportImpact> = { blocked: 'blocked', completed_with_workaround: 'workaround_available', observation: 'unknown' };

/** JSON with object keys sorted at every depth, so the same evidence spelled in another key order matches. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(v);
}

function fingerprintOf(evidence: Record<string, unknown>): string {
  const { client_id: _c, submission_mode: _m, ...rest } = evidence;
  return crypto.createHash('sha256').update(canonical(rest)).digest('hex');
}

/**
 * Files feedback: refused when automatic and the org did not opt in; each resource ref checked
 * inside the key's ceiling (else 404); secrets redacted; the same evidence again raises
 * repeat_count. A `blocked` outcome (or `open_case`) opens a case linked to it.
 */
export async function submitFeedback(
  deps: Deps,
  caller: SupportCaller,
  projectId: string,
  input: FeedbackInput,
  facts: RequestFacts,
  complete?: (tx: pg.ClientBase, status: number, body: unknown) => Promise<void>,
): Promise<{ status: number; body: ReturnType<typeof feedbackView> }> {
  const project_id = await supportProject(deps.db, caller, projectId);
  const mode = input.submission_mode ?? 'explicit';
  if (mode === 'automatic' && !(await automaticFeedbackAllowed(deps.db, caller.org_id))) {
    throw new Problem('forbidden_scope', {
      detail: 'Automatic feedback is off for this organization; a person in the console can turn it on.',
      errors: [{ field: 'submission_mode', code: 'not_opted_in', detail: 'automatic submissions need the organization\'s opt-in' }],
      extra: { reason: 'automatic_feedback_not_enabled', next_action: 'File the feedback with submission_mode explicit, or ask an organization administrator to enable automatic feedback.' },
    });
  }
  const observedMs = facts.now.getTime();
  const diagnostics: Array<{ type: string; id: string; state: string; observed_ms: number; org_id: string }> = [];
  for (const [i, ref] of (input.resource_refs ?? []).entries()) {
    const found = await findResourceInScope(deps.db, { org_id: caller.org_id, project_ids: [project_id], inbox_id: caller.inbox_id }, ref);
    if (!found) {
      throw new Problem('not_found', { detail: `No such ${ref.type} ${ref.id}.`, errors: [{ field: `resource_refs.${i}.id`, code: 'not_found', detail: `no such ${ref.type}` }] });
    }
    diagnostics.push({ type: ref.type, id: ref.id, state: found.state, observed_ms: observedMs, org_id: found.org_id });
  }
  const { open_case, ...fields } = input;
  const { value: evidence, redacted_fields } = redactEvidence({ ...fields, submission_mode: mode } as Record<string, unknown>);
  const observed_runtime = {
    source: 'api',
    package_version: input.client_versions?.sdk ?? input.client_versions?.mcp ?? null,
    profile: null,
    profile_version: null,
    build: API_BUILD,
    transport: facts.transport,
    catalog_digest: null,
    instance_id: INSTANCE_ID,
    request_id: facts.request_id,
    observed_ms: observedMs,
  };
  return withTransaction(deps.db, async (tx) => {
    const fingerprint = fingerprintOf(evidence);
    // A client_id seen before (its replay record expired) is the same request only with the same evidence.
    const earlier = await findFeedbackByClient(tx, { org_id: caller.org_id, project_id, agent_id: caller.agent_id }, input.client_id);
    if (earlier && earlier.fingerprint !== fingerprint) {
      throw new Problem('idempotency_conflict', {
        detail: 'This client_id was used for different evidence; use a new client_id for new feedback.',
        errors: [{ field: 'client_id', code: 'reused' }],
      });
    }
    // The same filing again is a retry, not a repeat: it does not count.
    const { row } = earlier ? { row: earlier } : await insertOrRepeatFeedback(tx, {
      org_id: caller.org_id,
      project_id,
      id: newId('fb'),
      agent_id: caller.agent_id,
      client_id: input.client_id,
      fingerprint,
      evidence,
      redacted_fields,
      diagnostics,
      observed_runtime,
      api_build: API_BUILD,
    });
    let cases = await casesOfFeedback(tx, row.org_id, [row.id], MAX_LINKED);
    if (cases.length === 0 && (input.outcome === 'blocked' || open_case)) {
      await openCase(tx, deps.queue, row, IMPACT[input.outcome], facts.now);
      cases = await casesOfFeedback(tx, row.org_id, [row.id], MAX_LINKED);
    }
    const status = row.repeat_count === 1 ? 201 : 200;
    const body = feedbackView(row, cases);
    if (complete) await complete(tx, status, body);
    return { status, body };
  });
}

async function openCase(tx: pg.ClientBase, queue: Queue, f: FeedbackRow, impact: SupportImpact, now: Date): Promise<void> {
  const contact_email = await firstActiveInboxAddress(tx, { org_id: f.org_id, project_id: f.project_id, agent_id: f.agent_id });
  const id = newId('sc');
  const title = String(f.evidence.user_intent ?? 'Support case').slice(0, 200);
  await insertCase(tx, { org_id: f.org_id, project_id: f.project_id, id, feedback_id: f.id, agent_id: f.agent_id, title, impact, contact_email });
  await createInstanceIn(tx, queue, supportCaseKind, { org_id: f.org_id, project_id: f.project_id, id, agent_id: f.agent_id }, caseEvent({ type: 'open', impact, at_ms: now.getTime() }));
}

// ---- Writing to cases

/** Locks the case's machine row for the rest of the transaction and reads the case under it. */
async function lockCase(tx: pg.ClientBase, at: CaseHome, id: string, visible: (c: CaseRow) => boolean): Promise<CaseRow> {
  const unlocked = await findCase(tx, at, id);
  if (!unlocked || !visible(unlocked)) throw notFound('support case');
  await lockMachine(tx, 'support_case', id);
  const c = (await findCase(tx, at, id))!;
  if (c.deleted_at) throw caseDeleted();
  return c;
}

async function restoreSnapshot(tx: pg.ClientBase, id: string): Promise<SupportCaseSnapshot> {
  const row = await lockMachine(tx, 'support_case', id);
  return supportCaseMachine.resolveState(row!.snapshot as any) as SupportCaseSnapshot;
}

export type ReplyInput = { client_id: string; body: string; sequence?: number };

/**
 * A customer reply with optimistic context: it names the newest `sequence` it answers. None is
 * `reply_context_required`; an older one is `reply_context_changed` with the newer update and the
 * reply's text handed back unsent; the machine refuses a second unanswered reply
 * (`reply_already_pending`) and one to a case resolved longer than the reopen window ago
 * (`reply_workflow_required`). Each refusal carries the case as `current_state`.
 */
export async function customerReply(
  deps: Deps,
  caller: SupportCaller,
  projectId: string,
  id: string,
  input: ReplyInput,
  facts: RequestFacts,
  complete?: (tx: pg.ClientBase, body: unknown) => Promise<void>,
) {
  const project_id = await supportProject(deps.db, caller, projectId);
  const visible = (c: CaseRow) => c.agent_id === caller.agent_id || writesOthers(caller);
  return withTransaction(deps.db, async (tx) => {
    const c = await lockCase(tx, { org_id: caller.org_id, project_id }, id, visible);
    const current_state = caseView(c, deps.config.publicBaseUrl);
    const latest = await latestCaseUpdate(tx, c.org_id, c.id);
    const latestSeq = latest ? Number(latest.sequence) : 0;
    const body = redactText(input.body).text;
    if (input.sequence === undefined) {
      throw new Problem('reply_context_required', {
        detail: `Name the sequence of the newest update you answer (${latestSeq} now).`,
        errors: [{ field: 'sequence', code: 'required', detail: `the newest update is ${latestSeq}` }],
        extra: { current_state, next_action: `Read the case and send the reply again with sequence ${latestSeq}.` },
      });
    }
    if (input.sequence > latestSeq) {
      throw new Problem('bad_request', { detail: `No update ${input.sequence}; the newest is ${latestSeq}.`, errors: [{ field: 'sequence', code: 'invalid', detail: `at most ${latestSeq}` }] });
    }
    if (input.sequence < latestSeq) {
      const text = latest!.body;
      throw new Problem('reply_context_changed', {
        detail: `The case moved on: update ${latestSeq} came after ${input.sequence}. Nothing was sent; your text is in unsent_text.`,
        extra: {
          current_state,
          latest_update: { ...updateView(latest!), body: text.slice(0, LATEST_UPDATE_CHARS) },
          truncated: text.length > LATEST_UPDATE_CHARS,
          unsent_text: body,
          next_action: `Read update ${latestSeq}, rewrite the reply against it and send it with sequence ${latestSeq}.`,
        },
      });
    }
    const atMs = facts.now.getTime();
    const refusal = replyRefusal(await restoreSnapshot(tx, c.id), atMs);
    if (refusal === 'reply_already_pending') {
      throw new Problem('reply_already_pending', {
        detail: 'Your previous reply has not been answered yet; wait for staff before replying again.',
        extra: { current_state, unsent_text: body, next_action: 'Wait for the next staff update (get_support_case), then reply to it.' },
      });
    }
    if (refusal === 'reply_workflow_required') {
      throw new Problem('reply_workflow_required', {
        detail: `The case was resolved more than ${REOPEN_WINDOW_MS / 86_400_000} days ago and no longer reopens on a reply.`,
        extra: { current_state, unsent_text: body, next_action: 'File new feedback (report_problem) that refers to this case.' },
      });
    }
    const update = await insertCaseUpdate(tx, {
      org_id: c.org_id,
      case_id: c.id,
      id: newId('scu'),
      kind: 'reply',
      actor_kind: 'customer',
      actor: caller.agent_id,
      body,
      client_id: input.client_id,
      observed_runtime: { source: 'api', transport: facts.transport, request_id: facts.request_id, observed_ms: atMs },
    });
    await applyEventIn(tx, deps.queue, supportCaseKind, { id: c.id, org_id: c.org_id }, caseEvent({ type: 'customer_reply', at_ms: atMs }));
    if (c.status === 'resolved') await setCaseResolution(tx, c.org_id, c.id, { resolved: false, kind: null, summary: null });
    else await touchCase(tx, c.org_id, c.id);
    const after = (await findCase(tx, { org_id: c.org_id }, c.id))!;
    const result = { case: caseView(after, deps.config.publicBaseUrl), update: updateView(update) };
    if (complete) await complete(tx, result);
    return result;
  });
}

export type StaffUpdateInput = {
  client_id: string;
  body: string;
  status?: SupportCaseStatus;
  resolution_kind?: string;
  resolution_summary?: string;
  /** The case version the update was written against; a moved case is 409 with `current_state`. */
  version?: number;
};

export async function staffUpdate(deps: Deps, email: string, id: string, input: StaffUpdateInput, now: Date, complete?: (tx: pg.ClientBase, body: unknown) => Promise<void>) {
  return withTransaction(deps.db, async (tx) => {
    const c = await lockCase(tx, null, id, () => true);
    // The same client_id again is a retry: it gets the update it made, and nothing moves twice.
    const earlier = await findCaseUpdateByClient(tx, c.org_id, c.id, input.client_id);
    if (earlier) return { case: caseView(c, deps.config.publicBaseUrl), update: updateView(earlier) };
    if (input.version !== undefined && input.version !== c.version) {
      throw new Problem('conflict', {
        detail: `The case is at version ${c.version}, not ${input.version}; read it again.`,
        errors: [{ field: 'version', code: 'stale', detail: `current version ${c.version}` }],
        extra: { current_state: caseView(c, deps.config.publicBaseUrl) },
      });
    }
    const update = await insertCaseUpdate(tx, {
      org_id: c.org_id,
      case_id: c.id,
      id: newId('scu'),
      kind: input.status && input.status !== c.status ? 'status_change' : 'note',
      actor_kind: 'staff',
      actor: email,
      body: input.body,
      client_id: input.client_id,
      observed_runtime: null,
    });
    await applyEventIn(tx, deps.queue, supportCaseKind, { id: c.id, org_id: c.org_id }, caseEvent({ type: 'staff_update', status: input.status, at_ms: now.getTime() }));
    if (input.status === 'resolved') {
      await setCaseResolution(tx, c.org_id, c.id, { resolved: true, kind: input.resolution_kind ?? 'fixed', summary: input.resolution_summary ?? input.body });
    } else if (input.status) {
      await setCaseResolution(tx, c.org_id, c.id, { resolved: false, kind: null, summary: null });
    } else await touchCase(tx, c.org_id, c.id);
    const after = (await findCase(tx, null, c.id))!;
    const result = { case: caseView(after, deps.config.publicBaseUrl), update: updateView(update) };
    if (complete) await complete(tx, result);
    return result;
  });
}

/** An organization administrator: an owner or admin membership of the whole org, not one project. */
async function isOrgAdmin(db: Executor, email: string, orgId: string): Promise<boolean> {
  return (await membershipsOf(db, email, orgId)).some((m) => m.project_id === null && (m.role === 'owner' || m.role === 'admin'));
}

/** Deletes a resolved case (its text erased, a tombstone kept): a human organization administrator only. */
export async function deleteCase(deps: Deps, at: { org_id: string; project_id: string }, id: string, email: string, clientId: string, complete?: (tx: pg.ClientBase, body: unknown) => Promise<void>) {
  if (!(await isOrgAdmin(deps.db, email, at.org_id))) {
    throw new Problem('forbidden_scope', { detail: 'Only an administrator of the whole organization may delete a support case.' });
  }
  return withTransaction(deps.db, async (tx) => {
    const c = await lockCase(tx, at, id, () => true);
    if (c.status !== 'resolved') {
      throw new Problem('conflict', {
        detail: `Only a resolved case may be deleted; this one is ${c.status}.`,
        errors: [{ field: 'status', code: c.status }],
        extra: { current_state: caseView(c, deps.config.publicBaseUrl) },
      });
    }
    await applyEventIn(tx, deps.queue, supportCaseKind, { id: c.id, org_id: c.org_id }, { type: 'delete' });
    await markCaseDeleted(tx, c.org_id, c.id, email, clientId);
    const result = { id: c.id, deleted: true };
    if (complete) await complete(tx, result);
    return result;
  });
}

/** Turns automatic feedback on or off for the org: a console member's setting. */
export async function updateSupportSettings(db: Pool, orgId: string, input: { automatic_feedback: boolean }, email: string) {
  await setAutomaticFeedback(db, orgId, input.automatic_feedback, email);
  return { automatic_feedback: input.automatic_feedback };
}
