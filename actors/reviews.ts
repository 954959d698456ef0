// The review actor: the review request machine as a persisted MachineKind (its effects and its
// 409 taxonomy), and the commands of composers and human reviewers. Every change of a review goes
// through the one runner (run-machine.ts); nothing here writes machine state itself.
import type pg from 'pg';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { Problem, badRequest, notFound, type FieldError } from '../machines/problems.ts';
import { checkRecipients } from '../machines/policy/contacts.ts';
import { intentErrors } from '../machines/policy/intent-gate.ts';
import { MAX_RECIPIENTS, parseRecipients, resolveTextAlias, type Recipient } from '../machines/policy/send-body.ts';
import { checkRecipientLimit } from '../machines/policy/recipient-limit.ts';
import { editDiff } from '../machines/policy/text-diff.ts';
import {
  REVIEW_MACHINE_VERSION,
  reviewRequestMachine,
  type ReviewActionParams,
  type ReviewContext,
  type ReviewEvent,
  type ReviewSnapshot,
} from '../machines/review-request.ts';
import { allowedActions, classifyRejection, type ReviewActor } from '../machines/review-verbs.ts';
import type { Queue } from '../service/queue.ts';
import { lockStatement, withTransaction, type Executor, type Pool } from '../storage/db.ts';
import { lockMachine, type MachineRow } from '../storage/machines.ts';
import { appendReviewEvent, type ReviewEventRow } from '../storage/review-events.ts';
import { claimBornStale, highWater } from '../storage/rules.ts';
import { sendAllowances, settleReservation } from '../storage/usage.ts';
import { domainNotAllowed, firstDisallowed } from '../machines/policy/allowed-domains.ts';
import { recipientLimitError, reserveWithinCaps } from './send-caps.ts';
import { countRevisionRecipients, findReview, inboxSendLock, insertFeedback, type FeedbackRow, releaseRecipientUsage, sendCheckData, type ReviewRow, type ReviewScope } from '../storage/reviews.ts';
import { newId } from '../storage/ids.ts';
import { insertDecisionChannel, type DecisionVia } from '../storage/notifications.ts';
import { assignReview, findLinkById, insertLinkDelivery, resetReviewerFailures, unassignReview } from '../storage/review-links.ts';
import { appendReviewerWork } from '../storage/reviewer-work.ts';
import type { Config } from '../service/config.ts';
import { BACKLOG_STALENESS_TOLERANCE, recordOutcome } from './categories.ts';
import { deliverToWebhooks } from './events.ts';
import { chooseRoute } from './review-links.ts';
import { applyEventIn, type Applied, type EffectContext, type MachineAction, type MachineKind } from './run-machine.ts';
import type { SendBody } from './send.ts';

export const DELIVERY_QUEUE = 'review-delivery';
export const ESCALATION_QUEUE = 'review-escalation';
export const DEADLINE_QUEUE = 'review-deadline';
export const RECONCILE_QUEUE = 'review-reconcile';
/** Pushes a work item to a reviewer agent's webhook link. */
export const REVIEWER_PUSH_QUEUE = 'reviewer-push';
/** Tells the project's deciders (mail, digest) that a review waits for a human, nears its deadline, or was auto-sent. */
export const NOTIFY_QUEUE = 'review-notify';
/** Posts the same notice to the project's chat-ops webhook. */
export const CHATOPS_QUEUE = 'review-chatops';

/** How long before its deadline a waiting review is announced again: a tenth of the wait, at most an hour. */
export const deadlineWarning = (afterS: number): number => Math.min(3600, Math.floor(afterS / 10));

/** The rules high-water of a project: 0 while it has no writing rules, so every draft is current. */
/** The rules high-water a draft of this project is composed under now (0 before any rule). */
export const currentRulesVersion = (db: Executor, r: { org_id: string; project_id: string }): Promise<number> => highWater(db, r.org_id, r.project_id);

/**
 * Where a draft stands against the project's rules now: composed under rules older than the
 * high-water by more than the backlog's tolerance is stale, as the backlog counts it (needs_redraft).
 */
export async function rulesStanding(db: Executor, r: { org_id: string; project_id: string }, rulesVersion: number) {
  const current = await currentRulesVersion(db, r);
  return { current_rules_version: current, rules_stale: rulesVersion < current - BACKLOG_STALENESS_TOLERANCE };
}

