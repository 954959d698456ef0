// Send, reply and forward: every one becomes a review. `prepareSend` runs the checks in the
// contract's order and writes nothing (contact block, allowlist, suppression, intent gate,
// category, the rolling 24-hour recipient limit); `submitSend` then creates the review through
// the runner, released at once when the policy allows direct sending. `prepareSendInScope` finds
// the sending inbox within the caller's scope first: a plain send reads its inbox and what it is
// checked against in one round trip.
import type { Config } from '../service/config.ts';
import type { Queue } from '../service/queue.ts';
import { Problem, badRequest, notFound, type FieldError } from '../machines/problems.ts';
import { checkIntent, invalidIntent, type IntentProblem } from '../machines/policy/intent-gate.ts';
import { checkRecipientLimit } from '../machines/policy/recipient-limit.ts';
import { forwardSubject, forwardedText, replyRecipients, replySubject, replyThreading } from '../machines/policy/reply.ts';
import { resolveReviewPolicy, type EffectiveReviewPolicy } from '../machines/policy/review-policy.ts';
import { MAX_RECIPIENTS, resolveTextAlias, type Recipient } from '../machines/policy/send-body.ts';
import type { ReviewIntent, SubmitEvent } from '../machines/review-request.ts';
import type pg from 'pg';
import { lockStatement, withTransaction, type Pool } from '../storage/db.ts';
import { newId } from '../storage/ids.ts';
import { findInboxInScope, type InboxScope, type InboxWithPolicy } from '../storage/inboxes.ts';
import { findMessage, flaggedInThread, sentIntoThreadSince, sentOneOf, type MessageRow } from '../storage/messages.ts';
import { loopSuspected } from '../machines/policy/loop-guard.ts';
import { SENDER_HEALTH_WINDOW, senderHealth, type SenderHealthCounts } from '../machines/policy/sender-health.ts';
import { senderHealthVerdictCounts } from '../storage/delivery-reports.ts';
import { autoSendGate, statedConfidence, type AutoSendDecision } from '../machines/policy/auto-send.ts';
import { rungOf } from '../machines/category.ts';
import { categoryVisible, findCategoryWithAccountDial, firstContacts, makeTodaysAutoSendSlots, takeAutoSend } from '../storage/categories.ts';
import { categoryDialFromStored } from './categories.ts';
import {
  findInboxWithSendChecks,
  insertReviewAttachments,
  insertReviewWithinLimit,
  inboxSendLock,
  type SendCheckData,
  type ReviewAttachment,
  type ReviewKind,
  type ReviewRow,
} from '../storage/reviews.ts';
import { findThread } from '../storage/threads.ts';
import { sendAllowances, type SendAllowances } from '../storage/usage.ts';
import { recipientLimitError, reserveWithinCaps } from './send-caps.ts';
import { checkAddresses, parseList, plainSendRecipients } from './recipients.ts';
import { reviewKind } from './reviews/kind.ts';
import { readNoticesAhead } from './reviews/effects.ts';
import { LINK_DEFAULTS, chooseRoute, type Routing } from './review-links.ts';
import type { RouteLink } from '../storage/review-links.ts';
import { createInstanceIn } from './run-machine.ts';

/** Whole message: body text and attachments (decisions.md, numbers: 25 MiB, 10 attachments). */
export const MAX_MESSAGE_BYTES = 25 * 1024 * 1024;
export const MAX_ATTACHMENTS = 10;

export type SendBody = {
  to?: unknown;
  cc?: unknown;
  subject?: string;
  text?: string;
  body?: string;
  intent?: unknown;
  category_id?: string;
  thread_id?: string;
  expected_last_message_id?: string;
  /** `content` in base64, or already decoded (a large body's, by the HTTP layer). */
  attachments?: Array<{ filename?: string; content_type?: string; content: string | Buffer; content_id?: string; inline?: boolean }>;
};

