import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';

export type { Logger };

// Secrets never reach a log line, whatever object carries them.
const REDACT = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  'token',
  'secret',
  'password',
  'agent_key',
  'hmac_secret',
  '*.token',
  '*.secret',
  '*.password',
  '*.agent_key',
  '*.hmac_secret',
];

/**
 * JSON lines on stdout, or, with `pretty` (a terminal, LOG_PRETTY=1), lines for people, formatted
 * in this process (synchronously, so nothing is lost when the process exits). `destination` is for
 * tests reading what was logged.
 */
export function createLogger(level: string, destination?: NodeJS.WritableStream, prettyLines = false): Logger {
  const options = { level, redact: { paths: REDACT, censor: '[redacted]' } };
  if (destination) return pino(options, destination);
  if (prettyLines) return pino(options, pretty({ sync: true, colorize: process.stdout.isTTY === true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }));
  return pino(options);
}

// Keys every line already carries (pino's base); a library logging its own would repeat them.
const BASE_KEYS = new Set(['level', 'time', 'pid', 'hostname', 'msg']);

/**
 * A logger for a library that logs objects of its own (smtp-server logs the peer's `hostname`):
 * its keys that clash with the line's base keys get a prefix, so each key appears once.
 */
export function libraryLogger(log: Logger, prefix: string): Logger {
  return log.child(
    {},
    { formatters: { log: (obj) => Object.fromEntries(Object.entries(obj).map(([k, v]) => [BASE_KEYS.has(k) ? `${prefix}_${k}` : k, v])) } },
  );
}