const TERMINAL_OUTCOME: Record<string, 'sent' | 'cancelled'> = { sent: 'sent', auto_sent: 'sent', cancelled: 'cancelled' };

// ---- The persisted machine

const asReview = (s: AnyMachineSnapshot) => s as unknown as ReviewSnapshot;

/** Who says an event, read off the event itself: the allowed_action hints are that actor's verbs. */
export function actorOf(event: EventObject): ReviewActor {
  const e = event as ReviewEvent;
  switch (e.type) {
    case 'revise':
    case 'restamp':
      return 'composer';
    case 'hand_back':
      return 'reviewer_agent';
    case 'chat':
      return e.from === 'composer' ? 'composer' : e.by;
    case 'cancel':
      return e.by === 'human' ? 'human' : 'composer';
    default:
      return 'by' in e && (e.by === 'human' || e.by === 'reviewer_agent') ? e.by : 'human';
  }
}

const WORKER_EVENTS = new Set(['delivered', 'delivery_failed', 'delivery_unknown', 'escalate', 'deadline', 'submit']);

/** The recovery facts a review 409 carries: state, revision, version and each verb legal now. */
export function recoveryFacts(snapshot: ReviewSnapshot, version: number, actor: ReviewActor): Array<FieldError & { value: string | number }> {
  const state = String(snapshot.value);
  const revision = snapshot.context.revision;
  // The value is in `code` and `detail` alike (clients read either) and typed in `value`.
  const fact = (field: string, value: string | number) => ({ field, code: String(value), detail: String(value), value });
  return [
    fact('state', state),
    fact('revision', revision),
    fact('version', version),
    ...allowedActions(snapshot, actor).map((verb) => fact('allowed_action', verb)),
  ];
}

export function rejectReviewEvent(s: AnyMachineSnapshot, event: EventObject, row: MachineRow): Error | null {
  const snapshot = asReview(s);
  const why = classifyRejection(snapshot, event as ReviewEvent);
  if (!why) return null;
  const state = String(snapshot.value);
  if (WORKER_EVENTS.has(event.type)) return new Problem('conflict', { detail: `${event.type} does not apply to a review in ${state}.` });
  if (why === 'terminal') {
    return new Problem('terminal', {
      detail: `The review is already ${state}; nothing was changed. A review.front_run_next event carries the outcome.`,
      extra: { sent_message_id: snapshot.context.sent_message_id },
    });
  }
  const errors = recoveryFacts(snapshot, row.version, actorOf(event));
  if (snapshot.context.reconciliation_needed) {
    return new Problem('send_needs_reconciliation', {
      detail: 'A send of this review is unconfirmed and parked for reconciliation by its Message-ID; it is never sent again. Poll the review.',
      errors,
    });
  }
  if (why === 'stale') {
    return new Problem('stale', {
      detail: `parent_revision is not the current revision ${snapshot.context.revision}; nothing was changed. Re-read the review and its feedback and resubmit on top of it.`,
      errors,
    });
  }
  return new Problem('wrong_state', { detail: `${event.type} is not legal while the review is ${state}.`, errors });
}

// Delivery consumes a send's reservation into the month's and day's counters, in the delivery's
// transaction; a cancel, reject or failure releases it. A revision reserves its recipients again
// before it is applied (see composer.revise), under the caps like a new send.
async function settleUsage(ctx: EffectContext, type: string, context: ReviewContext): Promise<void> {
  const row = ctx.row;
  const draft = context.draft ?? {};
  const recipients = ((draft.to as unknown[] | undefined)?.length ?? 0) + ((draft.cc as unknown[] | undefined)?.length ?? 0);
  const at = { org_id: row.org_id, review_id: row.id };
  if (type === 'review.sent' || type === 'review.auto_sent') {
    await settleReservation(ctx.tx, { ...at, outcome: 'consume', sent_recipients: recipients });
  } else if (type === 'review.cancelled' || type === 'review.rejected' || type === 'review.failed') {
    await settleReservation(ctx.tx, { ...at, outcome: 'release', sent_recipients: 0 });
  }
}

type ReviewEventExtra = { by_email?: string | null };

