// Configuration is read from the environment once, validated, and passed down as one typed object.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_PLANS, PLAN_TIERS, parsePlans, type PlanTier, type Plans } from '../machines/policy/plans.ts';

/** The package's folder: the default DATA_DIR lives here, whatever folder a command runs from. */
export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

export type Config = {
  host: string;
  port: number;
  smtpHost: string;
  smtpPort: number;
  databaseUrl: string | null;
  /** How long start-up keeps retrying an unreachable DATABASE_URL before it gives up. */
  databaseConnectTimeoutSeconds: number;
  dataDir: string;
  inboxDomain: string;
  smtpUrl: string | null;
  publicBaseUrl: string;
  consoleJwksUrl: string | null;
  consoleIssuer: string | null;
  webhookAllowPrivate: boolean;
  /** Whether deciders are told of waiting reviews (mail, digest, chat-ops); on unless REVIEW_NOTIFICATIONS=false. */
  reviewNotifications: boolean;
  logLevel: string;
  /** Human-readable log lines (pino-pretty) rather than JSON. */
  logPretty: boolean;
  rateLimitPerMinute: number;
  /** Redemptions a minute per enrollment token. */
  enrollRateLimitPerMinute: number;
  defaultPlan: PlanTier;
  /** Every plan's numbers: the defaults, with PLANS_FILE laid over them. */
  plans: Plans;
  smtpTlsKey: string | null;
  smtpTlsCert: string | null;
  /** Milliseconds inbound SMTP holds its greeting back, refusing a client that talks first; 0: greets at once. */
  smtpEarlyTalkerDelayMs: number;
  /** AES-256-GCM key for secrets kept recoverable (webhook signing secrets); null: DATA_DIR/encryption.key. */
  encryptionKey: Buffer | null;
  /** Seconds before each webhook retry; the delivery gives up after the last. */
  webhookRetrySchedule: number[];
  webhookTimeoutSeconds: number;
  /** Consecutive failed attempts, across deliveries, that deactivate a webhook. */
  webhookDeactivateAfter: number;
  sseHeartbeatSeconds: number;
  /** Seconds a human-routed review may wait before it is cancelled (deadline_exceeded); null: no deadline. */
  reviewDeadlineSeconds: number | null;
  /** Seconds an Idempotency-Key claim outlives its request's last sign of life (a process that died mid-request). */
  idempotencyLeaseSeconds: number;
  /** Bearer token /metrics asks for; null: /metrics is open, like /healthz. */
  metricsToken: string | null;
  /** A port on HOST serving only /metrics (for processes without the API role); null: none. */
  metricsPort: number | null;
  /** Consecutive failed pushes after which a review link is skipped by routing until it recovers. */
  reviewLinkUnhealthyAfter: number;
  /** The signup gate until an operator sets it (`agent-inbox signup --enable|--disable`). */
  signupEnabled: boolean;
  /** Domain of self-signup inboxes. */
  freeInboxDomain: string;
  /** Sender of system mail (sign-up codes). */
  systemFrom: string;
  /** Sign-ups an hour per normalized email address, and per client address. */
  signupLimitPerEmail: number;
  signupLimitPerIp: number;
  /** Console identities (emails, lower-cased) of the deployment's support staff: they see every org's cases. */
  supportStaffEmails: string[];
  /** DNS servers (`ip` or `ip:port`) for domain checks and inbound verdicts; empty: the system's. */
  dnsServers: string[];
  /** The host custom domains point their MX record at. */
  mxHost: string;
  /** PEM of the key signing mail from INBOX_DOMAIN; null: that mail goes unsigned. */
  dkimPrivateKey: string | null;
  /** DKIM selector of INBOX_DOMAIN's key and of every custom domain's. */
  dkimSelector: string;
  /** Whether inbound mail gets SPF, DKIM, DMARC and ARC verdicts. */
  inboundAuth: boolean;
  /** Longest the verdicts may hold up the reply to DATA; past it they are recorded as temperror. */
  inboundAuthTimeoutSeconds: number;
  /** Soft bounces in a row (one per send) after which a recipient is suppressed. */
  softBounceLimit: number;
  /** Sender health: rates over an inbox's recent sends past which its new sends are held (`sender_health`). */
  senderHealth: { minSends: number; maxBounceRate: number; maxComplaintRate: number };
  /** Agent sends into one thread within `windowMinutes` past which the next is held (`loop_suspected`). */
  loopGuard: { maxSends: number; windowMinutes: number };
};


