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

export function createLogger(level: string): Logger {
  return pino({ level, redact: { paths: REDACT, censor: '[redacted]' } });
}
