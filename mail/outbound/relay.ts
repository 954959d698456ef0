// Sending through the configured relay (SMTP_URL) with nodemailer's SMTP connection. The message
// body is held back until the relay has accepted DATA and the caller has recorded that it is about
// to hand the message over: a crash before that point left nothing at the relay (safe to send
// again), a crash after it may have (never sent again; the review is parked instead).
import { Readable } from 'node:stream';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { classifySmtpError, type DeliveryOutcome } from '../../machines/policy/delivery-outcome.ts';

export type RelayConfig = {
  host: string;
  port: number;
  secure: boolean;
  auth: { user: string; pass: string } | null;
  ignoreTLS: boolean;
  requireTLS: boolean;
  rejectUnauthorized: boolean;
};

/**
 * `smtp://[user:pass@]host[:port]` (port 587 by default, STARTTLS when offered) or
 * `smtps://...` (TLS from the start, port 465). Query options: `ignore_tls=true`,
 * `require_tls=true`, `tls_reject_unauthorized=false`.
 */
export function parseSmtpUrl(raw: string): RelayConfig {
  const url = new URL(raw);
  const scheme = url.protocol.replace(/:$/, '');
  if (scheme !== 'smtp' && scheme !== 'smtps') throw new Error(`SMTP_URL must start with smtp:// or smtps://, got "${scheme}://"`);
  if (!url.hostname) throw new Error('SMTP_URL must name a host');
  const secure = scheme === 'smtps';
  const flag = (name: string, fallback: boolean) => {
    const v = url.searchParams.get(name);
    return v === null ? fallback : ['1', 'true', 'yes', 'on'].includes(v.toLowerCase());
  };
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : null,
    ignoreTLS: flag('ignore_tls', false),
    requireTLS: flag('require_tls', false),
    rejectUnauthorized: flag('tls_reject_unauthorized', true),
  };
}

/** A relay URL with its password hidden, for logs. */
export function describeRelay(raw: string): string {
  const url = new URL(raw);
  if (url.password) url.password = '***';
  return url.toString();
}

export class RelayError extends Error {
  constructor(
    message: string,
    readonly outcome: DeliveryOutcome,
    readonly responseCode: number | null,
    readonly response: string | null,
  ) {
    super(message);
  }
}

export type RelayResult = { response: string; accepted: string[]; rejected: string[] };

type SmtpError = Error & { responseCode?: number; response?: string; code?: string };

const TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };

// Sessions with the relay are kept open between messages: opening one costs a TCP handshake, the
// greeting (relays pause it on purpose, smtp-server by 100 ms, postfix's postscreen by seconds)
// and EHLO, which would otherwise be most of the time from a human's approval to the relay.
const IDLE_MS = 30_000;
// As many as review deliveries run at once in a process (actors/workers/review-delivery.ts).
const MAX_IDLE = 16;

type Session = { conn: SMTPConnection; alive: boolean; idle: NodeJS.Timeout | null };
const idleSessions = new Map<string, Session[]>();

const keyOf = (relay: RelayConfig) => JSON.stringify(relay);

async function openSession(relay: RelayConfig): Promise<Session> {
  const conn = new SMTPConnection({
    host: relay.host,
    port: relay.port,
    secure: relay.secure,
    ignoreTLS: relay.ignoreTLS,
    requireTLS: relay.requireTLS,
    tls: { rejectUnauthorized: relay.rejectUnauthorized },
    ...TIMEOUTS,
  });
  const session: Session = { conn, alive: true, idle: null };
  const lost = () => {
    session.alive = false;
    if (session.idle) clearTimeout(session.idle);
    const list = idleSessions.get(keyOf(relay));
    if (list?.includes(session)) list.splice(list.indexOf(session), 1);
  };
  // Errors of a send arrive at its callback; these only mark the session unusable.
  conn.on('error', lost);
  conn.on('end', lost);
  try {
    await untilSettled(conn, (done) => conn.connect(done));
    if (relay.auth) {
      const auth = relay.auth;
      await untilSettled(conn, (done) => conn.login({ credentials: auth } as never, done));
    }
  } catch (err) {
    conn.close();
    // Nothing was handed over before the session existed; a refused login is the operator's to fix.
    throw new RelayError((err as Error).message, 'deferred', (err as SmtpError).responseCode ?? null, (err as SmtpError).response ?? null);
  }
  return session;
}