export class ConfigError extends Error {}

/** The environment stops the start (a port taken, a database out of reach); the message names the variable. */
export class StartupError extends Error {}

type Env = Record<string, string | undefined>;

/** A comma-separated list of email addresses, lower-cased; empty when unset. */
function emailList(env: Env, name: string): string[] {
  const list = (env[name] ?? '').split(',').map((e) => e.trim().toLowerCase()).filter((e) => e !== '');
  for (const e of list) if (!/^[^\s@<>,]+@[^\s@<>,]+$/.test(e)) throw new ConfigError(`${name} must be comma-separated email addresses, got "${e}"`);
  return list;
}

function text(env: Env, name: string, fallback: string): string {
  const v = env[name];
  return v === undefined || v === '' ? fallback : v;
}

function optional(env: Env, name: string): string | null {
  const v = env[name];
  return v === undefined || v === '' ? null : v;
}

function port(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    throw new ConfigError(`${name} must be a port number from 0 to 65535, got "${raw}"`);
  }
  return n;
}

function positiveInt(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new ConfigError(`${name} must be a whole number above 0, got "${raw}"`);
  return n;
}

function milliseconds(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 60_000) throw new ConfigError(`${name} must be a whole number of milliseconds from 0 to 60000, got "${raw}"`);
  return n;
}

function positiveNumber(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new ConfigError(`${name} must be a number of seconds above 0, got "${raw}"`);
  return n;
}

function secondsList(env: Env, name: string, fallback: number[]): number[] {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const list = raw.split(',').map((part) => Number(part.trim()));
  if (list.some((n) => !Number.isFinite(n) || n <= 0)) {
    throw new ConfigError(`${name} must be a comma-separated list of seconds above 0, got "${raw}"`);
  }
  return list;
}

// A delivery job that outlives 60 s is taken for a dead worker's (actors/workers/webhook-delivery.ts).
function webhookTimeout(env: Env): number {
  const seconds = positiveNumber(env, 'WEBHOOK_TIMEOUT_SECONDS', 10);
  if (seconds > 45) throw new ConfigError(`WEBHOOK_TIMEOUT_SECONDS must be at most 45, got "${env.WEBHOOK_TIMEOUT_SECONDS}"`);
  return seconds;
}

function key32(env: Env, name: string): Buffer | null {
  const raw = optional(env, name);
  if (raw === null) return null;
  const key = Buffer.from(raw, 'base64');
  if (key.length !== 32 || key.toString('base64').replace(/=+$/, '') !== raw.trim().replace(/=+$/, '')) {
    throw new ConfigError(`${name} must be the base64 encoding of 32 random bytes (for example: openssl rand -base64 32)`);
  }
  return key;
}

function flag(env: Env, name: string): boolean {
  const raw = (env[name] ?? '').toLowerCase();
  if (['', '0', 'false', 'no', 'off'].includes(raw)) return false;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

function url(env: Env, name: string): string | null {
  const raw = optional(env, name);
  if (raw === null) return null;
  try {
    new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`);
  }
  return raw;
}

/** The outbound relay: smtp:// (STARTTLS when offered) or smtps:// (TLS from the start). */
function smtpRelayUrl(env: Env): string | null {
  const raw = url(env, 'SMTP_URL');
  if (raw !== null && !/^smtps?:$/.test(new URL(raw).protocol)) {
    throw new ConfigError(`SMTP_URL must start with smtp:// or smtps://, got "${new URL(raw).protocol}//"`);
  }
  return raw;
}

// The token travels in an Authorization header: a short or spaced one is a mistake, not a secret.
function metricsToken(env: Env): string | null {
  const raw = optional(env, 'METRICS_TOKEN');
  if (raw !== null && !/^[\x21-\x7e]{16,}$/.test(raw)) {
    throw new ConfigError('METRICS_TOKEN must be at least 16 printable characters without spaces');
  }
  return raw;
}

// A deployment's own plan numbers: a JSON file keyed by tier, each any subset of a plan's fields.
function plansFile(env: Env): Plans {
  const file = optional(env, 'PLANS_FILE');
  if (file === null) return DEFAULT_PLANS;
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(path.resolve(file), 'utf8'));
  } catch (err) {
    throw new ConfigError(`PLANS_FILE ${file} cannot be read as JSON: ${(err as Error).message}`);
  }
  try {
    return parsePlans(json);
  } catch (err) {
    throw new ConfigError(`PLANS_FILE ${file}: ${(err as Error).message}`);
  }
}

