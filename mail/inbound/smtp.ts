// The inbound SMTP server: protocol by smtp-server, policy in ./policies, storage by the ingest
// the SMTP role gives it (actors/ingest-batcher.ts).
// A 250 after DATA means the message is committed; any failure before that is a 4xx, so the
// sending server keeps the message and retries. A retry of a mail already stored (the sender
// lost the connection before our 250) is answered 250 with that copy, not stored again.
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { type SMTPServerDataStream, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server';
import type { Config } from '../../service/config.ts';
import type { Pool } from '../../storage/db.ts';
import { libraryLogger, type Logger } from '../../service/logger.ts';
import { observeSmtpMessage, observeSmtpRecipient, observeSmtpSession } from '../../service/metrics.ts';
import type { InboxRow } from '../../storage/inboxes.ts';
import { parseMessage, unparsedMail, type ParsedMail } from '../parse.ts';
import { inboundVerifier, type Authentication } from './authentication.ts';
import { InboundQuotaError } from './policies/over-quota.ts';
import { looksLikeReturnPath, returnPathKeyOf, verifyReturnPath } from '../outbound/return-path.ts';
import { mayBeReport } from '../reports.ts';
import { failsOnContent, refusedForGood } from './policies/content-error.ts';
import { hostedRecipients } from './policies/hosted-recipient.ts';
import { PromptGreetingServer } from './prompt-greeting.ts';
import { isHangUp, smtpServerLogger } from './smtp-log.ts';
import type { ReplyHandler } from './reply-address.ts';
import { MAX_MESSAGE_BYTES, boundedCollector } from './policies/message-size.ts';
import { smtpError, tryAgainLater } from './policies/smtp-error.ts';

export type InboundSmtp = { address: AddressInfo; close(): Promise<void> };

/**
 * Stores a received message in each recipient inbox and resolves once it is committed (the SMTP
 * role gives actors/ingest-batcher.ts); rejects with InboundQuotaError past the receiving org's plan.
 */
export type InboundIngest = (m: {
  raw: Buffer;
  parsed: ParsedMail;
  recipients: InboxRow[];
  envelope_from: string | null;
  recognise_retries: true;
  authentication: Authentication | null;
}) => Promise<{ id: string }[]>;

/**
 * Records a bounce or complaint against the send it reports (actors/delivery-reports.ts, given by
 * the SMTP role). `linked`: recorded, not to be stored as mail; `inbox`: where an unlinked one goes.
 */
export type ReportHandler = (m: { raw: Buffer; envelope_from: string | null; claimed: string | null; receiving: InboxRow | null }) => Promise<{ linked: boolean; inbox: InboxRow | null }>;

// Recipients accepted in the current transaction; the envelope object is replaced after each one.
const accepted = new WeakMap<object, Map<string, InboxRow>>();
// Return paths accepted (the review each names): bounces and complaints of mail sent from here.
const returnPaths = new WeakMap<object, string>();
// Signed reply addresses accepted in the current transaction: their mail goes to `replies`, not to an inbox.
const replyTo = new WeakMap<object, string[]>();

export async function startInboundSmtp(
  s: { db: Pool; config: Config; log: Logger; ingest: InboundIngest; onQuotaRefusal?: (err: InboundQuotaError) => Promise<unknown>; replies?: ReplyHandler; reports?: ReportHandler },
  opts: { maxMessageBytes?: number } = {},
): Promise<InboundSmtp> {
  const log = s.log.child({ component: 'smtp' });
  const size = opts.maxMessageBytes ?? MAX_MESSAGE_BYTES;
  const tls = s.config.smtpTlsKey && s.config.smtpTlsCert
    ? { key: fs.readFileSync(s.config.smtpTlsKey), cert: fs.readFileSync(s.config.smtpTlsCert) }
    : null;

  const hostedRecipient = hostedRecipients(s.db);
  const verify = s.config.inboundAuth ? inboundVerifier(s.config) : null;
  const earlyTalkerDelay = s.config.smtpEarlyTalkerDelayMs;
  const options: SMTPServerOptions = {
    name: s.config.inboxDomain,
    banner: 'agent-inbox',
    size,
    rejectOversized: true,
    authOptional: true,
    disabledCommands: tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    hideSTARTTLS: !tls,
    ...(tls ?? {}),
    // A reverse lookup per connection adds latency and nothing here uses the name.
    disableReverseLookup: true,
    // Replies carry RFC 3463 codes (550 5.1.1, 552 5.3.4, 451 4.3.0) that senders act on.
    hideENHANCEDSTATUSCODES: false,
    // Its lines carry their own component (smtp-server) and the client's hostname.
    logger: smtpServerLogger(libraryLogger(s.log, 'client')),
    // Stopping waits this long for transactions in flight, then closes with 421.
    closeTimeout: 5_000,

    onConnect(_session, callback) {
      observeSmtpSession();
      // Until the greeting, a command is refused with 421 (an early talker); see ./prompt-greeting.ts.
      if (earlyTalkerDelay > 0) setTimeout(callback, earlyTalkerDelay);
      else callback();
    },

    onRcptTo(address, session, callback) {
      // Checked by its signature alone: no lookup, and a forged one is as unknown as any other address.
      const claim = looksLikeReturnPath(address.address) ? verifyReturnPath(returnPathKeyOf(s.config), address.address) : null;
      if (claim) {
        returnPaths.set(session.envelope, claim.review_id);
        observeSmtpRecipient('accepted');
        return callback();
      }
      if (s.replies?.accepts(address.address)) {
        const list = replyTo.get(session.envelope) ?? [];
        replyTo.set(session.envelope, [...list, address.address.toLowerCase()]);
        observeSmtpRecipient('accepted');
        return callback();
      }
      hostedRecipient(address.address).then(
        (inbox) => {
          let map = accepted.get(session.envelope);
          if (!map) accepted.set(session.envelope, (map = new Map()));
          map.set(address.address.toLowerCase(), inbox);
          observeSmtpRecipient('accepted');
          callback();
        },
        (err) => {
          observeSmtpRecipient('rejected', err.responseCode === 550 ? 'unknown_recipient' : err.responseCode === 450 ? 'pending_inbox' : 'lookup_failed');
          callback(err);
        },
      );
    },

    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
      const data = boundedCollector(size);
      stream.on('data', (chunk: Buffer) => data.push(chunk));
      stream.on('error', (err) => {
        observeSmtpMessage('rejected', 'read_failed');
        callback(tryAgainLater(`Reading the message failed (${err.message})`));
      });
      stream.on('end', () => {
        // The server answers 552 itself (rejectOversized); nothing is stored.
        if (stream.sizeExceeded || data.oversized()) {
          observeSmtpMessage('rejected', 'too_large');
          return callback(null);
        }
        const hosted = [...(accepted.get(session.envelope)?.values() ?? [])];
        const claimed = returnPaths.get(session.envelope) ?? null;
        const envelopeFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address || null : null;
        const raw = data.take();
        // Verdicts are looked up while the message is parsed; both finish within the verifier's bound.
        const verdicts = verify
          ? verify(raw, { ip: session.remoteAddress, helo: session.hostNameAppearsAs || null, mail_from: envelopeFrom })
          : Promise.resolve(null);
        let authentication: Authentication | null = null;
        let recipients = hosted;
        const replies = replyTo.get(session.envelope) ?? [];
        // A message only to reply addresses is taken by the reply handler and stored in no inbox.
        let repliesTaken = false;
        const store = async (parsed: ParsedMail) => {
          // Taken once: a store retried unparsed does not decide a second time.
          if (replies.length > 0 && !repliesTaken) {
            repliesTaken = true;
            await s.replies!.take({ raw, parsed, to: replies, envelope_from: envelopeFrom, authentication });
          }
          return recipients.length > 0 ? s.ingest({ raw, parsed, recipients, envelope_from: envelopeFrom, recognise_retries: true, authentication }) : [];
        };
        // Parsed here, while an earlier message may still be committing.
        Promise.all([parseMessage(raw), verdicts])
          .then(async ([parsed, auth]) => {
            authentication = auth;
            // A bounce or complaint of mail sent from here is recorded against its send rather than
            // stored as mail; read only when sent to a return path or shaped like a report.
            if (s.reports && (claimed || (hosted.length === 1 && mayBeReport({ envelope_from: envelopeFrom, headers: parsed.headers, subject: parsed.subject })))) {
              const taken = await s.reports({ raw, envelope_from: envelopeFrom, claimed, receiving: claimed ? null : hosted[0]! });
              if (taken.linked) recipients = claimed ? hosted : [];
              else if (taken.inbox && !hosted.some((h) => h.id === taken.inbox!.id)) recipients = [...hosted, taken.inbox];
            }
            return store(parsed);
          })
          .catch((err) => {
            if (!failsOnContent(err)) throw err;
            log.warn({ cid: session.id, err }, 'the parsed message could not be stored; storing it unparsed');
            return store(unparsedMail(`the parsed message could not be stored: ${(err as Error).message}`));
          })
          .then(
            (stored) => {
              log.info({ cid: session.id, client: session.remoteAddress, bytes: data.bytes(), messages: stored.map((m) => m.id) }, 'message stored');
              observeSmtpMessage('accepted');
              callback(null, stored.length > 0 ? `OK: stored as ${stored.map((m) => m.id).join(' ')}` : replies.length > 0 ? 'OK: reply taken' : 'OK: report recorded');
            },
            (err) => {
              if (err instanceof InboundQuotaError) {
                // Temporary: the sender keeps the message and retries once the quota allows.
                observeSmtpMessage('rejected', 'over_quota');
                log.info({ cid: session.id, org_id: err.org_id, kind: err.kind }, 'message refused over quota');
                s.onQuotaRefusal?.(err).catch((e: Error) => log.warn({ err: e.message }, 'the over-quota notice could not be recorded'));
                return callback(smtpError(452, `Mailbox over quota: ${err.message}; try again later`));
              }
              log.error({ cid: session.id, err }, 'storing a message failed');
              observeSmtpMessage('rejected', failsOnContent(err) ? 'unstorable' : 'store_failed');
              callback(failsOnContent(err) ? refusedForGood('The message cannot be stored') : tryAgainLater('The message could not be stored'));
            },
          );
      });
    },
  };

  const server = new PromptGreetingServer(options);
  // A client hanging up mid-transaction is reported here too, and was logged as such (./smtp-log.ts).
  server.on('error', (err) => isHangUp(err) || log.warn({ err: err.message }, 'smtp server error'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(s.config.smtpPort, s.config.smtpHost, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.server.address() as AddressInfo;
  log.info({ host: address.address, port: address.port, starttls: !!tls, size }, 'SMTP listening');
  return {
    address,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