async function performReviewAction(action: MachineAction, ctx: EffectContext): Promise<void> {
  const row = ctx.row;
  const context = (ctx.snapshot.context ?? {}) as ReviewContext;
  const ref = { org_id: row.org_id, review_id: row.id };
  // A reviewer decision or a chat line, kept with who said it.
  const record = (f: Pick<FeedbackRow, 'kind' | 'author' | 'revision' | 'feedback' | 'message' | 'diff'>) =>
    insertFeedback(ctx.tx, {
      ...f,
      org_id: row.org_id,
      project_id: row.project_id,
      review_id: row.id,
      author_email: (ctx.event as ReviewEventExtra).by_email ?? null,
    });
  switch (action.type) {
    case 'emitReviewEvent': {
      const { type } = action.params as ReviewActionParams['emitReviewEvent'];
      // A withdrawn draft was never sent: its recipients no longer count toward the 24-hour limit.
      if (type === 'review.cancelled') await releaseRecipientUsage(ctx.tx, row.org_id, row.id);
      await settleUsage(ctx, type, context);
      // A cancellation says why (`inbox_deleted`, `deadline_exceeded`, the composer's reason).
      const extra = type === 'review.cancelled' ? { reason: context.cancel_reason } : autoSentNotice(type, context);
      await emitReviewEvent(ctx.tx, ctx.queue, row, context, { type, from_state: ctx.previousState, extra });
      if (extra?.notify_human) await ctx.enqueue(NOTIFY_QUEUE, { ...ref, revision: context.revision, reason: 'auto_sent', key: `auto_sent:${row.version}` });
      return;
    }
    case 'deliver':
      await ctx.enqueue(DELIVERY_QUEUE, ref);
      return;
    case 'scheduleEscalation': {
      const p = action.params as ReviewActionParams['scheduleEscalation'];
      await ctx.enqueue(ESCALATION_QUEUE, { ...ref, epoch: p.epoch }, { startAfter: p.after_s });
      return;
    }
    case 'scheduleDeadline': {
      const p = action.params as ReviewActionParams['scheduleDeadline'];
      await ctx.enqueue(DEADLINE_QUEUE, ref, { startAfter: p.after_s });
      const warnAt = p.after_s - deadlineWarning(p.after_s);
      if (warnAt > 0 && warnAt < p.after_s) {
        await ctx.enqueue(NOTIFY_QUEUE, { ...ref, revision: context.revision, reason: 'deadline_near', key: `deadline_near:${row.version}` }, { startAfter: warnAt });
      }
      return;
    }
    case 'notifyReviewer': {
      // Human-routed work is read from the console queue (GET A/reviews). Reviewer-routed work is
      // assigned to its reviewer agent (its queue) and, for a webhook link, pushed by a job; for a
      // live link (sse, websocket), logged for the reviewer's open stream or socket.
      const p = action.params as ReviewActionParams['notifyReviewer'];
      const reviewer = context.reviewer;
      if (p.route !== 'reviewer_agent' || !reviewer) {
        // A review just created has never been assigned: nothing to take back.
        if (p.reason !== 'created') await unassignReview(ctx.tx, row.org_id, row.id);
        // The human is told it waits (a composer's chat line is not a new wait).
        if (p.reason !== 'chat') await ctx.enqueue(NOTIFY_QUEUE, { ...ref, revision: p.revision, reason: p.reason, key: `${p.reason}:${row.version}` });
        return;
      }
      await assignReview(
        ctx.tx,
        { org_id: row.org_id, project_id: row.project_id, review_id: row.id, link_id: reviewer.link_id, reviewer_agent_id: reviewer.agent_id },
        p.reason !== 'chat',
      );
      const link = await findLinkById(ctx.tx, row.org_id, reviewer.link_id);
      if (!link) return;
      if (link.transport !== 'webhook') {
        // Live links: the reviewer's stream or WebSocket follows this log (and replays it on reconnect).
        await appendReviewerWork(ctx.tx, {
          org_id: row.org_id,
          project_id: row.project_id,
          reviewer_agent_id: reviewer.agent_id,
          link_id: link.id,
          transport: link.transport,
          review_id: row.id,
          revision: p.revision,
          reason: p.reason,
        });
        return;
      }
      const delivery_id = newId('rld');
      await insertLinkDelivery(ctx.tx, { org_id: row.org_id, project_id: row.project_id, id: delivery_id, link_id: link.id, review_id: row.id, revision: p.revision, reason: p.reason });
      await ctx.enqueue(REVIEWER_PUSH_QUEUE, { org_id: row.org_id, delivery_id, attempt: 1 });
      return;
    }
    case 'recordFeedback': {
      const p = action.params as ReviewActionParams['recordFeedback'];
      await record({ kind: p.kind, author: p.by, revision: p.revision, feedback: p.feedback, message: null, diff: p.diff ?? null });
      return;
    }
    case 'recordChat': {
      const p = action.params as ReviewActionParams['recordChat'];
      const author = p.from === 'composer' ? 'composer' : (p.by ?? 'human');
      await record({ kind: 'chat', author, revision: p.revision, feedback: null, message: p.message, diff: null });
      return;
    }
    case 'countCategoryOutcome': {
      // In the decision's transaction: the category's runs move with the decision or not at all.
      const p = action.params as ReviewActionParams['countCategoryOutcome'];
      await recordOutcome(ctx.tx, ctx.queue, { org_id: row.org_id, project_id: row.project_id, category_id: p.category_id }, p.outcome);
      return;
    }
    case 'reconcileDelivery':
      await ctx.enqueue(RECONCILE_QUEUE, { ...ref, revision: (action.params as ReviewActionParams['reconcileDelivery']).revision });
      return;
    default:
      // assign and other built-in actions carry no effect.
      return;
  }
}