export type SendServices = { db: Pool; queue: Queue; config: Config };

export type PreparedSend = {
  kind: ReviewKind;
  inbox: InboxWithPolicy;
  agent_id: string;
  policy: EffectiveReviewPolicy;
  to: Recipient[];
  cc: Recipient[];
  subject: string;
  text: string;
  intent: ReviewIntent | null;
  /** A category the agent may use here (checked); its rung and dial are read in the send transaction. */
  category_id: string | null;
  thread_id: string | null;
  in_reply_to: string | null;
  references: string[];
  parent_message_id: string | null;
  attachments: ReviewAttachment[];
  /** The plan and enrollment key the send's reservation is checked against. */
  allowances: SendAllowances;
  /** The flagged message this send answers or forwards: the send then waits for a human. */
  screening: HeldForScreening | null;
  /** The review link covering the inbox, when read ahead; absent, routing reads it in the send transaction. */
  covering_link?: RouteLink | null;
  /** A reply to mail that was sent automatically: it says so (`Auto-Submitted: auto-replied`). */
  auto_replied?: boolean;
  /** Why the loop guard holds this send for a human (loop-guard.ts), when it does. */
  loop?: { reason: string; message_id: string } | null;
  /** The inbox's sender health counts, when read ahead with the inbox; absent, the send transaction reads them. */
  sender_health?: SenderHealthCounts;
};

/** Why a send is held for a human whatever its policy: the flagged message it replies to or forwards. */
export type HeldForScreening = { message_id: string; risk: string; reasons: string[] };

const conflictingAlias = (detail: string) =>
  new Problem('bad_request', { detail, errors: [{ field: 'body', code: 'conflicting_alias', detail }] });

/**
 * What was read with the inbox, in the same round trip (findInboxWithSendChecks): the checks of
 * these recipients, the sender's allowances, the review link covering the inbox and whether the
 * send's category is one the agent may use.
 */
export type ReadAhead = { recipients: string[]; data: SendCheckData; allowances: SendAllowances; covering_link: RouteLink | null; category_visible: boolean };

/** A send from the inbox `inbox_id` (an id or an address) names, as the caller's scope reaches it. */
export type SendRequest = { kind: ReviewKind; scope: InboxScope; inbox_id: string; agent_id: string; body: SendBody; message_id?: string };

/**
 * The checks of a send from an inbox within the caller's scope; outside it the inbox is not
 * found. A plain send reads the inbox together with its recipients' checks, its allowances and
 * the review link covering the inbox.
 */
export async function prepareSendInScope(s: SendServices, req: SendRequest): Promise<PreparedSend> {
  const { kind, agent_id, body, message_id } = req;
  const recipients = kind === 'send' ? plainSendRecipients(body) : null;
  if (!recipients) {
    const inbox = await findInboxInScope(s.db, req.scope, req.inbox_id);
    if (!inbox) throw notFound('inbox');
    return prepareSend(s, { kind, inbox, agent_id, body, message_id });
  }
  const found = await findInboxWithSendChecks(s.db, req.scope, req.inbox_id, recipients, agent_id, body.category_id ?? null);
  if (!found) throw notFound('inbox');
  const readAhead = { recipients, data: found.checks, allowances: found.allowances, covering_link: found.covering_link, category_visible: found.category_visible };
  return prepareSend(s, { kind, inbox: found.inbox, agent_id, body, message_id, readAhead });
}

