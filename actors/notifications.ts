// Reaching the human where they are. When a review starts waiting for a human (new, revised,
// escalated, handed back), nears its deadline, or an `auto_notify` category sent a mail on its own,
// every member who may decide on the project's reviews is told: by mail at once, in a digest every
// N minutes, or not at all, as each member chose for the project. A project may also name a
// chat-ops channel (an incoming webhook) that gets the same notices as short messages.
//
// A notification mail carries one-time decision links: bound to the review, the revision it was
// made for and the member, kept only as a digest, expiring with the review's deadline (7 days at
// most). Following one opens a page; only its button decides, through the same command as a
// console decision, recorded as that member's with the channel `mail_link`.
import type pg from 'pg';
import { Problem, badRequest } from '../machines/problems.ts';
import { replyAddress } from '../mail/inbound/reply-address.ts';
import type { Config } from '../service/config.ts';
import { encryptionKey } from '../service/encryption.ts';
import type { Logger } from '../service/logger.ts';
import type { Queue } from '../service/queue.ts';
import { withTransaction, type Executor, type Pool } from '../storage/db.ts';
import { appendEventAtCommit } from '../storage/events.ts';
import { newId, randomToken } from '../storage/ids.ts';
import { findMessage } from '../storage/messages.ts';
import {
  claimNotification,
  dueDigests,
  findChatops,
  findDecisionLink,
  findPreference,
  insertDecisionLink,
  isDecider,
  listDecisionChannels,
  listNotifications,
  lockPendingDigest,
  markNotificationByKey,
  markNotifications,
  findNotificationByKey,
  listNotificationsById,
  lockStillPending,
  notificationStatus,
  userIdByEmail,
  noticeTargets,
  setChatops,
  upsertPreference,
  useDecisionLink,
  type DecisionLinkRow,
  type NotificationRow,
  type NotifyMode,
} from '../storage/notifications.ts';
import { findReviewWithInbox, type ReviewRow } from '../storage/reviews.ts';
import { matchesHash, sha256 } from '../storage/secrets.ts';
import { JOBS, type NotifyJob, type NotifyReason } from './jobs.ts';
import { humanDecision } from './reviews/decisions.ts';
import { restoreReview } from './reviews/snapshot.ts';
import type { ReviewServices } from './reviews/apply.ts';
import { SystemMailError, sendSystemMail } from './system-mail.ts';
import { postWebhook, webhookTargetProblem } from './webhook-transport.ts';

export type NotifyDeps = { db: Pool; queue: Queue; config: Config; log: Logger };

export const WAITING = new Set(['needs_review', 'in_review', 'chatting']);
/** A decision link lives at most this long, and never past the review's deadline. */
export const LINK_MAX_MS = 7 * 24 * 3600 * 1000;

const HEADLINE: Record<NotifyReason, string> = {
  created: 'A draft waits for your review',
  revised: 'A revised draft waits for your review',
  handed_back: 'A reviewer agent handed a draft back to you',
  escalated: 'A reviewer agent did not answer: a draft waits for you',
  deadline_near: 'A draft waiting for review is near its deadline',
  auto_sent: 'A mail was sent on its own (auto_notify)',
};

/** Whether the review still needs what the notice announces. */
function stillApplies(review: ReviewRow, job: Pick<NotifyJob, 'reason' | 'revision'>): boolean {
  const c = restoreReview(review).context;
  if (job.reason === 'auto_sent') return review.state === 'auto_sent';
  // The deadline is the review's, whatever its revision: its reminder stands while it waits.
  return WAITING.has(review.state) && c.route === 'human' && (job.reason === 'deadline_near' || c.revision === job.revision);
}

// ---- Preferences

export type Preference = { mode: NotifyMode; digest_minutes: number };

async function userOf(db: Executor, email: string): Promise<string> {
  const id = await userIdByEmail(db, email);
  if (!id) throw new Problem('not_found', { detail: 'No user for this console session.' });
  return id;
}

export async function notificationPreference(db: Pool, at: { org_id: string; project_id: string; email: string }) {
  const pref = await findPreference(db, { ...at, user_id: await userOf(db, at.email) });
  return { mode: pref.mode, digest_minutes: pref.digest_minutes, updated_at: pref.updated_at };
}

export async function setNotificationPreference(db: Pool, at: { org_id: string; project_id: string; email: string }, input: Partial<Preference>) {
  const userId = await userOf(db, at.email);
  const current = await findPreference(db, { ...at, user_id: userId });
  const next = { mode: input.mode ?? current.mode, digest_minutes: input.digest_minutes ?? current.digest_minutes };
  const row = await upsertPreference(db, { ...at, user_id: userId }, next);
  return { mode: row.mode, digest_minutes: row.digest_minutes, updated_at: row.updated_at };
}