/**
 * An auto-send from a graduated category says so on its `review.auto_sent`: the rung and why it
 * went out, and on `auto_notify` that the human is to be told (`notify_human`), which the console
 * and event-stream readers act on.
 */
function autoSentNotice(type: string, c: ReviewContext): Record<string, unknown> | undefined {
  if (type !== 'review.auto_sent' || !c.category_rung) return undefined;
  return { rung: c.category_rung, mode_reason: c.mode_reason, notify_human: c.category_rung === 'auto_notify' };
}

/**
 * Appends a review event to the durable queue and to the event log (webhooks, SSE), in the
 * caller's transaction, which holds the review's row lock.
 */
async function emitReviewEvent(
  tx: pg.ClientBase,
  queue: Queue,
  row: Pick<MachineRow, 'org_id' | 'project_id' | 'id' | 'inbox_id' | 'agent_id' | 'state'>,
  context: ReviewContext,
  e: { type: string; from_state: string | null; extra?: Record<string, unknown> },
): Promise<void> {
  const item = {
    org_id: row.org_id,
    project_id: row.project_id,
    review_id: row.id,
    agent_id: row.agent_id!,
    inbox_id: row.inbox_id!,
    type: e.type,
    state: row.state,
    from_state: e.from_state,
    category_id: context.category_id ?? null,
    revision: context.revision,
    effective_mode: context.effective_mode,
    extra: e.extra ?? {},
  };
  // The payload's seq is the item's, drawn by the statement that appends both.
  const { logged } = await appendReviewEvent(tx, item, reviewEventPayload({ ...item, seq: 0 }));
  await deliverToWebhooks(tx, queue, logged);
}

/** The review lifecycle payload (contract, event types), as the event log and the queue carry it. */
export function reviewEventPayload(
  item: Pick<ReviewEventRow, 'seq' | 'review_id' | 'type' | 'state' | 'from_state' | 'category_id' | 'revision' | 'effective_mode' | 'extra'>,
): Record<string, unknown> {
  return {
    review_id: item.review_id,
    seq: item.seq,
    type: item.type,
    state: item.state,
    from_state: item.from_state,
    ...(item.category_id ? { category_id: item.category_id } : {}),
    revision: item.revision,
    effective_mode: item.effective_mode,
    ...item.extra,
  };
}

export const reviewKind: MachineKind = {
  kind: 'review',
  machine: reviewRequestMachine,
  version: REVIEW_MACHINE_VERSION,
  perform: performReviewAction,
  reject: rejectReviewEvent,
  allowed: (snapshot) => allowedActions(asReview(snapshot)),
};

// ---- Reading a review

export function restoreReview(row: Pick<ReviewRow, 'snapshot'>): ReviewSnapshot {
  return reviewRequestMachine.resolveState(row.snapshot as never) as ReviewSnapshot;
}

export type ReviewView = ReturnType<typeof reviewView>;