/** The checks of a send, in order. Throws the first refusal; writes nothing. */
export async function prepareSend(
  s: SendServices,
  req: { kind: ReviewKind; inbox: InboxWithPolicy; agent_id: string; body: SendBody; message_id?: string; readAhead?: ReadAhead },
): Promise<PreparedSend> {
  const { inbox, body } = req;
  const at = { org_id: inbox.org_id, inbox_id: inbox.id };
  const alias = resolveTextAlias(body);
  if (!alias.ok) throw conflictingAlias(alias.detail);
  const attachments = decodeAttachments(body.attachments ?? []);
  // A defective intent is a defect of the body, answered before any recipient is looked at.
  const invalid = invalidIntent(body.intent);
  if (invalid) throw intentProblem(invalid);

  let to = body.to === undefined ? null : parseList('to', body.to);
  const cc = body.cc === undefined ? [] : parseList('cc', body.cc);
  let subject = body.subject;
  let text = alias.text ?? '';
  let threading: { in_reply_to: string | null; references: string[] } = { in_reply_to: null, references: [] };
  let parent: MessageRow | null = null;
  let threadId: string | null = null;

  let screening: HeldForScreening | null = null;
  let loop: PreparedSend['loop'] = null;
  if (req.kind === 'reply') {
    const thread = await findThread(s.db, at, body.thread_id!);
    if (!thread || !thread.last_message_id) throw notFound('thread');
    if (body.expected_last_message_id !== undefined && body.expected_last_message_id !== thread.last_message_id) {
      throw new Problem('reply_context_changed', {
        detail: `The thread advanced: its last message is now ${thread.last_message_id}, not ${body.expected_last_message_id}. Read it and reply again.`,
        errors: [{ field: 'expected_last_message_id', code: 'changed', detail: thread.last_message_id }],
        extra: { last_message_id: thread.last_message_id },
      });
    }
    parent = await findMessage(s.db, at, thread.last_message_id);
    if (!parent) throw notFound('thread');
    threadId = thread.id;
    threading = replyThreading(parent);
    // The message answered, or an earlier flagged one of the thread (the last may be our own reply).
    const flagged = parent.screening ? { id: parent.id, screening: parent.screening } : await flaggedInThread(s.db, at, thread.id);
    if (flagged) screening = { message_id: flagged.id, ...flagged.screening };
    loop = await loopCheck(s, at, thread.id, parent);
    to ??= replyRecipients(parent).map((r) => ({ name: r.name ?? '', email: r.email.toLowerCase() }));
    subject ??= replySubject(parent.subject);
  } else if (req.kind === 'forward') {
    parent = await findMessage(s.db, at, req.message_id!);
    if (!parent) throw notFound('message');
    if (parent.screening) screening = { message_id: parent.id, ...parent.screening };
    subject ??= forwardSubject(parent.subject);
    text = forwardedText(alias.text, {
      from: parent.raw_from || parent.from_email || '',
      date: parent.date_header,
      subject: parent.subject,
      to: parent.raw_to,
      text: parent.text ?? parent.extracted_text,
    });
  }

  if (!to || to.length === 0) throw badRequest('to', 'Name at least one recipient in to.', 'required');
  if (to.length + cc.length > MAX_RECIPIENTS) {
    throw badRequest('to', `At most ${MAX_RECIPIENTS} recipients a send (to plus cc); this one has ${to.length + cc.length}.`, 'too_many');
  }
  const size = Buffer.byteLength(text) + attachments.reduce((n, a) => n + a.size, 0);
  if (size > MAX_MESSAGE_BYTES) throw badRequest('attachments', `The message is ${size} bytes; at most ${MAX_MESSAGE_BYTES}.`, 'too_large');

  const addresses = [...to, ...cc].map((r) => r.email);
  const allowances = req.readAhead?.allowances ?? (await sendAllowances(s.db, inbox.org_id, req.agent_id));
  const data = await checkAddresses(s.db, { ...at, project_id: inbox.project_id }, addresses, allowances.allowed_domains, req.readAhead);

  const policy = resolveReviewPolicy({ inboxOverride: inbox.review_policy, accountDefault: inbox.default_review_policy });
  const gate = checkIntent({ policy: policy.policy, source: policy.source, intent: body.intent, category_id: body.category_id ?? null });
  if (gate) throw intentProblem(gate);

  // Another agent's private category is as unknown as a category that does not exist.
  const categoryKnown =
    body.category_id === undefined ||
    (req.readAhead?.category_visible ?? (await categoryVisible(s.db, { org_id: inbox.org_id, project_id: inbox.project_id, agent_id: req.agent_id }, body.category_id)));
  if (!categoryKnown) {
    throw badRequest('category_id', `No category ${body.category_id} this agent may use in this project; GET /v1/categories lists them.`, 'not_found');
  }

  const limit = checkRecipientLimit({ used: data.used_24h, delta: addresses.length, limit: inbox.recipient_limit_24h });
  if (!limit.allowed) throw await recipientLimitError(s.db, { org_id: inbox.org_id, inbox_id: inbox.id }, limit, 'send');

  const intent = body.intent ? normalizeIntent(body.intent as ReviewIntent) : null;
  return {
    kind: req.kind,
    inbox,
    agent_id: req.agent_id,
    policy,
    to,
    cc,
    subject: subject ?? '',
    text,
    intent,
    category_id: body.category_id ?? null,
    thread_id: threadId,
    in_reply_to: threading.in_reply_to,
    references: threading.references,
    parent_message_id: parent?.id ?? null,
    attachments,
    allowances,
    screening,
    ...(req.readAhead ? { covering_link: req.readAhead.covering_link } : {}),
    auto_replied: req.kind === 'reply' && parent?.auto_submitted != null,
    loop,
    ...(data.sender_health ? { sender_health: data.sender_health } : {}),
  };
}

