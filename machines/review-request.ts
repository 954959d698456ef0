// The review request lifecycle (the Review Loop), as a pure XState v5 machine.
//
// The machine decides; the runner acts. `transition(machine, snapshot, event)` returns the next
// snapshot and the named actions below with their params; the runner persists the snapshot and
// turns each action into an event-log row or a job in the same transaction. Nothing here reads a
// clock, mints an id or performs I/O: policy, diffs, ids and outcomes arrive as event data.
//
// Delays are not `after:` transitions (they are lost when a snapshot is restored): the machine
// asks for `scheduleEscalation` / `scheduleDeadline` jobs, and the jobs come back as the
// ordinary `escalate` / `deadline` events.
import { assertEvent, assign, enqueueActions, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';

/** Bump when a state is renamed or removed: a stored snapshot of an unknown state throws on restore. */
export const REVIEW_MACHINE_VERSION = 1;

export type ReviewState =
  | 'new'
  | 'needs_review'
  | 'in_review'
  | 'chatting'
  | 'approved'
  | 'edited'
  | 'rejected'
  | 'sending_auto'
  | 'sent'
  | 'auto_sent'
  | 'failed'
  | 'cancelled';

export type ReviewRoute = 'human' | 'reviewer_agent';
export type EffectiveMode = 'review' | 'auto';
/** Who takes a reviewer decision. A reviewer agent may act only while the review is routed to it. */
export type ReviewerKind = 'reviewer_agent' | 'human';
export type CancelledBy = 'composer' | 'human' | 'deadline';

/** Opaque to the machine: copied on submit, merged on revise and edit. Must stay JSON. */
export type ReviewDraft = {
  to?: unknown;
  cc?: unknown;
  subject?: string | null;
  text?: string | null;
  thread_id?: string | null;
  in_reply_to?: string | null;
  [field: string]: unknown;
};

export type ReviewIntent = { summary: string; meta?: Record<string, unknown> };

/** The reviewer agent a review is routed to, and the review link that chose it. */
export type ReviewerRef = { agent_id: string; link_id: string };

/**
 * Where a review returning to needs_review goes, decided outside (links, their health, the
 * composer): to a reviewer agent with that link's limits, or to the human.
 */
export type RouteChoice =
  | { route: 'human' }
  | { route: 'reviewer_agent'; reviewer: ReviewerRef; max_hops: number; escalate_after_s: number | null };

export interface ReviewContext {
  /** Composer revision; 1 after submit, +1 per revise. A reviewer edit does not bump it. */
  revision: number;
  rules_version: number;
  /** Reviewer-agent hand-backs so far. */
  hops: number;
  max_hops: number;
  route: ReviewRoute;
  /** The reviewer agent while route is reviewer_agent (kept after escalation, for the record). */
  reviewer: ReviewerRef | null;
  effective_mode: EffectiveMode;
  draft: ReviewDraft;
  intent: ReviewIntent | null;
  category_id: string | null;
  /** Why the send was held or released (`first_contact_gate`, `category_auto_notify`, ...); null before categories. */
  mode_reason: string | null;
  /** The category's rung when the send was submitted; null without a category. */
  category_rung: string | null;
  /** Latest reviewer feedback; the full history lives in the feedback records. */
  feedback: string | null;
  sent_message_id: string | null;
  /** Delivery outcome unknown: parked until reconciled by Message-ID, never sent twice. */
  reconciliation_needed: boolean;
  cancel_reason: string | null;
  cancelled_by: CancelledBy | null;
  last_error: string | null;
  /** Seconds of reviewer-agent silence before escalation; null = never escalate. */
  escalate_after_s: number | null;
  /** Each armed escalation job carries the epoch it was armed at; a later arm makes it stale. */
  escalation_epoch: number;
}

export type SubmitEvent = {
  type: 'submit';
  /** Decided outside (intent gate, policy, category rung, caps): true = send without review. */
  release: boolean;
  draft: ReviewDraft;
  intent: ReviewIntent | null;
  category_id: string | null;
  mode_reason?: string | null;
  category_rung?: string | null;
  route: ReviewRoute;
  reviewer?: ReviewerRef | null;
  max_hops: number;
  rules_version: number;
  escalate_after_s?: number | null;
  review_deadline_s?: number | null;
};

export type ReviewEvent =
  | SubmitEvent
  | { type: 'open'; by: ReviewerKind; parent_revision?: number }
  | { type: 'approve'; by: ReviewerKind; parent_revision?: number; feedback?: string | null }
  | {
      type: 'edit';
      by: ReviewerKind;
      parent_revision?: number;
      text?: string;
      subject?: string;
      /** Computed outside; stored with the feedback record. */
      diff: unknown;
      feedback?: string | null;
    }
  | { type: 'reject'; by: ReviewerKind; parent_revision?: number; feedback?: string | null }
  | { type: 'chat'; from: 'composer'; message: string; parent_revision?: number }
  | { type: 'chat'; from: 'reviewer'; by: ReviewerKind; message: string; parent_revision?: number }
  | { type: 'hand_back'; parent_revision?: number; feedback?: string | null }
  | {
      type: 'revise';
      parent_revision: number;
      /** The rules high-water the redraft was built against; born_stale is checked outside. */
      rules_version?: number;
      /** Changed draft fields, merged over the current draft. */
      draft?: Partial<ReviewDraft>;
      intent?: ReviewIntent;
      /** Routing anew on the way back to needs_review; absent keeps the current route. */
      reroute?: RouteChoice;
    }
  | { type: 'restamp'; rules_version: number; parent_revision?: number }
  | { type: 'cancel'; by: CancelledBy; reason?: string | null; parent_revision?: number }
  | { type: 'delivered'; sent_message_id: string }
  | { type: 'delivery_failed'; error: string }
  | { type: 'delivery_unknown'; error?: string | null }
  | { type: 'escalate'; epoch?: number }
  | { type: 'deadline' };

export type ReviewEventType =
  | 'review.created'
  | 'review.needs_review'
  | 'review.in_review'
  | 'review.chat'
  | 'review.approved'
  | 'review.rejected'
  | 'review.edited'
  | 'review.sent'
  | 'review.auto_sent'
  | 'review.failed'
  | 'review.cancelled';

export type NotifyReason = 'created' | 'revised' | 'handed_back' | 'escalated' | 'chat';
export type FeedbackKind = 'approve' | 'edit' | 'reject' | 'hand_back';

/** Params of every action the runner executes, by action name. */
export interface ReviewActionParams {
  emitReviewEvent: { type: ReviewEventType };
  deliver: { mode: EffectiveMode; revision: number };
  scheduleEscalation: { after_s: number; epoch: number };
  scheduleDeadline: { after_s: number };
  notifyReviewer: { route: ReviewRoute; reason: NotifyReason; revision: number };
  recordFeedback: {
    kind: FeedbackKind;
    by: ReviewerKind;
    revision: number;
    feedback: string | null;
    diff?: unknown;
  };
  recordChat: { from: 'composer' | 'reviewer'; by: ReviewerKind | null; message: string; revision: number };
  reconcileDelivery: { revision: number };
  /** A decision on a categorised draft counts for its category (clean approval, edit, rejection). */
  countCategoryOutcome: { category_id: string; outcome: 'approve' | 'edit' | 'reject' };
}

// A fresh object per review, so no two snapshots ever share the initial draft.
const initialContext = (): ReviewContext => ({
  revision: 0,
  rules_version: 0,
  hops: 0,
  max_hops: 3,
  route: 'human',
  reviewer: null,
  effective_mode: 'review',
  draft: {},
  intent: null,
  category_id: null,
  mode_reason: null,
  category_rung: null,
  feedback: null,
  sent_message_id: null,
  reconciliation_needed: false,
  cancel_reason: null,
  cancelled_by: null,
  last_error: null,
  escalate_after_s: null,
  escalation_epoch: 0,
});

type GuardArgs = { context: ReviewContext; event: ReviewEvent };

// A verb that names a revision is accepted only against the current one; the HTTP layer tells
// "stale" from "wrong state" by retrying the check with the current revision (review-verbs.ts).
const namesCurrentRevision = ({ context, event }: GuardArgs): boolean =>
  !('parent_revision' in event) || event.parent_revision == null || event.parent_revision === context.revision;

const reviewerMayAct = ({ context, event }: GuardArgs): boolean =>
  !('by' in event) || event.by !== 'reviewer_agent' || context.route === 'reviewer_agent';

// Effect intents: the bodies are empty on purpose. `transition()` never runs them; the runner
// reads their names and params after the snapshot is saved.
function intent<K extends keyof ReviewActionParams>() {
  return (_args: unknown, _params: ReviewActionParams[K]): void => {};
}

// A review that used up its hand-backs stays with the human whatever the links say.
function rerouted(context: ReviewContext, choice: RouteChoice | undefined): Partial<ReviewContext> {
  if (!choice) return {};
  if (choice.route === 'human' || context.hops >= choice.max_hops) return { route: 'human' };
  return { route: 'reviewer_agent', reviewer: choice.reviewer, max_hops: choice.max_hops, escalate_after_s: choice.escalate_after_s };
}

// Re-arming makes every earlier escalation job stale: the job carries the epoch it was armed at.
function nextEscalation(context: ReviewContext): ReviewActionParams['scheduleEscalation'] | null {
  if (context.route !== 'reviewer_agent' || context.escalate_after_s == null) return null;
  return { after_s: context.escalate_after_s, epoch: context.escalation_epoch + 1 };
}

export const reviewRequestMachine = setup({
  types: {
    context: {} as ReviewContext,
    events: {} as ReviewEvent,
  },
  actions: {
    emitReviewEvent: intent<'emitReviewEvent'>(),
    deliver: intent<'deliver'>(),
    scheduleEscalation: intent<'scheduleEscalation'>(),
    scheduleDeadline: intent<'scheduleDeadline'>(),
    notifyReviewer: intent<'notifyReviewer'>(),
    recordFeedback: intent<'recordFeedback'>(),
    recordChat: intent<'recordChat'>(),
    reconcileDelivery: intent<'reconcileDelivery'>(),
    countCategoryOutcome: intent<'countCategoryOutcome'>(),

    acceptSubmission: assign(({ event }) => {
      assertEvent(event, 'submit');
      return {
        revision: 1,
        rules_version: event.rules_version,
        hops: 0,
        max_hops: event.max_hops,
        route: event.route,
        reviewer: event.route === 'reviewer_agent' ? (event.reviewer ?? null) : null,
        effective_mode: event.release ? ('auto' as const) : ('review' as const),
        draft: { ...event.draft },
        intent: event.intent,
        category_id: event.category_id,
        mode_reason: event.mode_reason ?? null,
        category_rung: event.category_rung ?? null,
        escalate_after_s: event.route === 'reviewer_agent' ? (event.escalate_after_s ?? null) : null,
      };
    }),
    acceptRevision: assign(({ context, event }) => {
      assertEvent(event, 'revise');
      return {
        revision: context.revision + 1,
        rules_version: event.rules_version ?? context.rules_version,
        draft: { ...context.draft, ...event.draft },
        intent: event.intent ?? context.intent,
        ...rerouted(context, event.reroute),
      };
    }),
    acceptRestamp: assign(({ event }) => {
      assertEvent(event, 'restamp');
      return { rules_version: event.rules_version };
    }),
    acceptEdit: assign(({ context, event }) => {
      assertEvent(event, 'edit');
      const changes: Partial<ReviewDraft> = {};
      if (event.text !== undefined) changes.text = event.text;
      if (event.subject !== undefined) changes.subject = event.subject;
      return { draft: { ...context.draft, ...changes }, feedback: event.feedback ?? context.feedback };
    }),
    keepFeedback: assign(({ context, event }) => {
      assertEvent(event, ['approve', 'reject', 'hand_back']);
      return { feedback: event.feedback ?? context.feedback };
    }),
    countHop: assign(({ context }) => {
      const hops = context.hops + 1;
      // max_hops hand-backs, then the next action is forced to the human.
      return { hops, route: hops >= context.max_hops ? ('human' as const) : context.route };
    }),
    routeToHuman: assign({ route: 'human' as const }),
    acceptCancel: assign(({ event }) => {
      assertEvent(event, ['cancel', 'deadline']);
      if (event.type === 'deadline') return { cancelled_by: 'deadline' as const, cancel_reason: 'deadline_exceeded' };
      const fallback = event.by === 'deadline' ? 'deadline_exceeded' : null;
      return { cancelled_by: event.by, cancel_reason: event.reason ?? fallback };
    }),
    acceptDelivered: assign(({ event }) => {
      assertEvent(event, 'delivered');
      return { sent_message_id: event.sent_message_id, reconciliation_needed: false, last_error: null };
    }),
    acceptFailure: assign(({ event }) => {
      assertEvent(event, 'delivery_failed');
      return { last_error: event.error, reconciliation_needed: false };
    }),
    parkForReconciliation: assign(({ context, event }) => {
      assertEvent(event, 'delivery_unknown');
      return { reconciliation_needed: true, last_error: event.error ?? context.last_error };
    }),

    feedCategory: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, ['approve', 'edit', 'reject']);
      if (context.category_id == null) return;
      enqueue({ type: 'countCategoryOutcome', params: { category_id: context.category_id, outcome: event.type } });
    }),
    armEscalation: enqueueActions(({ context, enqueue }) => {
      const arm = nextEscalation(context);
      if (!arm) return;
      enqueue.assign({ escalation_epoch: arm.epoch });
      enqueue({ type: 'scheduleEscalation', params: arm });
    }),
    armDeadline: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, 'submit');
      if (event.review_deadline_s == null) return;
      enqueue({ type: 'scheduleDeadline', params: { after_s: event.review_deadline_s } });
    }),
    recordDecision: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, ['approve', 'reject']);
      // An approval without a note leaves no feedback record; a rejection always does.
      if (event.type === 'approve' && event.feedback == null) return;
      enqueue({
        type: 'recordFeedback',
        params: { kind: event.type, by: event.by, revision: context.revision, feedback: event.feedback ?? null },
      });
    }),
    recordHandBack: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'hand_back');
      if (event.feedback == null) return;
      enqueue({
        type: 'recordFeedback',
        params: { kind: 'hand_back', by: 'reviewer_agent', revision: context.revision, feedback: event.feedback },
      });
    }),
    // `review.chat` is emitted when the chat begins (in_review → chatting) and then for every
    // later reviewer message: the durable review event queue is the composer's only authoritative
    // channel, so without it the composer could not learn that the reviewer answered. Composer
    // messages go to the reviewer through `notifyReviewer` instead (and restart its silence
    // clock), never back to the composer.
    echoReviewerChat: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, 'chat');
      if (event.from === 'reviewer') enqueue({ type: 'emitReviewEvent', params: { type: 'review.chat' } });
    }),
    passComposerChat: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'chat');
      if (event.from !== 'composer') return;
      enqueue({ type: 'notifyReviewer', params: { route: context.route, reason: 'chat', revision: context.revision } });
      const arm = nextEscalation(context);
      if (!arm) return;
      enqueue.assign({ escalation_epoch: arm.epoch });
      enqueue({ type: 'scheduleEscalation', params: arm });
    }),
  },
  guards: {
    releases: ({ event }) => event.type === 'submit' && event.release,
    revisionCurrent: namesCurrentRevision,
    mayDecide: (args) => namesCurrentRevision(args) && reviewerMayAct(args),
    mayHandBack: (args) => namesCurrentRevision(args) && args.context.route === 'reviewer_agent',
    composerCancels: ({ event }) => event.type === 'cancel' && event.by === 'composer',
    escalationDue: ({ context, event }) =>
      event.type === 'escalate' &&
      context.route === 'reviewer_agent' &&
      (event.epoch == null || event.epoch === context.escalation_epoch),
    outcomeNotYetParked: ({ context }) => !context.reconciliation_needed,
  },
}).createMachine({
  id: 'review_request',
  initial: 'new',
  context: initialContext,
  states: {
    new: {
      on: {
        submit: [
          // Released: no review event until the delivery outcome (review.auto_sent / review.failed).
          { guard: 'releases', target: 'sending_auto', actions: ['acceptSubmission', deliverCurrent('auto')] },
          {
            target: 'needs_review',
            actions: [
              'acceptSubmission',
              emit('review.created'),
              notify('created'),
              'armEscalation',
              'armDeadline',
            ],
          },
        ],
      },
    },
    needs_review: {
      on: {
        open: { guard: 'mayDecide', target: 'in_review', actions: [emit('review.in_review'), 'armEscalation'] },
        ...decisions(),
        revise: reviseTransition(),
        restamp: { guard: 'revisionCurrent', actions: ['acceptRestamp'] },
        ...cancelAndDeadline(),
        escalate: escalateTransition(),
      },
    },
    in_review: {
      on: {
        ...decisions(),
        chat: { guard: 'mayDecide', target: 'chatting', actions: [recordChat(), emit('review.chat'), 'passComposerChat'] },
        hand_back: handBackTransition(),
        revise: reviseTransition(),
        ...cancelAndDeadline(),
        escalate: escalateTransition(),
      },
    },
    chatting: {
      on: {
        ...decisions(),
        chat: { guard: 'mayDecide', actions: [recordChat(), 'echoReviewerChat', 'passComposerChat'] },
        hand_back: handBackTransition(),
        revise: reviseTransition(),
        ...cancelAndDeadline(),
        escalate: escalateTransition(),
      },
    },
    rejected: {
      on: {
        revise: reviseTransition(),
        restamp: { guard: 'revisionCurrent', actions: ['acceptRestamp'] },
        ...cancelAndDeadline(),
      },
    },
    // approved, edited and sending_auto: delivery is in flight, so nothing but its outcome applies.
    approved: { on: deliveryOutcomes('sent', 'review.sent') },
    edited: { on: deliveryOutcomes('sent', 'review.sent') },
    sending_auto: { on: deliveryOutcomes('auto_sent', 'review.auto_sent') },
    // Absorbing: nothing re-approves a failed send; the composer's close-out is the only exit.
    failed: {
      on: {
        cancel: { guard: 'composerCancels', target: 'cancelled', actions: ['acceptCancel', emit('review.cancelled')] },
      },
    },
    sent: { type: 'final' },
    auto_sent: { type: 'final' },
    cancelled: { type: 'final' },
  },
});

