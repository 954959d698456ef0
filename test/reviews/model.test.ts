// Model-based test of the Review Loop over real HTTP. @xstate/graph walks the review machine to
// every state a review can reach in this deployment (human route; delivery outcomes from a real
// relay); each path is driven through the API (agent plane, console, and the delivery actor
// against the relay). Then, in every reached state, every verb of both planes is tried: a verb the
// review lists in `allowed_actions` never answers 409, and an unlisted one always does.
import assert from 'node:assert/strict';
import { after, describe, it } from '../../testkit/test.ts';
import { getShortestPaths } from '@xstate/graph';
import { deliverReview, reconcileDelivery } from '../../actors/delivery.ts';
import { reviewRequestMachine, type ReviewEvent, type ReviewSnapshot } from '../../machines/review-request.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { startRelay } from '../../testkit/relay.ts';
import { INTENT, agentWithInbox, setPolicy, type Agent } from './setup.ts';

const relay = await startRelay();
after(() => relay.close());
// No worker role: delivery runs only when a path asks for an outcome, so in-flight states stay put.
const svc = await startTestService({ roles: ['api'], env: { SMTP_URL: relay.url } });
const tenant = await createTenant(svc, { plan: 'enterprise' });
const deps = { db: svc.services.db, queue: svc.services.queue, config: svc.config, log: svc.services.log };
const reviewing = await agentWithInbox(svc, tenant);
const direct = await agentWithInbox(svc, tenant);
await setPolicy(direct, 'allow_direct');

const submit = { type: 'submit', draft: {}, intent: null, category_id: null, max_hops: 3, rules_version: 0, route: 'human' } as const;

/** What the outside world can make happen to a review here: no reviewer agents, no timers. */
function events(s: ReviewSnapshot): ReviewEvent[] {
  const parent_revision = s.context.revision;
  return [
    { ...submit, release: false },
    { ...submit, release: true },
    { type: 'open', by: 'human', parent_revision },
    { type: 'approve', by: 'human', parent_revision },
    { type: 'edit', by: 'human', parent_revision, text: 'edited', diff: null },
    { type: 'reject', by: 'human', parent_revision },
    { type: 'chat', from: 'reviewer', by: 'human', message: 'hello', parent_revision },
    { type: 'cancel', by: 'human' },
    { type: 'revise', parent_revision },
    { type: 'restamp', parent_revision, rules_version: 0 },
    { type: 'chat', from: 'composer', message: 'hello', parent_revision },
    { type: 'cancel', by: 'composer' },
    { type: 'delivered', sent_message_id: 'msg_x' },
    { type: 'delivery_failed', error: 'refused' },
    { type: 'delivery_unknown' },
  ];
}

const keyOf = (s: ReviewSnapshot) => JSON.stringify([s.value, s.context.reconciliation_needed, s.context.effective_mode]);
const paths = getShortestPaths(reviewRequestMachine, { events, serializeState: keyOf }).filter((p) => p.state.value !== 'new');

type Live = { agent: Agent; id: string; org: string };

async function current(live: Live) {
  const r = await live.agent.review(live.id);
  assert.equal(r.status, 200);
  return r.body;
}

/** Drives one machine event through the real service. */
async function apply(live: Live | null, e: ReviewEvent): Promise<Live> {
  if (e.type === 'submit') {
    const agent = e.release ? direct : reviewing;
    const r = await agent.send({ to: 'dana@acme.example', subject: 'Model', text: 'Draft', intent: INTENT });
    assert.equal(r.status, 202, r.text);
    const org = tenant.orgId;
    return { agent, id: r.body.review_id, org };
  }
  const l = live!;
  const ok = (r: { status: number; text: string }) => assert.ok(r.status < 300, `${e.type}: ${r.status} ${r.text}`);
  const rev = (await current(l)).revision;
  switch (e.type) {
    case 'open':
    case 'approve':
    case 'reject':
      ok(await l.agent.decide(l.id, { action: e.type, parent_revision: rev }));
      break;
    case 'edit':
      ok(await l.agent.decide(l.id, { action: 'edit', parent_revision: rev, text: 'edited' }));
      break;
    case 'chat':
      if (e.from === 'reviewer') ok(await l.agent.decide(l.id, { action: 'chat', message: 'hello' }));
      else ok(await svc.api.post(`/v1/reviews/${l.id}/chat`, { message: 'hello' }, l.agent.key));
      break;
    case 'cancel':
      if (e.by === 'human') ok(await l.agent.decide(l.id, { action: 'cancel' }));
      else ok(await svc.api.post(`/v1/reviews/${l.id}/cancel`, {}, l.agent.key));
      break;
    case 'revise':
      ok(await svc.api.post(`/v1/reviews/${l.id}/revisions`, { parent_revision: rev, text: 'revised' }, l.agent.key));
      break;
    case 'restamp':
      ok(await svc.api.post(`/v1/reviews/${l.id}/restamp`, { parent_revision: rev }, l.agent.key));
      break;
    case 'delivered':
      if ((await current(l)).send_needs_reconciliation) await reconcileDelivery(deps, { review_id: l.id, outcome: 'delivered' });
      else {
        relay.mode = 'accept';
        await deliverReview(deps, { org_id: l.org, review_id: l.id });
      }
      break;
    case 'delivery_failed':
      relay.mode = 'refuse';
      await deliverReview(deps, { org_id: l.org, review_id: l.id });
      break;
    case 'delivery_unknown':
      relay.mode = 'drop-after-data';
      await deliverReview(deps, { org_id: l.org, review_id: l.id });
      break;
    default:
      throw new Error(`no API for ${e.type}`);
  }
  return l;
}

