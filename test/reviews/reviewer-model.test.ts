// Model-based test of the reviewer paths over real HTTP. @xstate/graph walks the review machine
// for a review routed to a linked reviewer agent (max_hops 2): the reviewer's verbs, hand_back up
// to the human, escalation, the deadline, the human's and the composer's moves. Each path is driven
// through the API (the reviewer plane, the console, the agent plane; the timers as their workers
// fire them), and the API must land where the model did: state, route and hops. Then, in every
// reached state, every reviewer verb is tried: where the review waits on the reviewer, a verb in
// the `allowed_actions` of its work item succeeds and an unlisted one is 409; where it was decided
// or finished on the reviewer's route, every verb is 409; where it is routed elsewhere, 404.
import assert from 'node:assert/strict';
import { after, describe, it } from '../../testkit/test.ts';
import { getShortestPaths } from '@xstate/graph';
import { deliverReview } from '../../actors/delivery.ts';
import { applyWorkerEvent } from '../../actors/reviews/apply.ts';
import { reviewRequestMachine, type ReviewEvent, type ReviewSnapshot, type RouteChoice } from '../../machines/review-request.ts';
import { withTransaction } from '../../storage/db.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { startRelay } from '../../testkit/relay.ts';
import { linkReviewer, reviewerAgent } from './reviewer-setup.ts';
import { INTENT, agentWithInbox, type Agent } from './setup.ts';

const relay = await startRelay();
after(() => relay.close());
// No worker role: delivery and the timers run only when a path asks for them.
const svc = await startTestService({ roles: ['api'], env: { SMTP_URL: relay.url } });
const tenant = await createTenant(svc, { plan: 'enterprise' });
const deps = { db: svc.services.db, queue: svc.services.queue, config: svc.config, log: svc.services.log };
const composer = await agentWithInbox(svc, tenant);
const reviewer = await reviewerAgent(svc, tenant);
const MAX_HOPS = 2;
const link = await linkReviewer(svc, tenant, { inbox_address: composer.address, reviewer_agent_id: reviewer.agentId, transport: 'sse', max_hops: MAX_HOPS });
assert.equal(link.status, 201, link.text);

const choice: RouteChoice = { route: 'reviewer_agent', reviewer: { agent_id: reviewer.agentId, link_id: link.body.id }, max_hops: MAX_HOPS, escalate_after_s: 300 };
const submit: ReviewEvent = { type: 'submit', release: false, draft: {}, intent: null, category_id: null, rules_version: 0, ...choice, review_deadline_s: 86400 };

/** What can happen to a review routed through the link. Reviewer verbs only while routed to it (else 404, tried below). */
function events(s: ReviewSnapshot): ReviewEvent[] {
  const parent_revision = s.context.revision;
  const byReviewer: ReviewEvent[] =
    s.context.route === 'reviewer_agent'
      ? [
          { type: 'open', by: 'reviewer_agent', parent_revision },
          { type: 'approve', by: 'reviewer_agent', parent_revision },
          { type: 'reject', by: 'reviewer_agent', parent_revision },
          { type: 'chat', from: 'reviewer', by: 'reviewer_agent', message: 'hello', parent_revision },
          { type: 'hand_back', parent_revision, feedback: 'again' },
        ]
      : [];
  return [
    submit,
    ...byReviewer,
    { type: 'open', by: 'human', parent_revision },
    { type: 'approve', by: 'human', parent_revision },
    // The API routes every revision through the link; the machine keeps the human once hops are used up.
    { type: 'revise', parent_revision, reroute: choice },
    { type: 'cancel', by: 'composer' },
    { type: 'escalate', epoch: s.context.escalation_epoch },
    { type: 'deadline' },
    { type: 'delivered', sent_message_id: 'msg_x' },
  ];
}

const keyOf = (s: ReviewSnapshot) => JSON.stringify([s.value, s.context.route, s.context.hops, s.context.cancelled_by]);
const paths = getShortestPaths(reviewRequestMachine, { events, serializeState: keyOf }).filter((p) => p.state.value !== 'new');

type Live = { agent: Agent; id: string };

async function current(live: Live) {
  const r = await live.agent.review(live.id);
  assert.equal(r.status, 200);
  return r.body;
}

const escalationEpoch = async (id: string): Promise<number> =>
  (await svc.services.db.query(`SELECT (snapshot -> 'context' ->> 'escalation_epoch')::int AS epoch FROM machine_instances WHERE kind = 'review' AND id = $1`, [id])).rows[0].epoch;

