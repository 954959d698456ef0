// Deciding by replying to a review notification. The notice's Reply-To is a signed address naming
// one decision link (review, revision, member). A reply counts only when its From is the member's
// address and inbound SMTP's verdicts vouch for it (DMARC pass, or SPF or DKIM aligned with the From
// domain), and only for the revision the notice was about. Its first line decides: `approve`, or
// `reject` followed by feedback; anything else goes to the composing agent as a chat message.
// A reply that does not count changes nothing; the member gets a short system mail saying why
// (never the From address, which may be forged).
import { Problem } from '../machines/problems.ts';
import type { Authentication } from '../mail/inbound/authentication.ts';
import { replyLinkPart, type ReplyHandler, type ReplyMessage } from '../mail/inbound/reply-address.ts';
import { encryptionKey } from '../service/encryption.ts';
import { withTransaction } from '../storage/db.ts';
import { findDecisionLink, useDecisionLink, type DecisionLinkRow } from '../storage/notifications.ts';
import { checkLink, consoleUrl, logNotice, type NotifyDeps } from './notifications.ts';
import { humanDecision } from './reviews/decisions.ts';
import { SystemMailError, sendSystemMail } from './system-mail.ts';

export type ReplyCommand = { action: 'approve' } | { action: 'reject'; feedback: string | null } | { action: 'chat'; message: string };

/** The reply's own words: what comes before the quoted notice. */
function ownText(text: string): string[] {
  const lines: string[] = [];
  for (const line of text.replace(/\r\n/g, '\n').split('\n')) {
    if (/^\s*>/.test(line) || /^On .+wrote:\s*$/.test(line) || /^-{2,}\s*Original Message/i.test(line)) break;
    lines.push(line);
  }
  return lines;
}

/** What a reply asks for, read off its first line. */
export function parseReply(text: string | null): ReplyCommand | null {
  const lines = ownText(text ?? '');
  while (lines.length && lines[0]!.trim() === '') lines.shift();
  const body = lines.join('\n').trim();
  if (!body) return null;
  const first = lines[0]!.trim();
  if (/^approve[.!]?$/i.test(first)) return { action: 'approve' };
  const reject = /^reject\b[\s:.,-]*(.*)$/i.exec(first);
  if (reject) {
    const feedback = [reject[1] ?? '', ...lines.slice(1)].join('\n').trim();
    return { action: 'reject', feedback: feedback || null };
  }
  return { action: 'chat', message: body };
}

const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();
const aligned = (domain: string | null, from: string) => !!domain && (domain === from || from.endsWith(`.${domain}`) || domain.endsWith(`.${from}`));

/** DMARC pass (or DKIM of the From domain without DMARC), or a passing SPF or DKIM aligned with the From domain. */
export function vouchedFor(auth: Authentication | null, from: string): boolean {
  if (!auth) return false;
  const d = domainOf(from);
  return auth.authenticated || (auth.spf.result === 'pass' && aligned(auth.spf.domain, d)) || (auth.dkim.result === 'pass' && aligned(auth.dkim.domain, d));
}

const WHY_LINK: Record<string, string> = {
  used: 'the notice it answers was used already',
  expired: 'the notice it answers has expired',
  superseded: 'the draft was revised after the notice you answered; reply to the newest notice',
  decided: 'the review is no longer waiting for a decision',
  not_member: 'you may no longer decide on reviews of this project',
  invalid: 'the review is gone',
};