/** The loop guard's signals for a reply into a thread (machines/policy/loop-guard.ts). */
async function loopCheck(s: SendServices, at: { org_id: string; inbox_id: string }, threadId: string, parent: MessageRow): Promise<PreparedSend['loop']> {
  const { maxSends, windowMinutes } = s.config.loopGuard;
  const recent = await sentIntoThreadSince(s.db, at, threadId, new Date(Date.now() - windowMinutes * 60_000));
  const auto = parent.direction === 'inbound' && parent.auto_submitted !== null;
  const answered = auto ? [parent.in_reply_to, ...parent.references].filter((x): x is string => !!x) : [];
  const reason = loopSuspected({
    recent_sends: recent,
    max_sends: maxSends,
    answers_auto_submitted: auto,
    auto_submitted_answers_agent: auto && (await sentOneOf(s.db, at, threadId, answered)),
  });
  return reason ? { reason, message_id: parent.id } : null;
}

export const intentProblem = (p: IntentProblem): Problem =>
  new Problem(p.code, { status: p.status, detail: p.detail, errors: p.errors as FieldError[] });

function normalizeIntent(intent: ReviewIntent): ReviewIntent {
  return { summary: intent.summary.trim(), ...(intent.meta ? { meta: intent.meta } : {}) };
}

function decodeAttachments(list: NonNullable<SendBody['attachments']>): ReviewAttachment[] {
  if (list.length > MAX_ATTACHMENTS) throw badRequest('attachments', `At most ${MAX_ATTACHMENTS} attachments a message.`, 'too_many');
  return list.map((a, i) => {
    // Whitespace may fall anywhere; tested in place, without a copy of the content stripped of it.
    if (typeof a.content === 'string' && !/^[A-Za-z0-9+/\s]*(?:=\s*){0,2}$/.test(a.content)) {
      throw badRequest(`attachments.${i}.content`, 'content must be base64.', 'invalid_format');
    }
    const content = typeof a.content === 'string' ? Buffer.from(a.content, 'base64') : a.content;
    return {
      filename: a.filename ?? null,
      content_type: a.content_type ?? 'application/octet-stream',
      content_id: a.content_id ?? null,
      inline: a.inline ?? false,
      size: content.length,
      content,
    };
  });
}

export type Submitted = { review: ReviewRow; released: boolean; policy: EffectiveReviewPolicy };

