// The console plane of the Review Loop: review settings and per-inbox policy, the human queue,
// decisions, machine snapshots, and the review deadline.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { machineGraph } from '../../machines/graph.ts';
import { reviewRequestMachine } from '../../machines/review-request.ts';
import { ruleMachine } from '../../machines/rule.ts';
import { newId } from '../../storage/ids.ts';
import { insertMembership, upsertUser } from '../../storage/tenancy.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
import { INTENT, agentWithInbox } from './setup.ts';

const svc = await startTestService({ roles: ['api'] });
const tenant = await createTenant(svc, { plan: 'enterprise' });
const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;

async function memberToken(role: 'member' | 'viewer'): Promise<string> {
  const email = `${role}-${newId('u')}@example.com`;
  const user = await upsertUser(svc.services.db, newId('usr'), email);
  await insertMembership(svc.services.db, { org_id: tenant.orgId, user_id: user.id, project_id: null, role });
  return svc.services.identity.mint!(email);
}

test('review settings: defaults, an admin changes them, a member may not', async () => {
  const r = await svc.api.get(`${A}/review-settings`, tenant.consoleToken);
  assert.equal(r.status, 200);
  assert.deepEqual(
    { ...r.body, updated_at: undefined },
    {
      default_review_policy: 'require_review',
      min_confidence: 0.9,
      first_contact_gate: true,
      drift_demote_after: 3,
      canary_rate: 0.1,
      graduate_min_approvals: 20,
      graduate_min_age_hours: 72,
      auto_send_cap_per_day: 100,
      updated_at: undefined,
    },
  );
  const member = await memberToken('member');
  const refused = await svc.api.patch(`${A}/review-settings`, { default_review_policy: 'allow_direct' }, member);
  assert.equal(refused.status, 403);
  assert.equal(refused.body.code, 'forbidden_scope');
  assert.equal((await svc.api.get(`${A}/review-settings`, member)).status, 200);

  const changed = await svc.api.patch(`${A}/review-settings`, { canary_rate: 0.25, first_contact_gate: false }, tenant.consoleToken);
  assert.equal(changed.status, 200);
  assert.equal(changed.body.canary_rate, 0.25);
  assert.equal(changed.body.first_contact_gate, false);
  assert.equal(changed.body.min_confidence, 0.9, 'fields not named keep their values');
  const bad = await svc.api.patch(`${A}/review-settings`, { canary_rate: 2 }, tenant.consoleToken);
  assert.equal(bad.status, 400);
  assert.equal(bad.body.code, 'bad_request');
});

test('the account default and the per-inbox override decide the effective policy, with its source', async () => {
  const other = await createTenant(svc, { plan: 'enterprise' });
  const OA = `/v1/admin/orgs/${other.orgId}/projects/${other.projectId}`;
  const agent = await agentWithInbox(svc, other);
  assert.equal((await svc.api.patch(`${OA}/review-settings`, { default_review_policy: 'allow_direct' }, other.consoleToken)).status, 200);
  const inbox = await svc.api.get(`/v1/inboxes/${agent.inboxId}`, agent.key);
  assert.deepEqual(inbox.body.effective_review_policy, { policy: 'allow_direct', source: 'account_default' });
  const released = await agent.send({ to: 'dana@acme.example', text: 'no intent needed' });
  assert.equal(released.status, 202);
  assert.equal(released.body.outcome, 'released');

  const pinned = await svc.api.patch(`${OA}/inboxes/${agent.address}`, { review_policy: 'require_review' }, other.consoleToken);
  assert.equal(pinned.status, 200);
  assert.deepEqual(pinned.body.effective_review_policy, { policy: 'require_review', source: 'inbox_override' });
  assert.equal((await agent.send({ to: 'dana@acme.example', text: 'now it needs one' })).body.code, 'intent_required');

  const inherit = await svc.api.patch(`${OA}/inboxes/${agent.inboxId}`, { review_policy: null }, other.consoleToken);
  assert.equal(inherit.body.review_policy, null);
  assert.deepEqual(inherit.body.effective_review_policy, { policy: 'allow_direct', source: 'account_default' });

  assert.equal((await svc.api.patch(`${A}/inboxes/${agent.inboxId}`, { review_policy: null }, tenant.consoleToken)).status, 404, 'an inbox of another project');
});