/**
 * Runs one step of opening a session. nodemailer reports a connection lost during the greeting's
 * reply, EHLO or AUTH as an 'error' event only, never to the step's callback, which would wait
 * for ever (and a stopping service on it): the step fails on 'error' or 'end' too.
 */
function untilSettled(conn: SMTPConnection, step: (done: (err?: Error | null) => void) => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const fail = (err?: Error) => {
      settle();
      reject(err ?? Object.assign(new Error('the relay closed the connection while the session was being opened'), { code: 'ECONNECTION' }));
    };
    const settle = () => {
      conn.off('error', fail);
      conn.off('end', fail);
    };
    conn.once('error', fail);
    conn.once('end', fail);
    step((err) => {
      settle();
      if (err) reject(err);
      else resolve();
    });
  });
}

function takeIdle(relay: RelayConfig): Session | null {
  const list = idleSessions.get(keyOf(relay)) ?? [];
  for (let s = list.pop(); s; s = list.pop()) {
    if (s.idle) clearTimeout(s.idle);
    if (s.alive) return s;
  }
  return null;
}

function keepIdle(relay: RelayConfig, session: Session): void {
  const key = keyOf(relay);
  const list = idleSessions.get(key) ?? [];
  idleSessions.set(key, list);
  if (!session.alive || list.length >= MAX_IDLE) return session.conn.quit();
  session.idle = setTimeout(() => {
    list.splice(list.indexOf(session), 1);
    session.conn.quit();
  }, IDLE_MS);
  session.idle.unref();
  list.push(session);
}

/** Ends every idle relay session of this process (at shutdown). */
export function closeRelaySessions(): void {
  for (const list of idleSessions.values()) {
    for (const s of list.splice(0)) {
      if (s.idle) clearTimeout(s.idle);
      s.conn.quit();
    }
  }
}

/**
 * Sends `raw` to the relay. `beforeHandOver` runs once the relay has accepted DATA and before
 * the first byte of the message leaves; the send fails (as not handed over) if it throws. A kept
 * session the relay closed meanwhile is noticed before anything is handed over, and the message
 * goes once more on a new session.
 */
export async function sendViaRelay(
  relay: RelayConfig,
  envelope: { from: string; to: string[] },
  raw: Buffer,
  beforeHandOver: () => Promise<void>,
): Promise<RelayResult> {
  let kept = takeIdle(relay);
  for (;;) {
    const session = kept ?? (await openSession(relay));
    let handedOver = false;
    let started = false;
    const body = new Readable({
      read() {
        if (started) return;
        started = true;
        beforeHandOver().then(
          () => {
            handedOver = true;
            this.push(raw);
            this.push(null);
          },
          (err: Error) => this.destroy(err),
        );
      },
    });
    try {
      const info = await new Promise<RelayResult>((resolve, reject) =>
        session.conn.send(envelope, body, (err, result) =>
          err ? reject(err) : resolve({ response: String(result?.response ?? ''), accepted: toList(result?.accepted), rejected: toList(result?.rejected) }),
        ),
      );
      keepIdle(relay, session);
      return info;
    } catch (caught) {
      const err = caught as SmtpError;
      session.alive = false;
      session.conn.close();
      if (session === kept && !handedOver && err.responseCode == null) {
        kept = null;
        continue;
      }
      throw new RelayError(err.message, classifySmtpError(err, handedOver), err.responseCode ?? null, err.response ?? null);
    }
  }
}

const toList = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : String((x as { address?: string }).address ?? x))) : []);

/**
 * Says at start where mail for other domains goes, and stops the start on an unusable SMTP_URL.
 * Without a relay it is kept in the local outbox (`agent-inbox outbox` reads it).
 */
export function logOutboundRoute(
  smtpUrl: string | null,
  log: { info(o: object, msg: string): void; warn(o: object, msg: string): void },
): void {
  if (smtpUrl) {
    parseSmtpUrl(smtpUrl);
    log.info({ relay: describeRelay(smtpUrl) }, 'outbound mail to other domains goes through the SMTP_URL relay');
  } else {
    log.warn({}, 'no SMTP_URL relay configured: outbound mail to other domains is kept in the local outbox (read it with `agent-inbox outbox`); mail to inboxes hosted here is delivered internally');
  }
}