// Config helpers. They return plain objects typed as literals so the machine config stays checked.

function emit(type: ReviewEventType) {
  return { type: 'emitReviewEvent', params: { type } } as const;
}

function notify(reason: NotifyReason) {
  return {
    type: 'notifyReviewer',
    params: ({ context }: { context: ReviewContext }) => ({ route: context.route, reason, revision: context.revision }),
  } as const;
}

function deliverCurrent(mode: EffectiveMode) {
  return {
    type: 'deliver',
    params: ({ context }: { context: ReviewContext }) => ({ mode, revision: context.revision }),
  } as const;
}

function recordChat() {
  return {
    type: 'recordChat',
    params: ({ context, event }: { context: ReviewContext; event: ReviewEvent }) => {
      assertEvent(event, 'chat');
      const by = event.from === 'reviewer' ? event.by : null;
      return { from: event.from, by, message: event.message, revision: context.revision };
    },
  } as const;
}

function decisions() {
  return {
    approve: {
      guard: 'mayDecide',
      target: 'approved',
      actions: ['keepFeedback', 'recordDecision', 'feedCategory', emit('review.approved'), deliverCurrent('review')],
    },
    edit: {
      guard: 'mayDecide',
      target: 'edited',
      actions: [
        'acceptEdit',
        {
          type: 'recordFeedback',
          params: ({ context, event }: { context: ReviewContext; event: ReviewEvent }) => {
            assertEvent(event, 'edit');
            return {
              kind: 'edit' as const,
              by: event.by,
              revision: context.revision,
              feedback: event.feedback ?? null,
              diff: event.diff,
            };
          },
        },
        'feedCategory',
        emit('review.edited'),
        deliverCurrent('review'),
      ],
    },
    reject: {
      guard: 'mayDecide',
      target: 'rejected',
      actions: ['keepFeedback', 'recordDecision', 'feedCategory', emit('review.rejected')],
    },
  } as const;
}

