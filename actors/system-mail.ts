// System mail: messages the service sends on its own behalf (sign-up codes, invitations), from SYSTEM_FROM,
// through the same routes as approved mail: an address hosted here is delivered internally, any
// other goes to the relay (SMTP_URL) or, with no relay, to the local outbox. Never through the
// Review Loop. The body is never logged: it may hold a secret.
import type pg from 'pg';
import { signOutbound } from './signing-keys.ts';
import { composeSystemMessage } from '../mail/outbound/compose.ts';
import { RelayError, parseSmtpUrl, sendViaRelay } from '../mail/outbound/relay.ts';
import { ingestMessageIn } from './ingest.ts';
import type { Config } from '../service/config.ts';
import { observeNotification } from '../service/metrics.ts';
import type { Queue } from '../service/queue.ts';
import { newId } from '../storage/ids.ts';
import { findInboxesByAddress } from '../storage/inboxes.ts';
import { insertOutbox } from '../storage/review-deliveries.ts';

/** What a system mail is about, counted in /metrics (agent_inbox_notifications_total). */
export type NotificationKind = 'signup_code' | 'invitation' | 'quota_notice' | 'support_status' | 'delivery_notice' | 'review_notice';

/** `reply_to`: where a reply goes instead of SYSTEM_FROM (a review notice's signed reply address). */
export type SystemMail = { to: string; subject: string; text: string; kind?: NotificationKind; reply_to?: string };

/** Where the mail went; it throws `SystemMailError` when the relay refused or could not be reached. */
export type SystemMailRoute = 'internal' | 'relay' | 'outbox';

export class SystemMailError extends Error {}

/**
 * Sends one system mail. `tx` is the caller's open transaction: internal delivery and the outbox
 * commit with it; a relay hand-over happens at once (it cannot be rolled back).
 * `owner` is the tenant the outbox row is filed under.
 */
export async function sendSystemMail(
  deps: { config: Config; queue: Queue },
  tx: pg.PoolClient,
  owner: { org_id: string; project_id: string; inbox_id: string | null },
  mail: SystemMail,
  now: Date,
): Promise<SystemMailRoute> {
  const kind = mail.kind ?? 'other';
  try {
    const route = await sendOne(deps, tx, owner, mail, now);
    observeNotification(kind, route);
    return route;
  } catch (err) {
    observeNotification(kind, 'failed');
    throw err;
  }
}

async function sendOne(
  deps: { config: Config; queue: Queue },
  tx: pg.PoolClient,
  owner: { org_id: string; project_id: string; inbox_id: string | null },
  mail: SystemMail,
  now: Date,
): Promise<SystemMailRoute> {
  const domain = deps.config.systemFrom.split('@')[1];
  const messageId = `<${newId('sys')}@${domain}>`;
  const composed = await composeSystemMessage({ from: deps.config.systemFrom, to: mail.to, subject: mail.subject, text: mail.text, message_id: messageId, date: now, reply_to: mail.reply_to });
  // Signed when DKIM_PRIVATE_KEY is set and the sender is on INBOX_DOMAIN.
  const raw = await signOutbound(tx, deps.config, { ...owner, domain: domain ?? '' }, composed);
  const hosted = await findInboxesByAddress(tx, [mail.to]);
  if (hosted.length > 0) {
    await ingestMessageIn(tx, deps.queue, { raw, recipients: hosted, envelope_from: deps.config.systemFrom });
    return 'internal';
  }
  if (deps.config.smtpUrl) {
    try {
      await sendViaRelay(parseSmtpUrl(deps.config.smtpUrl), { from: deps.config.systemFrom, to: [mail.to] }, raw, async () => {});
    } catch (err) {
      if (err instanceof RelayError) throw new SystemMailError(`the relay did not take the mail: ${err.response ?? err.message}`);
      throw err;
    }
    return 'relay';
  }
  await insertOutbox(tx, {
    ...owner,
    id: newId('obx'),
    review_id: null,
    message_id: messageId,
    envelope_from: deps.config.systemFrom,
    envelope_to: [mail.to],
    subject: mail.subject,
    raw,
  });
  return 'outbox';
}
