import { pino, type Logger } from 'pino';

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

/** `destination` defaults to stdout; tests pass a stream to read what was logged. */
export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  const options = { level, redact: { paths: REDACT, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}
