// Webhook commands: register, update, delete, rotate the secret, redeliver. The signing secret is
// shown once and kept encrypted, since it must be read back to sign.
import { WEBHOOK_EVENT_TYPES } from '../machines/policy/event-scope.ts';
import type { Scope } from '../machines/policy/inbox-scope.ts';
import { Problem, badRequest, notFound, quotaExceeded } from '../machines/problems.ts';
import { checkQuota, planOf } from '../machines/policy/plans.ts';
import type { Config } from '../service/config.ts';
import { encryptionKey, seal } from '../service/encryption.ts';
import type { Queue } from '../service/queue.ts';
import { findAgentInOrg } from '../storage/agents.ts';
import { withTransaction, type Pool } from '../storage/db.ts';
import { newId, randomToken } from '../storage/ids.ts';
import { findInboxInScope, lockOrgForInboxes } from '../storage/inboxes.ts';
import {
  countWebhooksOfOrg,
  deleteWebhook,
  findDelivery,
  findWebhook,
  insertDelivery,
  insertWebhook,
  rotateWebhookSecret,
  updateWebhook,
  type DeliveryRow,
  type WebhookChanges,
  type WebhookView,
} from '../storage/webhooks.ts';
import { webhookTargetProblem } from './webhook-transport.ts';
import { enqueueDelivery } from './workers/webhook-delivery.ts';

export type WebhookDeps = { db: Pool; queue: Queue; config: Config; now: () => Date };

/** How long the previous secret keeps signing after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 3600_000;
const SECRET_PREFIX_LENGTH = 10;

function mintSecret(config: Config): { raw: string; sealed: Buffer; prefix: string } {
  const raw = `whsec_${randomToken(32)}`;
  return { raw, sealed: seal(encryptionKey(config), raw), prefix: raw.slice(0, SECRET_PREFIX_LENGTH) };
}

/** A field and its aliases: any one may be given; several, only when equal. */
function aliased<T>(body: Record<string, unknown>, field: string, ...aliases: string[]): T | undefined {
  let value: unknown;
  let from: string | undefined;
  for (const name of [field, ...aliases]) {
    const v = body[name];
    if (v === undefined) continue;
    if (from !== undefined && JSON.stringify(v) !== JSON.stringify(value)) {
      throw new Problem('bad_request', {
        detail: `${from} and ${name} name the same thing and were both given, with different values; send one.`,
        errors: [{ field: name, code: 'conflicting_alias', detail: `alias of ${field}` }],
      });
    }
    value = v;
    from ??= name;
  }
  return value as T | undefined;
}

/** The inbox a webhook names: `inbox` (id or address), `inbox_id` as its answers carry it, or the legacy `address`. */
const inboxField = (body: Record<string, unknown>) => aliased<string | null>(body, 'inbox', 'inbox_id', 'address');

function checkEvents(events: string[]): string[] {
  const refused = events.filter((e) => !WEBHOOK_EVENT_TYPES.includes(e));
  if (refused.length) {
    throw badRequest('events', `Webhooks subscribe to ${WEBHOOK_EVENT_TYPES.join(', ')} only; not ${refused.join(', ')}.`, 'invalid_value');
  }
  return [...new Set(events)];
}

async function checkTarget(url: string, config: Config): Promise<void> {
  const problem = await webhookTargetProblem(url, config.webhookAllowPrivate);
  if (problem) throw badRequest('url', `url ${problem}.`, 'target_refused');
}

/** The inbox named by id or address within the scope; outside it is 404, as if it did not exist. */
async function inboxIn(deps: WebhookDeps, scope: Scope, ref: string) {
  const inbox = await findInboxInScope(deps.db, scope, ref);
  if (!inbox) throw notFound('inbox');
  return inbox;
}

export type WebhookInput = {
  url: string;
  events?: string[];
  event_types?: string[];
  inbox?: string | null;
  inbox_id?: string | null;
  address?: string | null;
};

/**
 * Registers a webhook owned by `agentId`. `scope` bounds the inbox it may name; with no inbox it
 * covers every inbox of its agent (an inbox key's webhook always names that key's inbox).
 */
