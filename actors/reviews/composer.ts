// The composer's verbs on its own reviews: cancel, restamp, chat and revise.
import type { FieldError } from '../../machines/problems.ts';
import { Problem } from '../../machines/problems.ts';
import { intentErrors } from '../../machines/policy/intent-gate.ts';
import { checkRecipientLimit } from '../../machines/policy/recipient-limit.ts';
import { resolveTextAlias, type Recipient } from '../../machines/policy/send-body.ts';
import type { ReviewContext, ReviewEvent } from '../../machines/review-request.ts';
import { countRevisionRecipients, findReview, inboxSendLock, type ReviewScope } from '../../storage/reviews.ts';
import { claimBornStale } from '../../storage/rules.ts';
import { sendAllowances, settleReservation } from '../../storage/usage.ts';
import { revisedRecipients } from '../recipients.ts';
import { chooseRoute } from '../review-links.ts';
import { recipientLimitError, reserveWithinCaps } from '../send-caps.ts';
import type { SendBody } from '../send.ts';
import { applyVerb, type ReviewServices } from './apply.ts';
import { currentRulesVersion } from './rules-standing.ts';

/** The composer's reach: its own agent's reviews, and one inbox for an inbox key. */
export type ComposerScope = { org_id: string; project_id: string | null; agent_id: string; inbox_id: string | null };

const composerScope = (c: ComposerScope): ReviewScope => ({ org_id: c.org_id, project_id: c.project_id, agent_id: c.agent_id, inbox_id: c.inbox_id });

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
        const lists = input.to !== undefined || input.cc !== undefined ? await revisedRecipients(tx, row, input, current, allowances.allowed_domains) : current;
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