export async function chatopsChannel(db: Pool, at: { org_id: string; project_id: string }) {
  const row = await findChatops(db, at.org_id, at.project_id);
  return { webhook_url: row?.webhook_url ?? null, updated_at: row?.updated_at ?? null };
}

/** Names (or with null, removes) the project's chat-ops webhook; private targets are refused like webhooks'. */
export async function setChatopsChannel(deps: { db: Pool; config: Config }, at: { org_id: string; project_id: string }, url: string | null) {
  if (url !== null) {
    const problem = await webhookTargetProblem(url, deps.config.webhookAllowPrivate);
    if (problem) throw badRequest('webhook_url', `webhook_url ${problem}.`, 'target_refused');
  }
  await setChatops(deps.db, at.org_id, at.project_id, url);
  return chatopsChannel(deps.db, at);
}

// ---- Links

const LINK_PREFIX = 'dl_';

/** Mints a one-time link for one member and one revision; only the digest of the token is stored. */
async function mintLink(tx: Executor, review: ReviewRow, n: Pick<NotificationRow, 'user_id' | 'email' | 'id'>, now: Date): Promise<{ token: string; idPart: string }> {
  const idPart = randomToken(16);
  const token = `${LINK_PREFIX}${idPart}_${randomToken(32)}`;
  const deadline = review.deadline_at ? review.deadline_at.getTime() : Infinity;
  const revision = restoreReview(review).context.revision;
  await insertDecisionLink(tx, {
    org_id: review.org_id,
    project_id: review.project_id,
    id: `${LINK_PREFIX}${idPart}`,
    token_hash: sha256(token),
    review_id: review.id,
    revision,
    user_id: n.user_id,
    email: n.email,
    notification_id: n.id,
    expires_at: new Date(Math.min(deadline, now.getTime() + LINK_MAX_MS)),
  });
  return { token, idPart };
}

const linkUrl = (config: Config, token: string, action?: 'approve' | 'reject') =>
  `${config.publicBaseUrl}/v1/decide/${token}${action ? `?action=${action}` : ''}`;
export const consoleUrl = (config: Config, reviewId: string) => `${config.publicBaseUrl}/console/reviews/${encodeURIComponent(reviewId)}`;

// ---- Mail

type Addr = { email: string; name?: string | null };
const addrList = (v: unknown) => ((v as Addr[] | undefined) ?? []).map((a) => (a.name ? `${a.name} <${a.email}>` : a.email)).join(', ');
const quote = (text: string) => text.split('\n').slice(0, 40).map((l) => `> ${l}`).join('\n');

/** The part of a notice that shows one review: intent, recipients, the draft and what it answers. */
async function reviewBlock(db: Executor, review: ReviewRow, inboxAddress: string): Promise<string> {
  const c = restoreReview(review).context;
  const d = c.draft;
  const lines = [
    `From: ${inboxAddress}`,
    `To: ${addrList(d.to)}`,
    ...(addrList(d.cc) ? [`Cc: ${addrList(d.cc)}`] : []),
    `Subject: ${d.subject ?? ''}`,
    `Intent: ${c.intent?.summary ?? '(none)'}`,
    `Revision: ${c.revision}`,
    '',
    '--- draft ---',
    d.text ?? '',
    '--- end of draft ---',
  ];
  if (review.parent_message_id) {
    const parent = await findMessage(db, { org_id: review.org_id, inbox_id: review.inbox_id }, review.parent_message_id);
    if (parent) {
      lines.push('', `In answer to ${parent.from_email ?? ''} (${parent.subject ?? ''}):`, quote(parent.text ?? ''));
    }
  }
  return lines.join('\n');
}

async function noticeText(deps: NotifyDeps, tx: Executor, review: ReviewRow, inboxAddress: string, reason: NotifyReason, token: string | null): Promise<string> {
  const links = token
    ? [`Approve: ${linkUrl(deps.config, token, 'approve')}`, `Reject: ${linkUrl(deps.config, token, 'reject')}`]
    : [];
  return [
    `${HEADLINE[reason]}.`,
    '',
    await reviewBlock(tx, review, inboxAddress),
    '',
    ...links,
    `Open in the console: ${consoleUrl(deps.config, review.id)}`,
    '',
    ...(token ? ['Each link works once, for this revision only, and only for you.'] : []),
    ...(token ? ['You can also reply: "approve" on the first line approves, "reject" and your feedback rejects, anything else goes to the agent as a chat message.'] : []),
  ].join('\n');
}