/** The review record (decisions.md, Records), with the verbs `actor` may use now. */
export function reviewView(row: ReviewRow, actor: ReviewActor) {
  const snapshot = restoreReview(row);
  const c = snapshot.context;
  const d = c.draft ?? {};
  return {
    id: row.id,
    state: row.state,
    revision: c.revision,
    version: row.version,
    inbox_id: row.inbox_id,
    agent_id: row.agent_id,
    kind: row.kind,
    category_id: c.category_id,
    effective_mode: c.effective_mode,
    mode_reason: c.mode_reason ?? null,
    route: c.route,
    reviewer_agent_id: c.route === 'reviewer_agent' ? (c.reviewer?.agent_id ?? null) : null,
    hops: c.hops,
    max_hops: c.max_hops,
    draft: {
      to: (d.to as Recipient[] | undefined) ?? [],
      cc: (d.cc as Recipient[] | undefined) ?? [],
      subject: d.subject ?? null,
      text: d.text ?? null,
      thread_id: d.thread_id ?? null,
      in_reply_to: d.in_reply_to ?? null,
      attachments: (d.attachments as unknown[] | undefined) ?? [],
    },
    parent_message_id: row.parent_message_id,
    /** Set when the send answers or forwards a message screening flagged: why a human must decide. */
    screening: (d.screening as { message_id: string; risk: string; reasons: string[] } | undefined) ?? null,
    intent: c.intent,
    rules_version: c.rules_version,
    feedback: c.feedback,
    sent_message_id: c.sent_message_id,
    send_needs_reconciliation: c.reconciliation_needed,
    last_error: c.last_error,
    cancel_reason: c.cancel_reason,
    cancelled_by: c.cancelled_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
    deadline_at: row.deadline_at,
    allowed_actions: allowedActions(snapshot, actor),
  };
}

// ---- Commands

export type ReviewServices = { db: Pool; queue: Queue; config: Config };

/** The composer's reach: its own agent's reviews, and one inbox for an inbox key. */
export type ComposerScope = { org_id: string; project_id: string | null; agent_id: string; inbox_id: string | null };

const composerScope = (c: ComposerScope): ReviewScope => ({ org_id: c.org_id, project_id: c.project_id, agent_id: c.agent_id, inbox_id: c.inbox_id });

/**
 * Locks the review, builds the event from its current content, and applies it. A verb against a
 * finished review also leaves a `review.front_run_next` event with the outcome.
 */
async function applyVerb(
  s: ReviewServices,
  scope: ReviewScope,
  id: string,
  verb: string,
  build: (row: ReviewRow, snapshot: ReviewSnapshot, tx: pg.PoolClient) => Promise<ReviewEvent & ReviewEventExtra> | (ReviewEvent & ReviewEventExtra),
  locks: bigint[] = [],
): Promise<ReviewRow> {
  try {
    return await withTransaction(s.db, async (tx) => {
      await lockMachine(tx, 'review', id);
      const row = await findReview(tx, scope, id);
      if (!row) throw notFound('review');
      const event = await build(row, restoreReview(row), tx);
      const applied = await applyEventIn(tx, s.queue, reviewKind, { id, org_id: row.org_id }, event);
      return withApplied(row, applied);
    }, lockStatement(locks));
  } catch (err) {
    if (err instanceof Problem && err.code === 'terminal') await recordFrontRun(s, scope, id, verb);
    throw err;
  }
}

const withApplied = (row: ReviewRow, applied: Applied): ReviewRow => ({
  ...row,
  state: applied.row.state,
  version: applied.row.version,
  snapshot: applied.row.snapshot as ReviewRow['snapshot'],
  updated_at: applied.row.updated_at,
});

/** A late verb on a finished review becomes a front-run signal carrying the outcome. */
async function recordFrontRun(s: ReviewServices, scope: ReviewScope, id: string, verb: string): Promise<void> {
  await withTransaction(s.db, async (tx) => {
    await lockMachine(tx, 'review', id);
    const row = await findReview(tx, scope, id);
    if (!row) return;
    const context = restoreReview(row).context;
    await emitReviewEvent(tx, s.queue, row, context, {
      type: 'review.front_run_next',
      from_state: row.state,
      extra: { outcome: TERMINAL_OUTCOME[row.state] ?? row.state, attempted_action: verb, sent_message_id: context.sent_message_id },
    });
  });
}

export type RecipientLists = { to?: unknown; cc?: unknown };

/**
 * Recipients of a revision, refused in the send path's order (the enrollment key's domains,
 * block, allowlist, suppression).
 */
