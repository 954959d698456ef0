// `include`: relation expansions a list or get names (`?include=agent,domain`). Each operation
// lists the paths it expands in the OpenAPI document (`x-include`); a path not listed, or deeper
// than two steps (`inbox.agent`), is `400 bad_request` naming `include`. Included records are
// loaded with the caller's own scope again, so an expansion never reaches past the key's ceiling:
// a record outside it is answered as null, like a record that does not exist.
import { Problem } from '../machines/problems.ts';
import { findAgentsInScope, type Agent } from '../storage/agents.ts';
import { findDomain } from '../storage/domains.ts';
import type { InboxRow, InboxScope, InboxWithPolicy } from '../storage/inboxes.ts';
import type { InboxKey } from '../storage/messages.ts';
import { findThreads, type ThreadRow } from '../storage/threads.ts';
import type { Services } from './context.ts';
import { presentAgent } from '../actors/present/admin.ts';
import { presentDomain } from '../actors/present/domains.ts';
import { presentInbox } from '../actors/present/inboxes.ts';
import { presentThread } from '../actors/present/messages.ts';

export const MAX_INCLUDE_DEPTH = 2;

const refuse = (code: string, detail: string) => new Problem('bad_request', { detail, errors: [{ field: 'include', code, detail }] });

/**
 * The paths asked for, each with its parents (`inbox.agent` brings `inbox`). Throws the 400 for
 * an empty entry, a path deeper than two steps, or one the operation does not expand.
 */
export function parseInclude(raw: unknown, allowed: readonly string[]): Set<string> {
  const paths = new Set<string>();
  if (raw === undefined || raw === null || raw === '') return paths;
  const named = String(raw).split(',').map((p) => p.trim());
  const accepted = allowed.length ? `accepted: ${allowed.join(', ')}` : 'this resource has no expansions';
  for (const path of named) {
    const steps = path.split('.');
    if (path === '' || steps.some((step) => step === '')) throw refuse('invalid', `include has an empty path; ${accepted}.`);
    if (steps.length > MAX_INCLUDE_DEPTH) {
      throw refuse('too_deep', `include path "${path}" is ${steps.length} steps deep; at most ${MAX_INCLUDE_DEPTH} (a.b).`);
    }
    if (!allowed.includes(path)) throw refuse('not_allowed', `include path "${path}" is not expanded here; ${accepted}.`);
    for (let i = 1; i <= steps.length; i++) paths.add(steps.slice(0, i).join('.'));
  }
  return paths;
}

type AgentView = ReturnType<typeof presentAgent>;
/** `domain`: the custom domain record of an inbox on one; null on the service's own domain. */
export type InboxIncluded = { agent?: AgentView | null; domain?: ReturnType<typeof presentDomain> | null };

/** The expansions of each inbox (by id) under `prefix` (`''` on inboxes, `inbox.` below a message). */
export async function inboxIncludes(
  s: Services,
  scope: InboxScope,
  inboxes: InboxRow[],
  paths: Set<string>,
  prefix = '',
): Promise<Map<string, InboxIncluded>> {
  const out = new Map<string, InboxIncluded>();
  const wantsAgent = paths.has(`${prefix}agent`);
  const wantsDomain = paths.has(`${prefix}domain`);
  if (!wantsAgent && !wantsDomain) return out;
  const agents = new Map<string, Agent>();
  if (wantsAgent) {
    for (const a of await findAgentsInScope(s.db, scope, [...new Set(inboxes.map((i) => i.agent_id))])) agents.set(a.id, a);
  }
  const domains = new Map<string, ReturnType<typeof presentDomain>>();
  if (wantsDomain) {
    for (const inbox of inboxes) {
      const key = `${inbox.project_id} ${inbox.domain}`;
      if (domains.has(key) || inbox.domain === s.config.inboxDomain) continue;
      const d = await findDomain(s.db, inbox.org_id, inbox.project_id, inbox.domain);
      if (d) domains.set(key, presentDomain(s.config, d));
    }
  }
  for (const inbox of inboxes) {
    const included: InboxIncluded = {};
    if (wantsAgent) {
      const agent = agents.get(inbox.agent_id);
      included.agent = agent ? presentAgent(agent) : null;
    }
    if (wantsDomain) included.domain = domains.get(`${inbox.project_id} ${inbox.domain}`) ?? null;
    out.set(inbox.id, included);
  }
  return out;
}

/** An inbox as included below a message or thread, with its own expansions. */
export async function includedInbox(s: Services, scope: InboxScope, inbox: InboxWithPolicy, paths: Set<string>) {
  const nested = (await inboxIncludes(s, scope, [inbox], paths, 'inbox.')).get(inbox.id);
  return { ...presentInbox(inbox), ...(nested ? { included: nested } : {}) };
}

/** The `included` member of each message of one inbox, by message id; empty when nothing was asked. */
export async function messageIncludes(
  s: Services,
  scope: InboxScope,
  inbox: InboxWithPolicy,
  messages: Array<{ id: string; thread_id: string }>,
  paths: Set<string>,
): Promise<Map<string, Record<string, unknown>>> {
  const out = new Map<string, Record<string, unknown>>();
  if (paths.size === 0) return out;
  const at: InboxKey = { org_id: inbox.org_id, inbox_id: inbox.id };
  const inboxView = paths.has('inbox') ? await includedInbox(s, scope, inbox, paths) : undefined;
  const threads = new Map<string, ThreadRow>();
  if (paths.has('thread')) for (const t of await findThreads(s.db, at, [...new Set(messages.map((m) => m.thread_id))])) threads.set(t.id, t);
  for (const m of messages) {
    const included: Record<string, unknown> = {};
    if (inboxView) included.inbox = inboxView;
    if (paths.has('thread')) {
      const thread = threads.get(m.thread_id);
      included.thread = thread ? presentThread(thread) : null;
    }
    out.set(m.id, included);
  }
  return out;
}

/** Adds `included` to a presented record when something was expanded for it. */
export const withIncluded = <T extends object>(record: T, included: object | undefined): T =>
  included ? { ...record, included } : record;
