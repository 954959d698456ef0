import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { applyEvent, createInstance, describeMachine, type MachineAction, type MachineKind } from '../../actors/run-machine.ts';
import { allowedActions, classifyRejection } from '../../machines/review-verbs.ts';
import { REVIEW_MACHINE_VERSION, reviewRequestMachine } from '../../machines/review-request.ts';
import { Problem } from '../../machines/problems.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';

const svc = await startTestService({ roles: ['api'] });
const tenant = await createTenant(svc);
const performed: MachineAction[] = [];

const kind: MachineKind = {
  kind: 'review',
  machine: reviewRequestMachine,
  version: REVIEW_MACHINE_VERSION,
  async perform(action, ctx) {
    performed.push(action);
    if (action.type === 'deliver') await ctx.enqueue('maintenance', { probe: ctx.row.id });
  },
  reject: (snapshot, event) => {
    const why = classifyRejection(snapshot as any, event as any);
    return why ? new Problem(why) : null;
  },
  allowed: (snapshot) => allowedActions(snapshot as any),
};

const submit = {
  type: 'submit',
  release: false,
  draft: { to: ['a@example.com'], subject: 'Hi', text: 'Hello' },
  intent: { summary: 'Say hello to a customer' },
  category_id: null,
  route: 'human',
  max_hops: 3,
  rules_version: 0,
};

const ref = (id: string) => ({ org_id: tenant.orgId, project_id: tenant.projectId, id });

test('an instance is created by its first event and moves one version per accepted event', async () => {
  performed.length = 0;
  const created = await createInstance(svc.services.db, svc.services.queue, kind, ref('rr_runner1'), submit);
  assert.equal(created.row.state, 'needs_review');
  assert.equal(created.row.version, 1);
  assert.ok(performed.some((a) => a.type === 'emitReviewEvent'));
  const opened = await applyEvent(svc.services.db, svc.services.queue, kind, { id: 'rr_runner1' }, { type: 'open', by: 'human' } as any);
  assert.equal(opened.row.state, 'in_review');
  assert.equal(opened.row.version, 2);
  assert.equal(opened.previousState, 'needs_review');
  const d = await describeMachine(svc.services.db, kind, tenant.orgId, 'rr_runner1');
  assert.equal(d!.state, 'in_review');
  assert.equal(d!.version, 2);
  assert.deepEqual(d!.transitions.map((t) => [t.from_state, t.to_state, t.event.type]), [[null, 'needs_review', 'submit'], ['needs_review', 'in_review', 'open']]);
  assert.ok(d!.allowed_actions.includes('approve'));
  assert.ok(!d!.allowed_actions.includes('open'));
});

test('a refused event changes nothing and throws the machine\'s reason', async () => {
  await createInstance(svc.services.db, svc.services.queue, kind, ref('rr_runner2'), submit);
  await assert.rejects(
    applyEvent(svc.services.db, svc.services.queue, kind, { id: 'rr_runner2' }, { type: 'hand_back' } as any),
    (err: any) => err instanceof Problem && err.code === 'wrong_state',
  );
  const d = await describeMachine(svc.services.db, kind, tenant.orgId, 'rr_runner2');
  assert.equal(d!.version, 1);
  assert.equal(d!.transitions.length, 1);
});

test('an expected version that is no longer current is stale and changes nothing', async () => {
  await createInstance(svc.services.db, svc.services.queue, kind, ref('rr_runner3'), submit);
  await applyEvent(svc.services.db, svc.services.queue, kind, { id: 'rr_runner3' }, { type: 'open', by: 'human' } as any);
  await assert.rejects(
    applyEvent(svc.services.db, svc.services.queue, kind, { id: 'rr_runner3', expectedVersion: 1 }, { type: 'approve', by: 'human' } as any),
    (err: any) => err instanceof Problem && err.code === 'stale',
  );
  assert.equal((await describeMachine(svc.services.db, kind, tenant.orgId, 'rr_runner3'))!.state, 'in_review');
});

test('another tenant\'s instance is not found', async () => {
  await createInstance(svc.services.db, svc.services.queue, kind, ref('rr_runner4'), submit);
  await assert.rejects(
    applyEvent(svc.services.db, svc.services.queue, kind, { id: 'rr_runner4', org_id: 'org_other' }, { type: 'open', by: 'human' } as any),
    (err: any) => err instanceof Problem && err.code === 'not_found',
  );
});

test('jobs asked for by actions commit with the transition; a failing action rolls everything back', async () => {
  await createInstance(svc.services.db, svc.services.queue, kind, ref('rr_runner5'), submit);
  const approved = await applyEvent(svc.services.db, svc.services.queue, kind, { id: 'rr_runner5' }, { type: 'approve', by: 'human' } as any);
  assert.equal(approved.row.state, 'approved');
  const { rows } = await svc.services.db.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'maintenance' AND data->>'probe' = 'rr_runner5'`);
  assert.equal(rows[0].n, 1);

  const failing: MachineKind = { ...kind, perform: async () => { throw new Error('effect failed'); } };
  await createInstance(svc.services.db, svc.services.queue, kind, ref('rr_runner6'), submit);
  await assert.rejects(applyEvent(svc.services.db, svc.services.queue, failing, { id: 'rr_runner6' }, { type: 'open', by: 'human' } as any), /effect failed/);
  const d = await describeMachine(svc.services.db, kind, tenant.orgId, 'rr_runner6');
  assert.equal(d!.state, 'needs_review');
  assert.equal(d!.version, 1);
});

test('concurrent events on one instance serialise: each applies to the state the other left', async () => {
  await createInstance(svc.services.db, svc.services.queue, kind, ref('rr_runner7'), submit);
  const results = await Promise.allSettled([
    applyEvent(svc.services.db, svc.services.queue, kind, { id: 'rr_runner7' }, { type: 'approve', by: 'human' } as any),
    applyEvent(svc.services.db, svc.services.queue, kind, { id: 'rr_runner7' }, { type: 'reject', by: 'human' } as any),
  ]);
  assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1, 'exactly one decision wins');
  const d = await describeMachine(svc.services.db, kind, tenant.orgId, 'rr_runner7');
  assert.equal(d!.version, 2);
});