async function checkedRecipients(
  db: Executor,
  row: ReviewRow,
  lists: RecipientLists,
  current: { to: Recipient[]; cc: Recipient[] },
  allowedDomains: string[] | null,
) {
  const to = lists.to === undefined ? current.to : parseList('to', lists.to);
  const cc = lists.cc === undefined ? current.cc : parseList('cc', lists.cc);
  if (to.length === 0) throw badRequest('to', 'A draft needs at least one recipient in to.', 'required');
  if (to.length + cc.length > MAX_RECIPIENTS) throw badRequest('to', `At most ${MAX_RECIPIENTS} recipients (to plus cc).`, 'too_many');
  const addresses = [...to, ...cc].map((r) => r.email);
  const outside = firstDisallowed(addresses, allowedDomains);
  if (outside) throw domainNotAllowed('to', outside.slice(outside.lastIndexOf('@') + 1), allowedDomains!);
  const data = await sendCheckData(db, { org_id: row.org_id, project_id: row.project_id, inbox_id: row.inbox_id }, addresses);
  throwRecipientRejection(checkRecipients({ recipients: addresses, contacts: data.contacts, suppressed: data.suppressed }));
  return { to, cc };
}

export function parseList(field: string, value: unknown): Recipient[] {
  const parsed = parseRecipients(value);
  if (parsed.invalid.length > 0) {
    throw new Problem('bad_request', {
      detail: `${field} holds addresses that are not valid: ${parsed.invalid.join(', ')}.`,
      errors: parsed.invalid.map((v) => ({ field, code: 'invalid_address', detail: v })),
    });
  }
  return parsed.recipients;
}

export function throwRecipientRejection(r: ReturnType<typeof checkRecipients>): void {
  if (!r) return;
  if (r.code === 'recipient_blocked') {
    throw new Problem('recipient_blocked', {
      detail: `The inbox's contact list does not allow sending to ${r.addresses.join(', ')}; nothing was sent or queued.`,
      errors: r.addresses.map((a) => ({ field: 'to', code: 'recipient_blocked', detail: a })),
    });
  }
  throw new Problem('recipient_suppressed', {
    detail: `These recipients opted out: ${r.addresses.join(', ')}. Nothing was sent or queued; retry without them.`,
    errors: r.addresses.map((a) => ({ field: 'to', code: 'recipient_suppressed', detail: a })),
  });
}

/** A revision's body: the draft fields of a send, on top of the revision it revises. */
export type ReviseInput = { parent_revision: number; rules_version?: number } & Pick<SendBody, 'to' | 'cc' | 'subject' | 'text' | 'body' | 'intent'>;