function reviseTransition() {
  return {
    guard: 'revisionCurrent',
    target: 'needs_review',
    actions: ['acceptRevision', emit('review.needs_review'), notify('revised'), 'armEscalation'],
  } as const;
}

function handBackTransition() {
  return {
    guard: 'mayHandBack',
    target: 'needs_review',
    actions: ['recordHandBack', 'keepFeedback', 'countHop', emit('review.needs_review'), notify('handed_back'), 'armEscalation'],
  } as const;
}

function escalateTransition() {
  return {
    guard: 'escalationDue',
    actions: ['routeToHuman', emit('review.needs_review'), notify('escalated')],
  } as const;
}

function cancelAndDeadline() {
  return {
    // A human's cancel names the revision it saw, as every decision does; the composer's names none.
    cancel: { guard: 'revisionCurrent', target: 'cancelled', actions: ['acceptCancel', emit('review.cancelled')] },
    deadline: { target: 'cancelled', actions: ['acceptCancel', emit('review.cancelled')] },
  } as const;
}

function deliveryOutcomes(doneState: 'sent' | 'auto_sent', doneEvent: 'review.sent' | 'review.auto_sent') {
  return {
    delivered: { target: doneState, actions: ['acceptDelivered', emit(doneEvent)] },
    delivery_failed: { target: 'failed', actions: ['acceptFailure', emit('review.failed')] },
    // Same state: the delivery stays in flight until a reconciler reports delivered or failed.
    delivery_unknown: {
      guard: 'outcomeNotYetParked',
      actions: [
        'parkForReconciliation',
        { type: 'reconcileDelivery', params: ({ context }: { context: ReviewContext }) => ({ revision: context.revision }) },
      ],
    },
  } as const;
}

export type ReviewSnapshot = SnapshotFrom<typeof reviewRequestMachine>;
