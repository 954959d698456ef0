// Self-signup: an agent with no key gets an inbox by proving it reads an email address.
//
// `signUp` creates an org and project on the default plan, an agent, a pending inbox on
// FREE_INBOX_DOMAIN and a temporary key that may only verify; a 6-digit code goes to the address
// as system mail. `verifySignup` trades the right code for the durable key. The lifecycle is the
// `signup` machine, applied through the one runner; this module holds what the machine must not:
// the code (only its keyed hash is stored), the keys and the clock. The code is never in a
// response or a log line.
import crypto from 'node:crypto';
import type pg from 'pg';
import {
  SIGNUP_CODE_DIGITS,
  SIGNUP_CODE_TTL_SECONDS,
  SIGNUP_MACHINE_VERSION,
  SIGNUP_VERBS,
  signupMachine,
  type SignupActionParams,
  type SignupContext,
  type SignupEvent,
} from '../machines/self-signup.ts';
import { generatedLocalPart, addressOf } from '../machines/policy/inbox-address.ts';
import { DEFAULT_PERMISSIONS } from '../machines/policy/permissions.ts';
import { LegacyError, Problem } from '../machines/problems.ts';
import type { Config } from '../service/config.ts';
import { encryptionKey, sealerFor } from '../service/encryption.ts';
import type { Queue } from '../service/queue.ts';
import { upsertAgentByHandle } from '../storage/agents.ts';
import { insertApiKey } from '../storage/api-keys.ts';
import { withTransaction, type Pool } from '../storage/db.ts';
import { newId, randomToken } from '../storage/ids.ts';
import { activateInbox, inboxAddress, insertInbox } from '../storage/inboxes.ts';
import { findMachine } from '../storage/machines.ts';
import {
  countSignupRequest,
  insertSignup,
  lockOpenSignupByEmail,
  lockSignupByTemporaryKey,
  markSignupVerified,
  readSignupGate,
  revokeTemporaryKey,
  rotateSignupCode,
  temporaryKeyOfSignup,
  type SignupRow,
} from '../storage/signups.ts';
import { insertOrg, insertProject, updateOrgSettings } from '../storage/tenancy.ts';
import { mintAgentKey } from './credentials.ts';
import { JOBS } from './jobs.ts';
import { applyEventIn, createInstanceIn, type MachineKind } from './run-machine.ts';
import { SystemMailError, sendSystemMail } from './system-mail.ts';

/** A typed event for the runner, which takes any. */
const ev = (e: SignupEvent): SignupEvent => e;


export type SignupDeps = { db: Pool; queue: Queue; config: Config };

export const signupKind: MachineKind = {
  kind: 'signup',
  machine: signupMachine,
  version: SIGNUP_MACHINE_VERSION,
  async perform(action, ctx) {
    if (action.type === 'scheduleExpiry') {
      const p = action.params as SignupActionParams['scheduleExpiry'];
      await ctx.enqueue(JOBS.signupExpiry.name, { org_id: ctx.row.org_id, signup_id: ctx.row.id, epoch: p.epoch }, { startAfter: p.after_s });
    } else if (action.type === 'revokeTemporaryKey') {
      const keyId = await temporaryKeyOfSignup(ctx.tx, ctx.row.org_id, ctx.row.id);
      if (keyId) await revokeTemporaryKey(ctx.tx, ctx.row.org_id, keyId);
    }
  },
  allowed: (snapshot) =>
    SIGNUP_VERBS.filter((verb) =>
      snapshot.can(verb === 'request' ? { type: verb, ttl_s: 1 } : verb === 'expire' ? { type: verb, epoch: snapshot.context.epoch } : verb === 'send_failed' ? { type: verb, error: '' } : { type: verb }),
    ),
};

// ---------------------------------------------------------------------------------------------
// The gate

/**
 * Whether sign-up is open: the operator's setting, else SIGNUP_ENABLED. A database that cannot
 * answer closes it (`signup_gate_unavailable`): nothing is created on a guess.
 */
export async function signupGateOpen(deps: { db: Pool; config: Config }): Promise<boolean> {
  try {
    return (await readSignupGate(deps.db)) ?? deps.config.signupEnabled;
  } catch {
    throw new LegacyError(503, 'signup_gate_unavailable', 'The signup gate could not be read; sign-up is closed until it can. Retry later.', {}, { 'Retry-After': '5' });
  }
}

async function requireGateOpen(deps: { db: Pool; config: Config }): Promise<void> {
  if (!(await signupGateOpen(deps))) {
    throw new LegacyError(403, 'signup_disabled', 'Self-signup is paused on this service; ask its operator for an enrollment token instead.');
  }
}