export const composer = {
  cancel(s: ReviewServices, c: ComposerScope, id: string, reason: string | null) {
    return applyVerb(s, composerScope(c), id, 'cancel', () => ({ type: 'cancel', by: 'composer', reason }));
  },

  restamp(s: ReviewServices, c: ComposerScope, id: string, parent_revision: number) {
    return applyVerb(s, composerScope(c), id, 'restamp', async (row, _snapshot, tx) => ({
      type: 'restamp',
      parent_revision,
      rules_version: await currentRulesVersion(tx, row),
    }));
  },

  chat(s: ReviewServices, c: ComposerScope, id: string, message: string, parent_revision?: number) {
    return applyVerb(s, composerScope(c), id, 'chat', () => ({ type: 'chat', from: 'composer', message, parent_revision }));
  },

  async revise(s: ReviewServices, c: ComposerScope, id: string, input: ReviseInput) {
    const alias = resolveTextAlias(input);
    if (!alias.ok) throw new Problem('bad_request', { detail: alias.detail, errors: [{ field: 'body', code: 'conflicting_alias', detail: alias.detail }] });
    if (input.intent !== undefined) {
      const defects = intentErrors(input.intent);
      if (defects.length) {
        throw new Problem('bad_request', { detail: defects.map((e) => e.detail).join('; '), errors: defects.map(({ field, code, detail }) => ({ field, code, detail })) });
      }
    }
    // A revision counts recipients under its inbox's send lock, taken first as a send takes it.
    const target = await findReview(s.db, composerScope(c), id);
    return applyVerb(s, composerScope(c), id, 'revise', async (row, snapshot, tx) => {
      const draft: Record<string, unknown> = {};
      // Only a revision the machine would accept is worth checking recipients for: a refused one
      // must answer with its 409 whatever its recipients.
      const probe: ReviewEvent = { type: 'revise', parent_revision: input.parent_revision };
      // A redraft names the rules it was built against (by default, those of the draft it revises).
      const rulesVersion = await currentRulesVersion(tx, row);
      const builtAgainst = input.rules_version ?? snapshot.context.rules_version;
      // At most once per high-water (the 409 taxonomy): a redraft resubmitted after a born_stale
      // at the same high-water is taken, stamped with it; only a newer high-water refuses again.
      if (snapshot.can(probe) && builtAgainst < rulesVersion && (await claimBornStale(s.db, row.org_id, row.id, rulesVersion))) {
        throw bornStale(builtAgainst, rulesVersion);
      }
      if (snapshot.can(probe)) {
        const current = { to: (snapshot.context.draft.to as Recipient[]) ?? [], cc: (snapshot.context.draft.cc as Recipient[]) ?? [] };
        const allowances = await sendAllowances(tx, row.org_id, row.agent_id);
        const lists = input.to !== undefined || input.cc !== undefined ? await checkedRecipients(tx, row, input, current, allowances.allowed_domains) : current;
        if (lists !== current) Object.assign(draft, lists);
        const recipients = lists.to.length + lists.cc.length;
        // Recipients beyond those the review has had counted count in the inbox's 24-hour limit.
        const counted = await countRevisionRecipients(tx, { org_id: row.org_id, review_id: row.id, inbox_id: row.inbox_id, recipients });
        if (!counted.fits) {
          const limit = checkRecipientLimit({ used: counted.used_24h, delta: counted.added, limit: counted.limit });
          throw await recipientLimitError(tx, { org_id: row.org_id, inbox_id: row.inbox_id }, limit, 'revision');
        }
        // The revision's recipients take the place of what the review held (nothing after a
        // reject), under the caps like a new send: more than it held is refused past a cap.
        const held = await settleReservation(tx, { org_id: row.org_id, review_id: row.id, outcome: 'release', sent_recipients: 0 });
        await reserveWithinCaps(tx, s.config.plans, allowances, { org_id: row.org_id, review_id: row.id, recipients }, new Date(), held);
      }
      if (input.subject !== undefined) draft.subject = input.subject;
      if (alias.text !== undefined) draft.text = alias.text;
      // Every return to needs_review is routed anew: the links may have changed since the last one.
      const routing = await chooseRoute(tx, s.config, { org_id: row.org_id, project_id: row.project_id, inbox_id: row.inbox_id, composer_agent_id: row.agent_id });
      return {
        type: 'revise',
        reroute: routing.choice,
        parent_revision: input.parent_revision,
        rules_version: rulesVersion,
        draft,
        ...(input.intent !== undefined ? { intent: input.intent as ReviewContext['intent'] & object } : {}),
      };
    }, target ? [inboxSendLock(target.inbox_id)] : []);
  },
};

/**
 * A redraft built against rules older than the project's high-water: nothing changes, and the
 * current high-water is in `errors[]` (re-read the rules and resubmit, or restamp).
 */
function bornStale(builtAgainst: number, current: number): Problem {
  return new Problem('born_stale', {
    detail: `This redraft was built against rules version ${builtAgainst}; the rules are at version ${current}. Re-read them (get_rules) and resubmit with rules_version ${current}, or restamp the review if nothing needs to change.`,
    errors: [{ field: 'rules_version', code: String(current), detail: String(current), value: current } as FieldError],
  });
}

export type DecisionInput = {
  action: 'open' | 'approve' | 'reject' | 'edit' | 'chat' | 'cancel';
  parent_revision?: number;
  feedback?: string | null;
  text?: string;
  subject?: string;
  message?: string;
};

/**
 * How a human decision arrived: the console (the default), a mail's one-time link or a reply.
 * `claim` runs in the decision's transaction first (a link is spent only with its decision).
 */
export type DecisionChannel = { via?: DecisionVia; claim?: (tx: pg.PoolClient) => Promise<void> };

const DECIDING = new Set(['approve', 'reject', 'edit', 'cancel']);