export async function logNotice(tx: Executor, review: Pick<ReviewRow, 'org_id' | 'project_id' | 'id' | 'inbox_id'>, type: string, payload: Record<string, unknown>): Promise<void> {
  // Not a webhook type: the console's stream and the review's history carry it.
  await appendEventAtCommit(tx, { org_id: review.org_id, project_id: review.project_id, inbox_id: review.inbox_id, type, payload: { review_id: review.id, ...payload } });
}

/**
 * One notify job: every decider of the project, each once per job key. An instant member is mailed
 * in the transaction that records the notification (internal and outbox routes commit with it); a
 * digest member's notification waits for the digest run; an `off` member gets nothing.
 */
export async function performNotify(deps: NotifyDeps, job: NotifyJob, now = new Date()): Promise<string> {
  if (!deps.config.reviewNotifications) return 'disabled';
  const found = await findReviewWithInbox(deps.db, job.org_id, job.review_id);
  if (!found || !stillApplies(found.review, job)) return 'moot';
  const review = found.review;
  const address = found.inbox?.address ?? '';
  const { deciders, chatops } = await noticeTargets(deps.db, review.org_id, review.project_id);
  let sent = 0;
  let failed = false;
  for (const member of deciders) {
    if (member.mode === 'off') continue;
    // First the notification and its link commit, so a link is valid before its mail can arrive;
    // then the mail. A job run again finds the notification: sent ones are not sent again.
    const claim = async (tx: Executor) => {
      const key = { org_id: review.org_id, review_id: review.id, user_id: member.user_id, dedupe_key: job.key };
      const n =
        (await claimNotification(tx, {
          org_id: review.org_id,
          project_id: review.project_id,
          id: newId('ntf'),
          review_id: review.id,
          revision: job.revision,
          user_id: member.user_id,
          email: member.email,
          reason: job.reason,
          dedupe_key: job.key,
          delivery: member.mode === 'digest' ? 'digest' : 'instant',
        })) ?? (await findNotificationByKey(tx, key));
      if (!n || n.delivery === 'digest' || n.status !== 'pending') return null;
      const link = job.reason === 'auto_sent' ? null : await mintLink(tx, review, n, now);
      return { n, link };
    };
    // A notice without a link needs no transaction: its claim is one statement.
    const ready = job.reason === 'auto_sent' ? await claim(deps.db) : await withTransaction(deps.db, claim);
    if (!ready) continue;
    const { n, link } = ready;
    try {
      await withTransaction(deps.db, async (tx) => {
        if ((await lockStillPending(tx, review.org_id, [n.id])).length === 0) return;
        const text = await noticeText(deps, tx, review, address, job.reason, link?.token ?? null);
        const subject = `${HEADLINE[job.reason]}: ${restoreReview(review).context.draft.subject ?? '(no subject)'}`;
        // A reply to the notice decides too: its Reply-To names this link, signed.
        const reply_to = link ? replyAddress(encryptionKey(deps.config), deps.config.inboxDomain, link.idPart) : undefined;
        const route = await sendSystemMail(deps, tx, { org_id: review.org_id, project_id: review.project_id, inbox_id: null }, { to: member.email, subject, text, reply_to, kind: 'review_notice' }, now);
        await markNotifications(tx, review.org_id, [n.id], 'sent', route);
        await logNotice(tx, review, 'notification.sent', { notification_id: n.id, email: member.email, reason: job.reason, revision: job.revision, channel: 'mail' });
        sent++;
      });
    } catch (err) {
      if (!(err instanceof SystemMailError)) throw err;
      deps.log.warn({ review_id: review.id, err: err.message }, 'a review notification was not taken by the relay');
      failed = true;
    }
  }
  // A relay that refused is tried again by the job's retry; notices sent already are not repeated.
  if (failed) throw new Error('a review notification was not taken by the relay');
  // The chat-ops post is its own job: a webhook retried never mails the members again.
  if (chatops) {
    await withTransaction(deps.db, async (tx) => {
      await deps.queue.send(tx, JOBS.reviewChatops.name, job);
      await deps.queue.wake(tx, JOBS.reviewChatops.name);
    });
  }
  return sent > 0 ? 'sent' : 'none';
}

/**
 * Posts one notice to the project's chat-ops webhook, once per job key: the notification row is
 * claimed first, and a post that failed is retried by the queue without a second claim.
 */