async function drive(path: (typeof paths)[number]): Promise<Live> {
  let live: Live | null = null;
  for (const step of path.steps) {
    if ((step.event.type as string) === 'xstate.init') continue;
    live = await apply(live, step.event as ReviewEvent);
  }
  const body = await current(live!);
  assert.equal(body.state, path.state.value, 'the API reached the state the model did');
  assert.equal(body.send_needs_reconciliation, path.state.context.reconciliation_needed);
  return live!;
}

type Verb = { plane: 'agent' | 'console'; name: string; call(l: Live, revision: number): Promise<{ status: number; body: any; text: string }> };

const VERBS: Verb[] = [
  { plane: 'agent', name: 'revise', call: (l, r) => svc.api.post(`/v1/reviews/${l.id}/revisions`, { parent_revision: r, text: 'v2' }, l.agent.key) },
  { plane: 'agent', name: 'restamp', call: (l, r) => svc.api.post(`/v1/reviews/${l.id}/restamp`, { parent_revision: r }, l.agent.key) },
  { plane: 'agent', name: 'chat', call: (l) => svc.api.post(`/v1/reviews/${l.id}/chat`, { message: 'question' }, l.agent.key) },
  { plane: 'agent', name: 'cancel', call: (l) => svc.api.post(`/v1/reviews/${l.id}/cancel`, {}, l.agent.key) },
  ...['open', 'approve', 'reject', 'edit', 'chat', 'cancel'].map(
    (name): Verb => ({
      plane: 'console',
      name,
      call: (l, r) =>
        l.agent.decide(l.id, {
          action: name,
          parent_revision: name === 'cancel' ? undefined : r,
          ...(name === 'edit' ? { text: 'human edit' } : {}),
          ...(name === 'chat' ? { message: 'a note' } : {}),
        }),
    }),
  ),
];

async function allowedOn(plane: Verb['plane'], l: Live): Promise<{ allowed: string[]; state: string; revision: number; version: number }> {
  const r = plane === 'agent' ? await l.agent.review(l.id) : await svc.api.get(`${l.agent.A}/reviews/${l.id}`, tenant.consoleToken);
  assert.equal(r.status, 200);
  return { allowed: r.body.allowed_actions, state: r.body.state, revision: r.body.revision, version: r.body.version };
}

describe('the review loop over HTTP, model-based', () => {
  it('reaches every state of the review through the API', () => {
    const states = new Set(paths.map((p) => p.state.value));
    assert.deepEqual([...states].sort(), [
      'approved', 'auto_sent', 'cancelled', 'chatting', 'edited', 'failed', 'in_review', 'needs_review', 'rejected', 'sending_auto', 'sent',
    ]);
    assert.ok(paths.some((p) => p.state.context.reconciliation_needed), 'and a parked delivery');
  });

  for (const path of paths) {
    const label = `${keyOf(path.state)} via ${path.steps.slice(1).map((s) => s.event.type).join(' → ')}`;
    it(`in ${label}: listed verbs never 409, unlisted verbs always do`, async () => {
      // Unlisted verbs change nothing, so one review serves them all.
      const shared = await drive(path);
      const listed: Verb[] = [];
      for (const verb of VERBS) {
        const before = await allowedOn(verb.plane, shared);
        if (before.allowed.includes(verb.name)) {
          listed.push(verb);
          continue;
        }
        const r = await verb.call(shared, before.revision);
        assert.equal(r.status, 409, `${verb.plane} ${verb.name} in ${before.state}: ${r.text}`);
        const terminal = ['sent', 'auto_sent', 'cancelled'].includes(before.state);
        if (terminal) {
          assert.equal(r.body.code, 'terminal');
          assert.ok('sent_message_id' in r.body);
          assert.equal(r.body.errors, undefined, 'terminal carries sent_message_id instead of the state keys');
        } else {
          assert.equal(r.body.code, path.state.context.reconciliation_needed ? 'send_needs_reconciliation' : 'wrong_state');
          const facts = r.body.errors as Array<{ field: string; code: string }>;
          assert.deepEqual(facts.slice(0, 3).map((f) => [f.field, f.code]), [
            ['state', before.state],
            ['revision', String(before.revision)],
            ['version', String(before.version)],
          ]);
          assert.deepEqual(facts.filter((f) => f.field === 'allowed_action').map((f) => f.code), before.allowed);
        }
        const after = await allowedOn(verb.plane, shared);
        assert.equal(after.version, before.version, 'a refused verb changes nothing');
      }
      for (const verb of listed) {
        const fresh = await drive(path);
        const { revision } = await allowedOn(verb.plane, fresh);
        const r = await verb.call(fresh, revision);
        assert.notEqual(r.status, 409, `${verb.plane} ${verb.name} is listed but answered ${r.text}`);
        assert.ok(r.status < 300, `${verb.plane} ${verb.name}: ${r.status} ${r.text}`);
      }
    });
  }
});