// ---------------------------------------------------------------------------------------------
// Codes

const normalizeEmail = (email: string) => email.trim().toLowerCase();

function newCode(): string {
  return String(crypto.randomInt(0, 10 ** SIGNUP_CODE_DIGITS)).padStart(SIGNUP_CODE_DIGITS, '0');
}

/** Keyed, so a copy of the table does not give the code away to a million guesses offline. */
function codeHash(config: Config, signupId: string, code: string): Buffer {
  return crypto.createHmac('sha256', encryptionKey(config)).update(`${signupId}:${code}`).digest();
}

function codeMatches(config: Config, row: SignupRow, code: string): boolean {
  const presented = codeHash(config, row.id, code);
  return presented.length === row.code_hash.length && crypto.timingSafeEqual(presented, row.code_hash);
}

function codeMail(code: string, address: string): { subject: string; text: string } {
  return {
    subject: `Your agent-inbox verification code: ${code}`,
    text:
      `Your verification code is ${code}\n\n` +
      `An agent signed up for the inbox ${address} with this email address. Give it this code to finish; ` +
      `it works for ${SIGNUP_CODE_TTL_SECONDS / 60} minutes.\n\nIf you did not expect this, ignore this mail: nothing is created until the code is used.\n`,
  };
}

// ---------------------------------------------------------------------------------------------
// Sign-up

export type SignupInput = { email: string; agent_handle?: string; display_name?: string };
export type SignupResult = { created: boolean; agent_id: string; inbox_address: string; temporary_key: string; expires_at: Date };

type Issued = { row: SignupRow; created: boolean; code: string; address: string; raw: string; expires_at: Date };

export async function signUp(deps: SignupDeps, input: SignupInput, clientIp: string, now: Date): Promise<SignupResult> {
  await requireGateOpen(deps);
  const email = normalizeEmail(input.email);
  const counts = await countSignupRequest(deps.db, email, clientIp);
  if (counts.email > deps.config.signupLimitPerEmail || counts.ip > deps.config.signupLimitPerIp) {
    const which = counts.email > deps.config.signupLimitPerEmail ? `${deps.config.signupLimitPerEmail} an hour for this email address` : `${deps.config.signupLimitPerIp} an hour from this client address`;
    throw new Problem('rate_limited', { detail: `Too many sign-ups: at most ${which}. Retry later.`, headers: { 'Retry-After': '3600' } });
  }
  const expires_at = new Date(now.getTime() + SIGNUP_CODE_TTL_SECONDS * 1000);
  // Two first sign-ups of one address at once: the second finds the first's row on its retry.
  const issued = await retryOnOpenSignupRace(() => withTransaction(deps.db, async (tx): Promise<Issued> => {
    const code = newCode();
    const open = await lockOpenSignupByEmail(tx, email);
    if (open) {
      // The same address again while unverified: a new code and a new temporary key; the
      // machine revokes the old key in this transaction.
      await applyEventIn(tx, deps.queue, signupKind, { id: open.id, org_id: open.org_id }, ev({ type: 'request', ttl_s: SIGNUP_CODE_TTL_SECONDS }));
      const key = await insertTemporaryKey(tx, open.org_id, open.project_id, open.agent_id, expires_at);
      const row = { ...open, temporary_key_id: key.id, code_hash: codeHash(deps.config, open.id, code), code_expires_at: expires_at };
      await rotateSignupCode(tx, row);
      const address = await inboxAddressOf(tx, open.org_id, open.inbox_id);
      return { row, created: false, code, address, raw: key.raw, expires_at };
    }
    const org = await insertOrg(tx, { id: newId('org'), name: email, plan_tier: deps.config.defaultPlan });
    // The org's next inboxes go on the free domain too, unless it chooses another (org settings).
    if (deps.config.freeInboxDomain !== deps.config.inboxDomain) {
      await updateOrgSettings(tx, org.id, undefined, { default_domain: deps.config.freeInboxDomain });
    }
    const project = await insertProject(tx, { org_id: org.id, id: newId('prj'), name: 'Default' });
    const { agent } = await upsertAgentByHandle(tx, {
      org_id: org.id,
      project_id: project.id,
      id: newId('agt'),
      handle: input.agent_handle ?? 'agent',
      display_name: input.display_name ?? null,
    });
    const inbox = await insertInbox(tx, {
      org_id: org.id,
      project_id: project.id,
      id: newId('inb'),
      agent_id: agent.id,
      address: addressOf(generatedLocalPart(input.display_name ?? input.agent_handle, randomToken(8)), deps.config.freeInboxDomain),
      domain: deps.config.freeInboxDomain,
      display_name: input.display_name ?? null,
      webhook_url: null,
      created_by: 'agent',
      enrollment_token_id: null,
      status: 'pending',
    });
    if (!inbox) throw new Problem('conflict', { detail: 'A generated inbox address was taken; sign up again.' });
    const key = await insertTemporaryKey(tx, org.id, project.id, agent.id, expires_at);
    const id = newId('sgn');
    const row = await insertSignup(tx, {
      org_id: org.id,
      project_id: project.id,
      id,
      email,
      agent_id: agent.id,
      inbox_id: inbox.id,
      temporary_key_id: key.id,
      code_hash: codeHash(deps.config, id, code),
      code_expires_at: expires_at,
    });
    await createInstanceIn(tx, deps.queue, signupKind, { org_id: org.id, project_id: project.id, id, inbox_id: inbox.id, agent_id: agent.id }, ev({ type: 'request', ttl_s: SIGNUP_CODE_TTL_SECONDS }));
    return { row, created: true, code, address: inbox.address, raw: key.raw, expires_at };
  }));
  await mailCode(deps, issued, now);
  return { created: issued.created, agent_id: issued.row.agent_id, inbox_address: issued.address, temporary_key: issued.raw, expires_at };
}