// `192.0.2.1`, `192.0.2.1:5353`, `2001:db8::1` or `[2001:db8::1]:5353`, comma-separated.
function dnsServers(env: Env): string[] {
  const raw = optional(env, 'DNS_SERVERS');
  if (raw === null) return [];
  const list = raw.split(',').map((s) => s.trim()).filter(Boolean);
  for (const server of list) {
    const m = server.match(/^\[([0-9a-f:.]+)\](?::(\d+))?$|^([0-9.]+)(?::(\d+))?$|^([0-9a-f:]+)$/i);
    const port = m?.[2] ?? m?.[4];
    if (!m || (port !== undefined && (Number(port) < 1 || Number(port) > 65535))) {
      throw new ConfigError(`DNS_SERVERS must be a comma-separated list of IP addresses, each with an optional :port, got "${server}"`);
    }
  }
  return list;
}

// PEM text, or the path of a PEM file (an environment variable holding many lines is awkward).
function dkimKey(env: Env): string | null {
  const raw = optional(env, 'DKIM_PRIVATE_KEY');
  if (raw === null) return null;
  let pem = raw.replace(/\\n/g, '\n');
  if (!pem.includes('-----BEGIN')) {
    try {
      pem = fs.readFileSync(raw, 'utf8');
    } catch {
      throw new ConfigError(`DKIM_PRIVATE_KEY must be a PEM private key or the path of a file holding one; "${raw}" cannot be read`);
    }
  }
  try {
    crypto.createPrivateKey(pem);
  } catch {
    throw new ConfigError('DKIM_PRIVATE_KEY does not hold a usable PEM private key');
  }
  return pem;
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env): Config {
  const host = text(env, 'HOST', '127.0.0.1');
  const httpPort = port(env, 'PORT', 8080);
  const inboxDomain = text(env, 'INBOX_DOMAIN', 'agents.localhost').toLowerCase();
  if (!DOMAIN.test(inboxDomain)) throw new ConfigError(`INBOX_DOMAIN must be a domain name, got "${inboxDomain}"`);
  const logLevel = text(env, 'LOG_LEVEL', 'info');
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const defaultPlan = text(env, 'DEFAULT_PLAN', 'free') as PlanTier;
  if (!PLAN_TIERS.includes(defaultPlan)) throw new ConfigError(`DEFAULT_PLAN must be one of ${PLAN_TIERS.join(', ')}`);
  const consoleJwksUrl = url(env, 'CONSOLE_JWKS_URL');
  const consoleIssuer = optional(env, 'CONSOLE_ISSUER');
  if ((consoleJwksUrl === null) !== (consoleIssuer === null)) {
    throw new ConfigError('CONSOLE_JWKS_URL and CONSOLE_ISSUER must be set together (or neither, for the built-in development identity provider)');
  }
  const smtpTlsKey = optional(env, 'SMTP_TLS_KEY');
  const smtpTlsCert = optional(env, 'SMTP_TLS_CERT');
  if ((smtpTlsKey === null) !== (smtpTlsCert === null)) {
    throw new ConfigError('SMTP_TLS_KEY and SMTP_TLS_CERT must be set together');
  }
  const freeInboxDomain = text(env, 'FREE_INBOX_DOMAIN', inboxDomain).toLowerCase();
  if (!DOMAIN.test(freeInboxDomain)) throw new ConfigError(`FREE_INBOX_DOMAIN must be a domain name, got "${freeInboxDomain}"`);
  const systemFrom = text(env, 'SYSTEM_FROM', `no-reply@${inboxDomain}`);
  if (!/^[^\s@<>]+@[^\s@<>]+$/.test(systemFrom)) throw new ConfigError(`SYSTEM_FROM must be an email address, got "${systemFrom}"`);
  const mxHost = text(env, 'MX_HOST', inboxDomain).toLowerCase();
  if (!DOMAIN.test(mxHost)) throw new ConfigError(`MX_HOST must be a host name, got "${mxHost}"`);
  const dkimSelector = text(env, 'DKIM_SELECTOR', 'agentinbox').toLowerCase();
  if (!/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(dkimSelector)) throw new ConfigError(`DKIM_SELECTOR must be one DNS label, got "${dkimSelector}"`);
  const databaseUrl = optional(env, 'DATABASE_URL');
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  return {
    host,
    port: httpPort,
    smtpHost: text(env, 'SMTP_HOST', '127.0.0.1'),
    smtpPort: port(env, 'SMTP_PORT', 2525),
    databaseUrl,
    databaseConnectTimeoutSeconds: positiveNumber(env, 'DATABASE_CONNECT_TIMEOUT_SECONDS', 30),
    // An explicit DATA_DIR is a path as the shell gave it (relative to the current folder); the
    // default belongs to the installation, so commands run from elsewhere use the same database.
    dataDir: env.DATA_DIR ? path.resolve(env.DATA_DIR) : path.join(PROJECT_ROOT, '.data'),
    inboxDomain,
    smtpUrl: smtpRelayUrl(env),
    publicBaseUrl: url(env, 'PUBLIC_BASE_URL') ?? `http://${host}:${httpPort}`,
    consoleJwksUrl,
    consoleIssuer,
    webhookAllowPrivate: flag(env, 'WEBHOOK_ALLOW_PRIVATE'),
    reviewNotifications: env.REVIEW_NOTIFICATIONS === undefined ? true : flag(env, 'REVIEW_NOTIFICATIONS'),
    logLevel,
    logPretty: env.LOG_PRETTY === undefined || env.LOG_PRETTY === '' ? process.stdout.isTTY === true : flag(env, 'LOG_PRETTY'),
    rateLimitPerMinute: positiveInt(env, 'RATE_LIMIT_PER_MINUTE', 600),
    enrollRateLimitPerMinute: positiveInt(env, 'ENROLL_RATE_LIMIT_PER_MINUTE', 30),
    defaultPlan,
    plans: plansFile(env),
    smtpTlsKey,
    smtpTlsCert,
    smtpEarlyTalkerDelayMs: milliseconds(env, 'SMTP_EARLY_TALKER_DELAY_MS', 0),
    encryptionKey: key32(env, 'ENCRYPTION_KEY'),
    webhookRetrySchedule: secondsList(env, 'WEBHOOK_RETRY_SCHEDULE', [10, 60, 300, 1800, 7200, 21600, 43200]),
    webhookTimeoutSeconds: webhookTimeout(env),
    webhookDeactivateAfter: positiveInt(env, 'WEBHOOK_DEACTIVATE_AFTER', 20),
    sseHeartbeatSeconds: positiveNumber(env, 'SSE_HEARTBEAT_SECONDS', 15),
    reviewDeadlineSeconds: optional(env, 'REVIEW_DEADLINE_SECONDS') === null ? null : positiveInt(env, 'REVIEW_DEADLINE_SECONDS', 1),
    idempotencyLeaseSeconds: positiveNumber(env, 'IDEMPOTENCY_LEASE_SECONDS', 30),
    metricsToken: metricsToken(env),
    metricsPort: optional(env, 'METRICS_PORT') === null ? null : port(env, 'METRICS_PORT', 0),
    reviewLinkUnhealthyAfter: positiveInt(env, 'REVIEW_LINK_UNHEALTHY_AFTER', 5),
    signupEnabled: flag(env, 'SIGNUP_ENABLED'),
    freeInboxDomain,
    systemFrom,
    signupLimitPerEmail: positiveInt(env, 'SIGNUP_LIMIT_PER_EMAIL', 5),
    signupLimitPerIp: positiveInt(env, 'SIGNUP_LIMIT_PER_IP', 20),
    supportStaffEmails: emailList(env, 'SUPPORT_STAFF_EMAILS'),
    dnsServers: dnsServers(env),
    mxHost,
    dkimPrivateKey: dkimKey(env),
    dkimSelector,
    inboundAuth: env.INBOUND_AUTH === undefined || env.INBOUND_AUTH === '' ? true : flag(env, 'INBOUND_AUTH'),
    inboundAuthTimeoutSeconds: positiveNumber(env, 'INBOUND_AUTH_TIMEOUT_SECONDS', 2),
    softBounceLimit: positiveInt(env, 'SOFT_BOUNCE_LIMIT', 3),
    senderHealth: {
      minSends: positiveInt(env, 'SENDER_HEALTH_MIN_SENDS', 50),
      maxBounceRate: positiveNumber(env, 'SENDER_HEALTH_MAX_BOUNCE_RATE', 0.05),
      maxComplaintRate: positiveNumber(env, 'SENDER_HEALTH_MAX_COMPLAINT_RATE', 0.001),
    },
    loopGuard: {
      maxSends: positiveInt(env, 'LOOP_MAX_SENDS', 8),
      windowMinutes: positiveInt(env, 'LOOP_WINDOW_MINUTES', 10),
    },
  };
}