/**
 * Whether the send goes out without review, decided in the send transaction: the policy, then
 * the category's rung and gates, then the daily auto-send cap, counted here only for a send the
 * gates would release, so the count never passes the cap whatever runs beside it.
 */
async function decideRelease(
  tx: pg.PoolClient,
  p: PreparedSend,
  reviewId: string,
  healthLimits: Config['senderHealth'],
): Promise<AutoSendDecision & { rung: string | null }> {
  // A reply to or forward of a flagged message goes to the human, whatever the policy or category say.
  if (p.screening) return { release: false, reason: 'screening', rung: null };
  // So does a send that may be one turn of a mail loop, or one from an inbox whose mail bounces or is complained about.
  if (p.loop) return { release: false, reason: 'loop_suspected', rung: null };
  const counts = p.sender_health ?? (await senderHealthVerdictCounts(tx, p.inbox.org_id, p.inbox.id, SENDER_HEALTH_WINDOW));
  const health = senderHealth(counts, healthLimits);
  if (!health.healthy) return { release: false, reason: 'sender_health', rung: null };
  if (p.policy.policy === 'allow_direct') return { release: true, reason: 'allow_direct', rung: null };
  if (!p.category_id) return { release: false, reason: 'review_policy', rung: null };
  const { inbox } = p;
  const reader = { org_id: inbox.org_id, project_id: inbox.project_id, agent_id: p.agent_id };
  const category = await findCategoryWithAccountDial(tx, reader, p.category_id);
  // Checked before the transaction; gone only with its org.
  if (!category) return { release: false, reason: 'review_policy', rung: null };
  const rung = rungOf(category.state);
  if (rung === 'supervised') return { release: false, reason: 'category_supervised', rung };
  const dial = categoryDialFromStored(category.account_dial, category);
  const recipients = [...p.to, ...p.cc].map((r) => r.email);
  const first = dial.first_contact_gate ? await firstContacts(tx, { org_id: inbox.org_id, project_id: inbox.project_id, inbox_id: inbox.id }, recipients) : [];
  const gate = autoSendGate({ rung, dial, first_contacts: first, confidence: statedConfidence(p.intent), review_id: reviewId });
  if (!gate.release) return { ...gate, rung };
  const counted = await takeAutoSend(tx, inbox.org_id, dial.auto_send_cap_per_day);
  if (counted === null) throw new NoAutoSendSlots(inbox.org_id);
  if (!counted) return { release: false, reason: 'auto_send_cap', rung };
  return { ...gate, rung };
}

/** The org has no auto-send slots today: submitSend makes them apart from the send and tries again. */
class NoAutoSendSlots extends Error {
  constructor(readonly org_id: string) {
    super('no auto-send slots today');
  }
}