async function retryOnOpenSignupRace<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const e = err as { code?: string; constraint?: string };
    if (e.code === '23505' && e.constraint === 'signups_open_email') return fn();
    throw err;
  }
}

async function insertTemporaryKey(tx: pg.ClientBase, orgId: string, projectId: string, agentId: string, expires_at: Date) {
  const minted = mintAgentKey('project');
  await insertApiKey(tx, {
    org_id: orgId,
    project_id: projectId,
    id: minted.id,
    agent_id: agentId,
    ceiling: 'project',
    inbox_id: null,
    kind: 'temporary',
    prefix: minted.prefix,
    key_hash: minted.hash,
    permissions: ['signup:verify'],
    // The temporary key expires with the code.
    expires_at,
  });
  return { id: minted.id, raw: minted.raw };
}

async function inboxAddressOf(tx: pg.ClientBase, orgId: string, inboxId: string): Promise<string> {
  return (await inboxAddress(tx, orgId, inboxId))!;
}

/**
 * Mails the code after the sign-up committed, so a failed send leaves it pending (the table's
 * `otp_send_failed` row): a re-signup with the same address sends a new code.
 */
async function mailCode(deps: SignupDeps, issued: Issued, now: Date): Promise<void> {
  const { row } = issued;
  const failure = await withTransaction(deps.db, async (tx) => {
    try {
      await sendSystemMail(deps, tx as pg.PoolClient, { org_id: row.org_id, project_id: row.project_id, inbox_id: row.inbox_id }, { to: row.email, ...codeMail(issued.code, issued.address), kind: 'signup_code' }, now);
    } catch (err) {
      if (!(err instanceof SystemMailError)) throw err;
      return err.message;
    }
    await applyEventIn(tx, deps.queue, signupKind, { id: row.id, org_id: row.org_id }, { type: 'code_sent' });
    return null;
  });
  if (failure === null) return;
  await withTransaction(deps.db, (tx) => applyEventIn(tx, deps.queue, signupKind, { id: row.id, org_id: row.org_id }, ev({ type: 'send_failed', error: failure })));
  throw new LegacyError(502, 'otp_send_failed', 'The verification code could not be mailed; the sign-up is still pending. Sign up again with the same email address to send a new code.');
}

// ---------------------------------------------------------------------------------------------
// Verify

export type VerifyResult = {
  agent_key: string;
  key_id: string;
  agent_id: string;
  org_id: string;
  project_id: string;
  inbox_id: string;
  inbox_address: string;
  quickstart: Array<{ name: string; method: string; path: string }>;
};

/** The calls an agent makes first with its new key, with its inbox filled in. */
function quickstartOf(inboxId: string) {
  return [
    { name: 'read_messages', method: 'GET', path: `/v1/inboxes/${inboxId}/messages` },
    { name: 'get_message', method: 'GET', path: '/v1/messages/{message_id}' },
    { name: 'wait_for_email', method: 'POST', path: `/v1/inboxes/${inboxId}/wait` },
  ];
}

type Outcome = { ok: VerifyResult } | { refused: Problem };

const wrongCode = (triesLeft: number) =>
  new Problem('bad_request', {
    detail: `The code is not the one mailed; ${triesLeft} ${triesLeft === 1 ? 'try' : 'tries'} left.`,
    errors: [{ field: 'code', code: 'wrong_code' }],
    extra: { tries_left: triesLeft },
  });