/** Drives one machine event through the real service. */
async function apply(live: Live | null, e: ReviewEvent): Promise<Live> {
  if (e.type === 'submit') {
    const r = await composer.send({ to: 'dana@acme.example', subject: 'Model', text: 'Draft', intent: INTENT });
    assert.equal(r.status, 202, r.text);
    assert.equal(r.body.review.route, 'reviewer_agent');
    return { agent: composer, id: r.body.review_id };
  }
  const l = live!;
  const ok = (r: { status: number; text: string }) => assert.ok(r.status < 300, `${e.type}: ${r.status} ${r.text}`);
  const rev = (await current(l)).revision;
  const byReviewer = 'by' in e && e.by === 'reviewer_agent';
  switch (e.type) {
    case 'open':
    case 'approve':
    case 'reject':
      ok(byReviewer ? await reviewer.decide(l.id, { action: e.type, parent_revision: rev }) : await l.agent.decide(l.id, { action: e.type, parent_revision: rev }));
      break;
    case 'chat':
      ok(await reviewer.decide(l.id, { action: 'chat', message: 'hello', parent_revision: rev }));
      break;
    case 'hand_back':
      ok(await reviewer.decide(l.id, { action: 'hand_back', parent_revision: rev, feedback: 'again' }));
      break;
    case 'cancel':
      ok(await svc.api.post(`/v1/reviews/${l.id}/cancel`, {}, l.agent.key));
      break;
    case 'revise':
      ok(await svc.api.post(`/v1/reviews/${l.id}/revisions`, { parent_revision: rev, text: `revised ${rev}` }, l.agent.key));
      break;
    case 'escalate':
    case 'deadline': {
      // As the timer workers fire them: the escalation job carries the epoch it was armed at.
      const event: ReviewEvent = e.type === 'escalate' ? { type: 'escalate', epoch: await escalationEpoch(l.id) } : { type: 'deadline' };
      await withTransaction(deps.db, (tx) => applyWorkerEvent(tx, deps.queue, tenant.orgId, l.id, event));
      break;
    }
    case 'delivered':
      relay.mode = 'accept';
      await deliverReview(deps, { org_id: tenant.orgId, review_id: l.id });
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
  assert.deepEqual([body.state, body.route, body.hops], [path.state.value, path.state.context.route, path.state.context.hops], 'the API reached the state the model did');
  return live!;
}

const REVIEWER_VERBS = ['open', 'approve', 'edit', 'reject', 'chat', 'hand_back'];
const verbBody = (verb: string, revision: number) => ({
  action: verb,
  parent_revision: revision,
  ...(verb === 'edit' ? { text: 'reviewer edit' } : {}),
  ...(verb === 'chat' ? { message: 'a note' } : {}),
  ...(verb === 'hand_back' ? { feedback: 'try again' } : {}),
});

/** The reviewer's view of the review: its work item in the queue, or null when it is not the reviewer's now. */
async function workItem(l: Live): Promise<any | null> {
  const r = await reviewer.queue('?limit=100');
  assert.equal(r.status, 200);
  return r.body.data.find((w: any) => w.review_id === l.id) ?? null;
}

describe('the reviewer paths over HTTP, model-based', () => {
  it('reaches hand_back up to the human, escalation, the deadline and delivery through the API', () => {
    const reached = new Set(paths.map((p) => keyOf(p.state)));
    for (const key of [
      ['in_review', 'reviewer_agent', 1, null],
      ['needs_review', 'human', MAX_HOPS, null],
      ['needs_review', 'human', 0, null],
      ['cancelled', 'reviewer_agent', 0, 'composer'],
      ['cancelled', 'reviewer_agent', 0, 'deadline'],
      ['sent', 'reviewer_agent', 0, null],
    ]) {
      assert.ok(reached.has(JSON.stringify(key)), `reaches ${JSON.stringify(key)}`);
    }
    assert.ok(paths.some((p) => p.steps.some((s) => s.event.type === 'escalate')), 'a path escalates');
    assert.ok(paths.some((p) => p.steps.some((s) => s.event.type === 'deadline')), 'a path meets the deadline');
  });

  for (const path of paths) {
    const label = `${keyOf(path.state)} via ${path.steps.slice(1).map((s) => s.event.type).join(' → ')}`;
    it(`in ${label}: the reviewer's listed verbs succeed, unlisted ones are 409, and 404 when not its review`, async () => {
      const shared = await drive(path);
      const item = await workItem(shared);
      const routed = path.state.context.route === 'reviewer_agent' && ['needs_review', 'in_review', 'chatting'].includes(String(path.state.value));
      assert.equal(item !== null, routed, 'the queue holds the review exactly while it waits on the reviewer');
      const before = await current(shared);
      if (!item) {
        // Routed elsewhere: not the reviewer's review (404). Still its own but decided or
        // finished: nothing is allowed (409).
        const expected = before.route === 'reviewer_agent' ? 409 : 404;
        for (const verb of REVIEWER_VERBS) {
          const r = await reviewer.decide(shared.id, verbBody(verb, before.revision));
          assert.equal(r.status, expected, `${verb} in ${before.state} routed to ${before.route}: ${r.text}`);
        }
        assert.equal((await current(shared)).version, before.version, 'a refused verb changes nothing');
        return;
      }
      const listed: string[] = item.allowed_actions;
      for (const verb of REVIEWER_VERBS.filter((v) => !listed.includes(v))) {
        const r = await reviewer.decide(shared.id, verbBody(verb, before.revision));
        assert.equal(r.status, 409, `${verb} is not listed in ${before.state} but answered ${r.text}`);
        assert.equal(r.body.code, 'wrong_state');
        assert.deepEqual(r.body.errors.filter((f: any) => f.field === 'allowed_action').map((f: any) => f.code), listed);
      }
      assert.equal((await current(shared)).version, before.version, 'a refused verb changes nothing');
      for (const verb of listed) {
        const fresh = await drive(path);
        const r = await reviewer.decide(fresh.id, verbBody(verb, (await current(fresh)).revision));
        assert.equal(r.status, 200, `${verb} is listed in ${before.state} but answered ${r.text}`);
      }
    });
  }
});