test('the human queue lists oldest first, filters by state and agent, and pages', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push((await agent.send({ to: 'dana@acme.example', text: `draft ${i}`, intent: INTENT })).body.review_id);
  await agent.decide(ids[1]!, { action: 'open' });
  const page1 = await svc.api.get(`${A}/reviews?agent_id=${agent.agentId}&limit=2`, tenant.consoleToken);
  assert.equal(page1.status, 200);
  assert.deepEqual(page1.body.data.map((r: any) => r.id), ids.slice(0, 2));
  const page2 = await svc.api.get(`${A}/reviews?agent_id=${agent.agentId}&limit=2&cursor=${page1.body.next_cursor}`, tenant.consoleToken);
  assert.deepEqual(page2.body.data.map((r: any) => r.id), [ids[2]]);
  const open = await svc.api.get(`${A}/reviews?agent_id=${agent.agentId}&state=in_review,chatting`, tenant.consoleToken);
  assert.deepEqual(open.body.data.map((r: any) => [r.id, r.allowed_actions]), [[ids[1], ['approve', 'edit', 'reject', 'chat', 'cancel']]]);
  const bad = await svc.api.get(`${A}/reviews?state=lost`, tenant.consoleToken);
  assert.equal(bad.status, 400);
  const agentList = await svc.api.get('/v1/reviews?state=needs_review', agent.key);
  assert.deepEqual(agentList.body.data.map((r: any) => r.id), [ids[2], ids[0]], 'the agent lists newest first');
});

test('reject with feedback, revise, approve: the feedback reaches the composer; a viewer cannot decide', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const id = (await agent.send({ to: 'dana@acme.example', subject: 'Offer', text: 'Buy now!!!', intent: INTENT })).body.review_id;
  const viewer = await memberToken('viewer');
  const denied = await svc.api.post(`${A}/reviews/${id}/decision`, { action: 'open' }, viewer);
  assert.equal(denied.status, 403);
  assert.equal((await svc.api.get(`${A}/reviews/${id}`, viewer)).status, 200);

  const rejected = await agent.decide(id, { action: 'reject', feedback: 'Too pushy; drop the exclamation marks.' });
  assert.equal(rejected.status, 200);
  assert.equal(rejected.body.state, 'rejected');
  assert.equal(rejected.body.feedback, 'Too pushy; drop the exclamation marks.');
  assert.deepEqual(rejected.body.allowed_actions, ['cancel']);
  const seen = await agent.review(id);
  assert.equal(seen.body.feedback, 'Too pushy; drop the exclamation marks.');
  assert.deepEqual(seen.body.allowed_actions, ['revise', 'restamp', 'cancel']);

  const revised = await svc.api.post(`/v1/reviews/${id}/revisions`, { parent_revision: 1, text: 'Would a 10% discount help?' }, agent.key);
  assert.equal(revised.body.state, 'needs_review');
  assert.equal(revised.body.revision, 2);
  const approved = await agent.decide(id, { action: 'approve', parent_revision: 2, feedback: 'Good.' });
  assert.equal(approved.status, 200);
  assert.equal(approved.body.state, 'approved');

  const detail = await svc.api.get(`${A}/reviews/${id}`, tenant.consoleToken);
  assert.deepEqual(detail.body.feedback_history.map((f: any) => [f.kind, f.author, f.revision, f.feedback, f.author_email]), [
    ['reject', 'human', 1, 'Too pushy; drop the exclamation marks.', tenant.email],
    ['approve', 'human', 2, 'Good.', tenant.email],
  ]);
  const events = (await agent.drain(`?review_id=${id}`)).map((e) => [e.type, e.revision]);
  assert.deepEqual(events, [
    ['review.created', 1],
    ['review.rejected', 1],
    ['review.needs_review', 2],
    ['review.approved', 2],
  ]);
});

test('a human cancel withdraws the draft; an edit needs text or subject', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const id = (await agent.send({ to: 'dana@acme.example', text: 'x', intent: INTENT })).body.review_id;
  const empty = await agent.decide(id, { action: 'edit' });
  assert.equal(empty.status, 400);
  const unknown = await agent.decide(id, { action: 'hand_back' });
  assert.equal(unknown.status, 400, 'hand_back belongs to reviewer agents');
  const cancelled = await agent.decide(id, { action: 'cancel', feedback: 'wrong recipient' });
  assert.equal(cancelled.status, 200);
  assert.equal(cancelled.body.state, 'cancelled');
  const seen = (await agent.review(id)).body;
  assert.deepEqual([seen.cancelled_by, seen.cancel_reason], ['human', 'wrong recipient']);
  assert.equal((await agent.decide('rr_missing', { action: 'open' })).status, 404);
});