const expired = () =>
  new Problem('unauthorized', {
    detail: 'The code has expired, and the temporary key with it; sign up again with the same email address for a new code.',
    errors: [{ field: 'code', code: 'expired' }],
  });
const locked = () =>
  new Problem('conflict', {
    detail: 'Too many wrong codes: this code is locked. Sign up again with the same email address for a new code.',
    errors: [{ field: 'code', code: 'locked' }],
  });
const spentKey = () => new Problem('unauthorized', { detail: 'The temporary key was revoked.', headers: { 'WWW-Authenticate': 'Bearer realm="agent-inbox"' } });

/**
 * Trades the code for the durable key. `keyRevoked` and `keyExpired` say how the temporary key
 * stands: a spent key is let through to this call only, to answer a replay or say why it is spent.
 */
export async function verifySignup(
  deps: SignupDeps,
  auth: { org_id: string; key_id: string; revoked: boolean; expired: boolean },
  code: string,
  now: Date,
): Promise<VerifyResult> {
  await requireGateOpen(deps);
  const sealer = sealerFor(deps.config);
  const outcome = await withTransaction(deps.db, async (tx): Promise<Outcome> => {
    const row = await lockSignupByTemporaryKey(tx, auth.org_id, auth.key_id);
    if (!row) return { refused: spentKey() };
    if (row.verified_at) {
      // A replay of the verification that succeeded answers the same; anything else is refused.
      if (row.verified_response && codeMatches(deps.config, row, code)) return { ok: JSON.parse(sealer.open(row.verified_response)) as VerifyResult };
      return { refused: spentKey() };
    }
    const machine = await findMachine(tx, row.org_id, 'signup', row.id);
    const state = machine?.state;
    const context = (machine?.snapshot as { context: SignupContext } | undefined)?.context;
    if (state === 'locked') return { refused: locked() };
    if (state === 'expired') return { refused: expired() };
    if (auth.revoked) return { refused: spentKey() };
    if (row.code_expires_at <= now || auth.expired) {
      // Its timer may not have fired yet: the clock says it is over, so the machine hears it now.
      await applyEventIn(tx, deps.queue, signupKind, { id: row.id, org_id: row.org_id }, ev({ type: 'expire', epoch: context!.epoch }));
      return { refused: expired() };
    }
    if (!codeMatches(deps.config, row, code)) {
      const applied = await applyEventIn(tx, deps.queue, signupKind, { id: row.id, org_id: row.org_id }, { type: 'wrong_code' });
      const ctx = applied.snapshot.context as SignupContext;
      return { refused: applied.row.state === 'locked' ? locked() : wrongCode(ctx.max_tries - ctx.tries) };
    }
    // The right code: the temporary key is revoked (by the machine), the durable key issued and
    // the inbox activated, all in this transaction.
    await applyEventIn(tx, deps.queue, signupKind, { id: row.id, org_id: row.org_id }, { type: 'verify' });
    const minted = mintAgentKey('project');
    await insertApiKey(tx, {
      org_id: row.org_id,
      project_id: row.project_id,
      id: minted.id,
      agent_id: row.agent_id,
      ceiling: 'project',
      inbox_id: null,
      kind: 'agent',
      prefix: minted.prefix,
      key_hash: minted.hash,
      permissions: [...DEFAULT_PERMISSIONS],
      expires_at: null,
    });
    await activateInbox(tx, row.org_id, row.inbox_id);
    const result: VerifyResult = {
      agent_key: minted.raw,
      key_id: minted.id,
      agent_id: row.agent_id,
      org_id: row.org_id,
      project_id: row.project_id,
      inbox_id: row.inbox_id,
      inbox_address: await inboxAddressOf(tx, row.org_id, row.inbox_id),
      quickstart: quickstartOf(row.inbox_id),
    };
    await markSignupVerified(tx, { org_id: row.org_id, id: row.id, durable_key_id: minted.id, verified_response: sealer.seal(JSON.stringify(result)) });
    return { ok: result };
  });
  if ('refused' in outcome) throw outcome.refused;
  return outcome.ok;
}

/** The code timer: expires the sign-up if that code is still the current one (else nothing). */
export async function expireSignupCode(deps: { db: Pool; queue: Queue }, job: { org_id: string; signup_id: string; epoch: number }): Promise<'expired' | 'stale'> {
  try {
    await withTransaction(deps.db, (tx) => applyEventIn(tx, deps.queue, signupKind, { id: job.signup_id, org_id: job.org_id }, ev({ type: 'expire', epoch: job.epoch })));
    return 'expired';
  } catch (err) {
    if (err instanceof Problem && ['conflict', 'not_found'].includes(err.code)) return 'stale';
    throw err;
  }
}