async function refuse(deps: NotifyDeps, link: DecisionLinkRow, reviewRow: Parameters<typeof logNotice>[1] | undefined, why: string): Promise<void> {
  await withTransaction(deps.db, async (tx) => {
    if (reviewRow) await logNotice(tx, reviewRow, 'notification.reply_refused', { link_id: link.id, email: link.email, why });
    try {
      await sendSystemMail(
        deps,
        tx,
        { org_id: link.org_id, project_id: link.project_id, inbox_id: null },
        {
          to: link.email,
          subject: 'Your reply to a review notice was not taken',
          text: `A reply to the notice about review ${link.review_id} (revision ${link.revision}) was not taken: ${why}. Nothing was changed.\n\nOpen in the console: ${consoleUrl(deps.config, link.review_id)}\n`,
          kind: 'review_notice',
        },
        new Date(),
      );
    } catch (err) {
      if (!(err instanceof SystemMailError)) throw err;
      deps.log.warn({ review_id: link.review_id, err: err.message }, 'a reply refusal notice was not taken by the relay');
    }
  });
}

/** Takes one reply sent to the reply address of `link`. */
export async function takeReply(deps: NotifyDeps, link: DecisionLinkRow, m: Pick<ReplyMessage, 'parsed' | 'authentication'>, now = new Date()): Promise<'taken' | 'refused'> {
  const state = await checkLink(deps.db, link, now, { spentCounts: false });
  const review = state.ok ? state.review : state.review;
  const from = m.parsed.from?.email?.toLowerCase() ?? '';
  if (from !== link.email.toLowerCase()) {
    await refuse(deps, link, review, `it came from ${from || 'no address'}, not from the address the notice was sent to`);
    return 'refused';
  }
  if (!vouchedFor(m.authentication, from)) {
    await refuse(deps, link, review, 'its sender could not be verified (no DMARC pass, and no SPF or DKIM aligned with the From domain)');
    return 'refused';
  }
  if (!state.ok) {
    await refuse(deps, link, review, WHY_LINK[state.why] ?? state.why);
    return 'refused';
  }
  const command = parseReply(m.parsed.text);
  if (!command) {
    await refuse(deps, link, review, 'it was empty: reply "approve", "reject" with feedback, or a message for the agent');
    return 'refused';
  }
  const s = { db: deps.db, queue: deps.queue, config: deps.config };
  const at = { org_id: link.org_id, project_id: link.project_id, email: link.email };
  const taken = (tx: Parameters<typeof logNotice>[0]) => logNotice(tx, state.review, 'notification.reply_taken', { link_id: link.id, email: link.email, action: command.action, revision: link.revision });
  try {
    if (command.action === 'chat') {
      // A chat begins from in_review: the member's reply opens the review first.
      if (state.review.state === 'needs_review') await humanDecision(s, at, link.review_id, { action: 'open', parent_revision: link.revision }, { via: 'mail_reply' });
      await humanDecision(s, at, link.review_id, { action: 'chat', parent_revision: link.revision, message: command.message }, { via: 'mail_reply', claim: taken });
    } else {
      const feedback = command.action === 'reject' ? command.feedback : null;
      await humanDecision(s, at, link.review_id, { action: command.action, parent_revision: link.revision, feedback }, {
        via: 'mail_reply',
        async claim(tx) {
          if (!(await useDecisionLink(tx, link.org_id, link.id, command.action))) throw new Problem('conflict', { detail: 'The notice was used already.' });
          await taken(tx);
        },
      });
    }
    return 'taken';
  } catch (err) {
    if (!(err instanceof Problem)) throw err;
    const why = err.code === 'stale' ? WHY_LINK.superseded! : err.code === 'conflict' ? WHY_LINK.used! : `the review refused it (${err.message})`;
    await refuse(deps, link, state.review, why);
    return 'refused';
  }
}

/** The inbound SMTP side: signed reply addresses are accepted at RCPT and their mail taken here. */
export function replyHandler(deps: NotifyDeps): ReplyHandler {
  const key = () => encryptionKey(deps.config);
  return {
    accepts: (address) => replyLinkPart(key(), deps.config.inboxDomain, address) !== null,
    async take(m) {
      for (const address of m.to) {
        const idPart = replyLinkPart(key(), deps.config.inboxDomain, address);
        const link = idPart ? await findDecisionLink(deps.db, `dl_${idPart}`) : null;
        if (!link) continue;
        await takeReply(deps, link, m);
      }
    },
  };
}