export async function performChatops(deps: NotifyDeps, job: NotifyJob): Promise<string> {
  if (!deps.config.reviewNotifications) return 'disabled';
  const found = await findReviewWithInbox(deps.db, job.org_id, job.review_id);
  if (!found) return 'moot';
  const review = found.review;
  const channel = await findChatops(deps.db, review.org_id, review.project_id);
  if (!channel) return 'moot';
  const key = { org_id: review.org_id, review_id: review.id, user_id: '', dedupe_key: `chatops:${job.key}` };
  const claimed = await claimNotification(deps.db, {
    org_id: review.org_id,
    project_id: review.project_id,
    id: newId('ntf'),
    review_id: review.id,
    revision: job.revision,
    user_id: '',
    email: 'chatops',
    reason: job.reason,
    dedupe_key: key.dedupe_key,
    delivery: 'instant',
  });
  if (!claimed && (await notificationStatus(deps.db, key)) === 'sent') return 'done';
  const c = restoreReview(review).context;
  const text = [
    `*${HEADLINE[job.reason]}*`,
    `${found.inbox?.address ?? ''} to ${addrList(c.draft.to)}: ${c.draft.subject ?? '(no subject)'}`,
    `Intent: ${c.intent?.summary ?? '(none)'}`,
    `<${consoleUrl(deps.config, review.id)}|Open in the console>`,
  ].join('\n');
  const result = await postWebhook({
    url: channel.webhook_url,
    body: Buffer.from(JSON.stringify({ text })),
    headers: { 'Content-Type': 'application/json', 'User-Agent': 'agent-inbox' },
    timeoutMs: 10_000,
    allowPrivate: deps.config.webhookAllowPrivate,
  });
  if (result.status === null || result.status >= 300) throw new Error(`chat-ops post failed: ${result.error ?? result.status}`);
  await withTransaction(deps.db, async (tx) => {
    await markNotificationByKey(tx, key, 'chatops');
    await logNotice(tx, review, 'notification.sent', { reason: job.reason, revision: job.revision, channel: 'chatops' });
  });
  return 'sent';
}

/**
 * Sends every digest that is due by `now`: one mail per member and project with the reviews still
 * waiting (each with its own links); notices that no longer apply are dropped from it.
 */
export async function sendDueDigests(deps: NotifyDeps, now = new Date()): Promise<number> {
  if (!deps.config.reviewNotifications) return 0;
  let mails = 0;
  for (const who of await dueDigests(deps.db, now)) {
    // First the links commit (a link is valid before its mail can arrive), then the mail, sent
    // only for notices still pending under their lock: two digest runs never send the same ones.
    const ready = await withTransaction(deps.db, async (tx) => {
      const pending = await lockPendingDigest(tx, who);
      const parts: string[] = [];
      const used: string[] = [];
      const skipped: string[] = [];
      for (const n of pending) {
        const found = await findReviewWithInbox(tx, n.org_id, n.review_id);
        if (!found || !stillApplies(found.review, { reason: n.reason as NotifyReason, revision: n.revision })) {
          skipped.push(n.id);
          continue;
        }
        const link = n.reason === 'auto_sent' ? null : await mintLink(tx, found.review, n, now);
        parts.push(await noticeText(deps, tx, found.review, found.inbox?.address ?? '', n.reason as NotifyReason, link?.token ?? null));
        used.push(n.id);
      }
      if (skipped.length) await markNotifications(tx, who.org_id, skipped, 'skipped', null);
      return parts.length ? { parts, used, email: pending[0]!.email } : null;
    });
    if (!ready) continue;
    await withTransaction(deps.db, async (tx) => {
      if ((await lockStillPending(tx, who.org_id, ready.used)).length !== ready.used.length) return;
      const text = [`${ready.parts.length} review notice(s) since your last digest.`, '', ready.parts.join('\n\n==========\n\n')].join('\n');
      const route = await sendSystemMail(deps, tx, { org_id: who.org_id, project_id: who.project_id, inbox_id: null }, { to: ready.email, subject: `Review digest: ${ready.parts.length} notice(s)`, text, kind: 'review_notice' }, now);
      await markNotifications(tx, who.org_id, ready.used, 'sent', route);
      for (const n of await listNotificationsById(tx, who.org_id, ready.used)) {
        await logNotice(tx, { org_id: n.org_id, project_id: n.project_id, id: n.review_id, inbox_id: n.inbox_id }, 'notification.sent', { notification_id: n.id, email: n.email, reason: n.reason, revision: n.revision, channel: 'digest' });
      }
      mails++;
    });
  }
  return mails;
}

// ---- Using a link