/** Creates the review (and its job, when released) in one transaction through the runner. */
/** `inTransaction` runs before the review's transaction commits (e.g. to store the response with it). */
export async function submitSend(
  s: SendServices,
  p: PreparedSend,
  now: Date,
  inTransaction?: (tx: pg.PoolClient, submitted: Submitted) => Promise<void>,
): Promise<Submitted> {
  const { inbox } = p;
  const submitEvent = (routing: Routing, deadline: number | null, decision: { release: boolean; reason: string; rung: string | null }): SubmitEvent => ({
    type: 'submit',
    release: decision.release,
    mode_reason: decision.reason,
    category_rung: decision.rung,
    draft: {
      to: p.to,
      cc: p.cc,
      subject: p.subject,
      text: p.text,
      thread_id: p.thread_id,
      in_reply_to: p.in_reply_to,
      attachments: p.attachments.map((a) => ({ filename: a.filename, content_type: a.content_type, size: a.size })),
      ...(p.screening ? { screening: p.screening } : {}),
      ...(p.auto_replied ? { auto_replied: true } : {}),
      ...(p.loop ? { loop: p.loop } : {}),
    },
    intent: p.intent,
    category_id: p.category_id,
    route: routing.choice.route,
    reviewer: routing.choice.route === 'reviewer_agent' ? routing.choice.reviewer : null,
    max_hops: routing.choice.route === 'reviewer_agent' ? routing.choice.max_hops : LINK_DEFAULTS.max_hops,
    // Stamped inside the transaction, with the project's rules high-water.
    rules_version: 0,
    escalate_after_s: routing.choice.route === 'reviewer_agent' ? routing.choice.escalate_after_s : null,
    review_deadline_s: deadline,
  });
  const recipientCount = p.to.length + p.cc.length;
  for (;;) {
    try {
      return await submitOnce();
    } catch (err) {
      if (!(err instanceof NoAutoSendSlots)) throw err;
      // Made in a transaction of their own, so the senders arriving with this one take slots of their own at once.
      await makeTodaysAutoSendSlots(s.db, err.org_id);
    }
  }

  function submitOnce(): Promise<Submitted> {
    return withTransaction(s.db, async (tx) => {
      const id = newId('rr');
      const decision = await decideRelease(tx, p, id, s.config.senderHealth);
      const released = decision.release;
      // A released send needs no reviewer; a held one goes to the reviewer agent of its inbox's link,
      // under that link's deadline, or else to the human under the service's.
      // Held by the guards: a human decides, not a reviewer agent (which may be a party to the loop).
      const held = decision.reason === 'loop_suspected' || decision.reason === 'sender_health';
      const routing: Routing = released || p.screening || held
        ? { choice: { route: 'human' }, link: null }
        : await chooseRoute(tx, s.config, { org_id: inbox.org_id, project_id: inbox.project_id, inbox_id: inbox.id, composer_agent_id: p.agent_id }, p.covering_link);
      const deadline = released ? null : (routing.link?.review_deadline_s ?? s.config.reviewDeadlineSeconds);
      const event = submitEvent(routing, deadline, decision);
      const submission = {
        org_id: inbox.org_id,
        project_id: inbox.project_id,
        id,
        inbox_id: inbox.id,
        agent_id: p.agent_id,
        kind: p.kind,
        parent_message_id: p.parent_message_id,
        references: p.references,
        recipient_count: recipientCount,
        deadline_at: deadline === null ? null : new Date(now.getTime() + deadline * 1000),
      };
      // A send held for a human tells the deciders (notifyReviewer): who they are is read with the insert.
      if (!released && routing.choice.route === 'human') readNoticesAhead(tx, s.queue, inbox);
      const fits = await insertReviewWithinLimit(tx, submission, inbox.recipient_limit_24h);
      if (!fits.inbox_live) throw notFound('inbox');
      if (!fits.inserted) {
        throw await recipientLimitError(s.db, { org_id: inbox.org_id, inbox_id: inbox.id }, checkRecipientLimit({ used: fits.used_24h, delta: recipientCount, limit: inbox.recipient_limit_24h }), 'send');
      }
      await insertReviewAttachments(tx, inbox.org_id, id, p.attachments);
      event.rules_version = fits.rules_version;
      const applied = await createInstanceIn(tx, s.queue, reviewKind, submission, event, { at: fits.at });
      // Last, so the org's usage row stays locked only until the commit that follows.
      await reserveWithinCaps(tx, s.config.plans, p.allowances, { org_id: inbox.org_id, review_id: submission.id, recipients: recipientCount }, now);
      const review: ReviewRow = {
        ...submission,
        state: applied.row.state,
        version: applied.row.version,
        machine_version: applied.row.machine_version,
        snapshot: applied.row.snapshot as ReviewRow['snapshot'],
        created_at: applied.row.created_at ?? now,
        updated_at: applied.row.updated_at,
      };
      const submitted = { review, released, policy: p.policy };
      await inTransaction?.(tx, submitted);
      return submitted;
    }, lockStatement([inboxSendLock(inbox.id)]));
  }
}