export async function registerWebhook(
  deps: WebhookDeps,
  input: WebhookInput & { scope: Scope; agentId: string },
): Promise<{ webhook: WebhookView; secret: string }> {
  const body = input as unknown as Record<string, unknown>;
  const events = checkEvents(aliased<string[]>(body, 'events', 'event_types') ?? ['message.received']);
  const inboxRef = inboxField(body) ?? input.scope.inbox_id;
  const agent = await findAgentInOrg(deps.db, input.scope.org_id, input.agentId);
  if (!agent || (input.scope.project_id !== null && agent.project_id !== input.scope.project_id)) throw notFound('agent');
  if (agent.status !== 'active') throw badRequest('agent_id', 'Webhooks are registered for active agents only.', 'inactive');
  const inbox = inboxRef ? await inboxIn(deps, input.scope, inboxRef) : null;
  await checkTarget(input.url, deps.config);
  const secret = mintSecret(deps.config);
  // The org row lock makes the count and the insert one step under the plan's webhook limit.
  const row = await withTransaction(deps.db, async (tx) => {
    const org = await lockOrgForInboxes(tx, agent.org_id);
    if (!org) throw notFound('org');
    const plan = planOf(org.plan_tier, deps.config.plans);
    const hooks = checkQuota(await countWebhooksOfOrg(tx, agent.org_id), plan.webhook_limit);
    if (!hooks.allowed) {
      const detail = `The ${plan.name} plan includes ${plan.webhook_limit} webhooks and all are registered; delete one or upgrade the plan.`;
      throw quotaExceeded(detail, {
        reason: 'webhook_limit_exceeded', used: hooks.used, delta: 1, limit: hooks.limit, remaining: hooks.remaining,
        consumed: hooks.used, reserved: 0, upgrade_required: true,
      });
    }
    return insertWebhook(tx, {
    org_id: agent.org_id,
    project_id: inbox?.project_id ?? agent.project_id,
    id: newId('wh'),
    agent_id: agent.id,
    url: input.url,
    events,
    inbox_id: inbox?.id ?? null,
    secret_sealed: secret.sealed,
    secret_prefix: secret.prefix,
    });
  });
  return { webhook: { ...row, inbox_address: inbox?.address ?? null }, secret: secret.raw };
}

async function visibleWebhook(deps: WebhookDeps, scope: Scope, id: string): Promise<WebhookView> {
  const found = await findWebhook(deps.db, scope, id);
  if (!found) throw notFound('webhook');
  return found;
}

export async function changeWebhook(
  deps: WebhookDeps,
  input: Partial<WebhookInput> & { scope: Scope; id: string; active?: boolean },
): Promise<WebhookView> {
  const current = await visibleWebhook(deps, input.scope, input.id);
  const body = input as unknown as Record<string, unknown>;
  const changes: WebhookChanges = {};
  const events = aliased<string[]>(body, 'events', 'event_types');
  if (events !== undefined) changes.events = checkEvents(events);
  const inboxRef = inboxField(body);
  let inboxAddress = current.inbox_address;
  if (inboxRef !== undefined) {
    if (inboxRef === null && input.scope.inbox_id !== null) {
      throw badRequest('inbox', 'An inbox key covers its own inbox only; the webhook keeps naming it.', 'not_allowed');
    }
    const inbox = inboxRef === null ? null : await inboxIn(deps, { ...input.scope, project_id: current.project_id }, inboxRef);
    changes.inbox_id = inbox?.id ?? null;
    inboxAddress = inbox?.address ?? null;
  }
  if (input.url !== undefined) {
    await checkTarget(input.url, deps.config);
    changes.url = input.url;
  }
  if (input.active !== undefined) changes.active = input.active;
  const row = await updateWebhook(deps.db, current.org_id, current.id, changes);
  if (!row) throw notFound('webhook');
  return { ...row, inbox_address: inboxAddress };
}

export async function removeWebhook(deps: WebhookDeps, scope: Scope, id: string): Promise<void> {
  if (!(await deleteWebhook(deps.db, scope, id))) throw notFound('webhook');
}

/** A new secret, shown once; the old one keeps signing beside it for 24 hours. */
export async function rotateSecret(deps: WebhookDeps, scope: Scope, id: string): Promise<{ webhook: WebhookView; secret: string }> {
  const current = await visibleWebhook(deps, scope, id);
  const secret = mintSecret(deps.config);
  const row = await rotateWebhookSecret(deps.db, current.org_id, current.id, {
    sealed: secret.sealed,
    prefix: secret.prefix,
    previousExpiresAt: new Date(deps.now().getTime() + ROTATION_OVERLAP_MS),
  });
  if (!row) throw notFound('webhook');
  return { webhook: { ...row, inbox_address: current.inbox_address }, secret: secret.raw };
}

/** Sends a delivery's event again as a new delivery: the same event id, a fresh signature. */
export async function redeliver(deps: WebhookDeps, scope: Scope, webhookId: string, deliveryId: string): Promise<DeliveryRow> {
  const webhook = await visibleWebhook(deps, scope, webhookId);
  const original = await findDelivery(deps.db, webhook.org_id, webhook.id, deliveryId);
  if (!original) throw notFound('delivery');
  if (!webhook.active) {
    throw new Problem('conflict', {
      detail: 'The webhook is inactive; reactivate it (PATCH with "active": true) before redelivering.',
      errors: [{ field: 'active', code: 'inactive' }],
    });
  }
  return withTransaction(deps.db, async (tx) => {
    const delivery = await insertDelivery(tx, {
      org_id: original.org_id,
      project_id: original.project_id,
      id: newId('whd'),
      webhook_id: original.webhook_id,
      event_id: original.event_id,
      event_type: original.event_type,
      redelivery_of: original.id,
    });
    await enqueueDelivery(tx, deps.queue, { org_id: delivery.org_id, delivery_id: delivery.id, attempt: 1 });
    return delivery;
  });
}