/** A human reviewer's decision, recorded with the member's email and the channel it came through. */
export function humanDecision(s: ReviewServices, at: { org_id: string; project_id: string; email: string }, id: string, d: DecisionInput, channel: DecisionChannel = {}) {
  const scope: ReviewScope = { org_id: at.org_id, project_id: at.project_id, agent_id: null, inbox_id: null };
  const common = { parent_revision: d.parent_revision, by_email: at.email };
  checkDecisionBody(d);
  return applyVerb(s, scope, id, d.action, async (row, snapshot, tx) => {
    await channel.claim?.(tx);
    if (DECIDING.has(d.action)) {
      const revision = snapshot.context.revision;
      await insertDecisionChannel(tx, { org_id: row.org_id, project_id: row.project_id, review_id: row.id, revision, action: d.action, email: at.email, via: channel.via ?? 'console' });
    }
    if (d.action === 'cancel') return { type: 'cancel', by: 'human', reason: d.feedback ?? null, by_email: at.email, parent_revision: d.parent_revision };
    return decisionEvent({ ...d, action: d.action }, snapshot, 'human', common);
  });
}

export type ReviewerDecisionInput = Omit<DecisionInput, 'action'> & { action: 'open' | 'approve' | 'reject' | 'edit' | 'chat' | 'hand_back' };

/** A reviewer agent, as its key names it. */
export type ReviewerScope = { org_id: string; project_id: string | null; agent_id: string };

/** Whether the review is routed to this reviewer agent now. */
export const routedTo = (snapshot: ReviewSnapshot, agentId: string): boolean =>
  snapshot.context.route === 'reviewer_agent' && snapshot.context.reviewer?.agent_id === agentId;

/**
 * A reviewer agent's decision. A review not routed to it is 404, as if it did not exist: a
 * reviewer sees only its own work. Any call of the reviewer shows its links are alive again.
 */
export async function reviewerDecision(s: ReviewServices, who: ReviewerScope, id: string, d: ReviewerDecisionInput) {
  await resetReviewerFailures(s.db, who.org_id, who.agent_id);
  checkDecisionBody(d);
  const scope: ReviewScope = { org_id: who.org_id, project_id: who.project_id, agent_id: null, inbox_id: null };
  const by = 'reviewer_agent' as const;
  const common = { parent_revision: d.parent_revision };
  return applyVerb(s, scope, id, d.action, (_row, snapshot) => {
    if (!routedTo(snapshot, who.agent_id)) throw notFound('review');
    if (d.action === 'hand_back') return { type: 'hand_back', feedback: d.feedback ?? null, ...common };
    return decisionEvent({ ...d, action: d.action }, snapshot, by, common);
  });
}

function checkDecisionBody(d: { action: string; text?: string; subject?: string; message?: string }): void {
  if (d.action === 'edit' && d.text === undefined && d.subject === undefined) {
    throw badRequest('text', 'An edit names the new text, subject or both.', 'required');
  }
  if (d.action === 'chat' && (d.message === undefined || d.message === '')) throw badRequest('message', 'A chat decision needs a message.', 'required');
}

/** The machine event of a reviewer's verb shared by humans and reviewer agents. */
function decisionEvent(
  d: Omit<DecisionInput, 'action'> & { action: 'open' | 'approve' | 'reject' | 'edit' | 'chat' },
  snapshot: ReviewSnapshot,
  by: 'human' | 'reviewer_agent',
  common: { parent_revision?: number; by_email?: string },
): ReviewEvent & ReviewEventExtra {
  switch (d.action) {
    case 'open':
      return { type: 'open', by, ...common };
    case 'approve':
      return { type: 'approve', by, feedback: d.feedback ?? null, ...common };
    case 'reject':
      return { type: 'reject', by, feedback: d.feedback ?? null, ...common };
    case 'edit': {
      const draft = snapshot.context.draft;
      const diff = editDiff({ subject: draft.subject ?? null, text: draft.text ?? null }, { subject: d.subject, text: d.text });
      return { type: 'edit', by, text: d.text, subject: d.subject, diff, feedback: d.feedback ?? null, ...common };
    }
    case 'chat':
      return { type: 'chat', from: 'reviewer', by, message: d.message!, ...common };
  }
}

/** Applies a worker's event (delivery outcome, escalation, deadline) through the runner, in `tx`. */
export async function applyWorkerEvent(tx: pg.ClientBase, queue: Queue, orgId: string, id: string, event: ReviewEvent): Promise<Applied> {
  return applyEventIn(tx, queue, reviewKind, { id, org_id: orgId }, event);
}