test('machine snapshots: state, version, every transition and the legal verbs; other kinds and projects are 404', async () => {
  const agent = await agentWithInbox(svc, tenant);
  const id = (await agent.send({ to: 'dana@acme.example', text: 'x', intent: INTENT })).body.review_id;
  await agent.decide(id, { action: 'open' });
  const m = await svc.api.get(`${A}/machines/review/${id}`, tenant.consoleToken);
  assert.equal(m.status, 200);
  assert.equal(m.body.kind, 'review');
  assert.equal(m.body.state, 'in_review');
  assert.equal(m.body.version, 2);
  assert.equal(m.body.machine_version, 1);
  assert.equal(m.body.snapshot.value, 'in_review');
  assert.deepEqual(m.body.transitions.map((t: any) => [t.version, t.event.type, t.from_state, t.to_state]), [
    [1, 'submit', null, 'needs_review'],
    [2, 'open', 'needs_review', 'in_review'],
  ]);
  assert.deepEqual(m.body.allowed_actions, ['approve', 'edit', 'reject', 'chat', 'revise', 'cancel']);
  // The definition it is drawn from: generated from the machine, the recorded steps among its edges.
  assert.deepEqual(m.body.diagram, machineGraph(reviewRequestMachine));
  assert.equal(m.body.diagram.initial, 'new');
  assert.ok(m.body.diagram.edges.some((e: any) => e.from === 'needs_review' && e.to === 'in_review' && e.event === 'open' && e.guard === 'mayDecide'));
  assert.deepEqual(m.body.diagram.states.filter((s: any) => s.final).map((s: any) => s.name), ['sent', 'auto_sent', 'cancelled']);
  assert.equal((await svc.api.get(`${A}/machines/rule/${id}`, tenant.consoleToken)).status, 404);
  const rule = await svc.api.post(`${A}/rules`, { rule_text: 'Sign off with "Best, Dana".' }, tenant.consoleToken);
  assert.equal(rule.status, 201, rule.text);
  const rm = await svc.api.get(`${A}/machines/rule/${rule.body.id}`, tenant.consoleToken);
  assert.equal(rm.status, 200, rm.text);
  assert.deepEqual([rm.body.kind, rm.body.state, rm.body.diagram.initial], ['rule', 'active', 'new']);
  assert.deepEqual(rm.body.transitions.map((t: any) => [t.event.type, t.from_state, t.to_state]), [['create', null, 'active']]);
  assert.deepEqual(rm.body.diagram, machineGraph(ruleMachine));
  assert.equal((await svc.api.get(`${A}/machines/signup/${id}`, tenant.consoleToken)).status, 404);
  const elsewhere = await createTenant(svc);
  const EA = `/v1/admin/orgs/${elsewhere.orgId}/projects/${elsewhere.projectId}`;
  assert.equal((await svc.api.get(`${EA}/machines/review/${id}`, elsewhere.consoleToken)).status, 404);
  assert.equal((await svc.api.get(`${EA}/machines/rule/${rule.body.id}`, elsewhere.consoleToken)).status, 404);
  assert.equal((await svc.api.get(`${EA}/reviews/${id}`, elsewhere.consoleToken)).status, 404);
});

test('with REVIEW_DEADLINE_SECONDS a review nobody decides is cancelled with deadline_exceeded', async () => {
  const timed = await startTestService({ env: { REVIEW_DEADLINE_SECONDS: '1' } });
  const t = await createTenant(timed);
  const agent = await agentWithInbox(timed, t);
  const r = await agent.send({ to: 'dana@acme.example', text: 'x', intent: INTENT });
  assert.ok(r.body.review.deadline_at);
  const done = await agent.until(r.body.review_id, 'cancelled', 15_000);
  assert.deepEqual([done.cancelled_by, done.cancel_reason], ['deadline', 'deadline_exceeded']);
  const events = await waitFor(async () => {
    const e = await agent.drain();
    return e.length === 2 ? e : null;
  }, 'the cancellation event');
  assert.deepEqual(events.map((e) => e.type), ['review.created', 'review.cancelled']);
});