export type LinkState =
  | { ok: true; link: DecisionLinkRow; review: ReviewRow; inboxAddress: string }
  | { ok: false; why: LinkRefusal; link?: DecisionLinkRow; review?: ReviewRow };

/** What a presented token names, and whether it may still decide. Reading it changes nothing. */
export async function readLink(db: Executor, token: string, now = new Date()): Promise<LinkState> {
  const m = /^dl_([0-9a-z]+)_([0-9a-z]+)$/.exec(token);
  if (!m) return { ok: false, why: 'invalid' };
  const link = await findDecisionLink(db, `${LINK_PREFIX}${m[1]}`);
  if (!link || !matchesHash(token, link.token_hash)) return { ok: false, why: 'invalid' };
  return checkLink(db, link, now);
}

/** Whether a stored link may still decide: unused, unexpired, its member a decider, its revision current and waiting. */
export async function checkLink(db: Executor, link: DecisionLinkRow, now = new Date(), opts: { spentCounts?: boolean } = {}): Promise<LinkState> {
  const found = await findReviewWithInbox(db, link.org_id, link.review_id);
  if (!found) return { ok: false, why: 'invalid' };
  const review = found.review;
  if (link.used_at && opts.spentCounts !== false) return { ok: false, why: 'used', link, review };
  if (link.expires_at <= now) return { ok: false, why: 'expired', link, review };
  if (!(await isDecider(db, link.org_id, link.project_id, link.user_id))) return { ok: false, why: 'not_member', link, review };
  const c = restoreReview(review).context;
  if (c.revision !== link.revision) return { ok: false, why: 'superseded', link, review };
  if (!WAITING.has(review.state)) return { ok: false, why: 'decided', link, review };
  return { ok: true, link, review, inboxAddress: found.inbox?.address ?? '' };
}

export type LinkRefusal = 'invalid' | 'used' | 'expired' | 'superseded' | 'decided' | 'not_member';
export type LinkOutcome = { ok: true; state: string } | { ok: false; why: LinkRefusal; detail?: string };

/**
 * Decides through a link: the same command as a console decision, as the link's member, on the
 * link's revision. The link is spent in the decision's transaction; a decision the review refuses
 * (revised meanwhile, decided by someone else) leaves everything as it was and says why.
 */
export async function decideByLink(s: ReviewServices, token: string, action: 'approve' | 'reject', feedback: string | null, now = new Date()): Promise<LinkOutcome> {
  const read = await readLink(s.db, token, now);
  if (!read.ok) {
    if (read.review) await withTransaction(s.db, (tx) => logNotice(tx, read.review!, 'notification.link_refused', { link_id: read.link?.id, email: read.link?.email, why: read.why }));
    return { ok: false, why: read.why };
  }
  const { link } = read;
  try {
    const row = await humanDecision(
      s,
      { org_id: link.org_id, project_id: link.project_id, email: link.email },
      link.review_id,
      { action, parent_revision: link.revision, feedback },
      {
        via: 'mail_link',
        async claim(tx: pg.PoolClient) {
          if (!(await useDecisionLink(tx, link.org_id, link.id, action))) throw new Problem('conflict', { detail: 'This link was used already.' });
          await logNotice(tx, read.review, 'notification.link_used', { link_id: link.id, email: link.email, action, revision: link.revision });
        },
      },
    );
    return { ok: true, state: row.state };
  } catch (err) {
    if (!(err instanceof Problem)) throw err;
    const why: LinkRefusal = err.code === 'stale' ? 'superseded' : err.code === 'conflict' ? 'used' : 'decided';
    await withTransaction(s.db, (tx) => logNotice(tx, read.review, 'notification.link_refused', { link_id: link.id, email: link.email, why }));
    return { ok: false, why, detail: err.message };
  }
}

/** The review's notification history: notices sent, and who decided through which channel. */
export async function notificationHistory(db: Executor, orgId: string, reviewId: string) {
  const [notices, decisions] = await Promise.all([listNotifications(db, orgId, reviewId), listDecisionChannels(db, orgId, reviewId)]);
  return {
    notifications: notices.map((n) => ({
      id: n.id,
      revision: n.revision,
      reason: n.reason,
      channel: n.user_id === '' ? 'chatops' : n.delivery === 'digest' ? 'digest' : 'mail',
      email: n.user_id === '' ? null : n.email,
      status: n.status,
      route: n.route,
      created_at: n.created_at,
      sent_at: n.sent_at,
    })),
    decisions: decisions.map((d) => ({ revision: d.revision, action: d.action, email: d.email, via: d.via, at: d.created_at })),
  };
}
