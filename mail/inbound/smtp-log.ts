// What smtp-server logs, reduced to what an operator reads: its lines for each connection
// (opened, closed) are debug, since a stored message gets its own info line with the client; a
// client that hangs up, at any point of its session, is one info line and not an error with a stack.
import type { SMTPServerOptions } from 'smtp-server';
import type { Logger } from '../../service/logger.ts';

// The socket errors of a peer that went away, as smtp-server itself counts them.
const HANG_UPS = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

export const isHangUp = (err: unknown): boolean => HANG_UPS.has(String((err as { code?: unknown } | null)?.code));

/** The logger for smtp-server's `logger` option, on top of `log` (see libraryLogger). */
export function smtpServerLogger(log: Logger): SMTPServerOptions['logger'] {
  return {
    level: (level: string) => (log.level = level),
    trace: log.trace.bind(log),
    debug: log.debug.bind(log),
    info: log.debug.bind(log),
    warn: log.warn.bind(log),
    error: (obj: { err?: { code?: string; remoteAddress?: string } } | undefined, msg?: string, ...args: unknown[]) => {
      const err = obj?.err;
      if (isHangUp(err)) log.info({ code: err!.code, remote: err!.remoteAddress }, 'the client hung up');
      else log.error(obj ?? {}, msg, ...args);
    },
    fatal: log.fatal.bind(log),
  };
}
