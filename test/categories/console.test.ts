// Categories on both planes: the console creates, edits and moves them between rungs; agents see
// the shared ones and their own private ones only; graduation is refused while pinned or unearned.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';

const svc = await startTestService({ roles: ['api'] });
const tenant = await createTenant(svc);
const other = await createTenant(svc);
const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;
const human = (path: string, body: object = {}) => svc.api.post(path, body, tenant.consoleToken);
const owner = await tenant.enroll('owner-agent');
const sibling = await tenant.enroll('sibling-agent');

test('a category is created supervised with the record fields; PATCH renames it and sets or clears its risk override', async () => {
  const r = await human(`${A}/categories`, { name: 'Demo confirmations', description: 'Confirming a booked demo slot' });
  assert.equal(r.status, 201, r.text);
  assert.match(r.body.id, /^cat_/);
  assert.deepEqual(
    { ...r.body, id: undefined, created_at: undefined, updated_at: undefined },
    { id: undefined, name: 'Demo confirmations', description: 'Confirming a booked demo slot', scope: 'org_shared', agent_id: null,
      rung: 'supervised', pinned: false, clean_approvals: 0, drift_count: 0, risk: null, created_at: undefined, updated_at: undefined },
  );
  const p = await svc.api.patch(`${A}/categories/${r.body.id}`, { name: 'Demos', risk: { graduate_min_approvals: 2 } }, tenant.consoleToken);
  assert.equal(p.status, 200, p.text);
  assert.equal(p.body.name, 'Demos');
  assert.deepEqual(p.body.risk, { graduate_min_approvals: 2 });
  const cleared = await svc.api.patch(`${A}/categories/${r.body.id}`, { risk: null }, tenant.consoleToken);
  assert.equal(cleared.body.risk, null);
  assert.equal(cleared.body.name, 'Demos');
  const unknown = await svc.api.patch(`${A}/categories/${r.body.id}`, { risk: { auto_send_cap_per_day: 5 } }, tenant.consoleToken);
  assert.equal(unknown.status, 400, 'the cap is per customer, not per category');
  const listed = await svc.api.get(`${A}/categories`, tenant.consoleToken);
  assert.ok(listed.body.data.some((c: any) => c.id === r.body.id));
});

test('agent_private: visible to its agent only; another agent gets 404 on read and backlog, and does not list it', async () => {
  const priv = await human(`${A}/categories`, { name: 'Mine', scope: 'agent_private', agent_id: owner.agentId });
  assert.equal(priv.status, 201, priv.text);
  assert.equal(priv.body.agent_id, owner.agentId);
  const shared = await human(`${A}/categories`, { name: 'Shared' });
  const mine = await svc.api.get('/v1/categories', owner.agentKey);
  assert.equal(mine.status, 200, mine.text);
  assert.ok(mine.body.data.some((c: any) => c.id === priv.body.id));
  assert.ok(mine.body.data.some((c: any) => c.id === shared.body.id));
  assert.equal((await svc.api.get(`/v1/categories/${priv.body.id}`, owner.agentKey)).status, 200);

  const theirs = await svc.api.get('/v1/categories', sibling.agentKey);
  assert.ok(!theirs.body.data.some((c: any) => c.id === priv.body.id));
  assert.ok(theirs.body.data.some((c: any) => c.id === shared.body.id));
  const hidden = await svc.api.get(`/v1/categories/${priv.body.id}`, sibling.agentKey);
  assert.equal(hidden.status, 404);
  assert.equal(hidden.body.code, 'not_found');
  assert.equal((await svc.api.get(`/v1/categories/${priv.body.id}/backlog-status`, sibling.agentKey)).status, 404);

  const stranger = await other.enroll('stranger');
  assert.equal((await svc.api.get(`/v1/categories/${shared.body.id}`, stranger.agentKey)).status, 404, 'another org');
  assert.equal((await svc.api.get(`/v1/admin/orgs/${other.orgId}/projects/${other.projectId}/categories/${shared.body.id}/backlog-status`, other.consoleToken)).status, 404);

  const missing = await human(`${A}/categories`, { name: 'No owner', scope: 'agent_private' });
  assert.equal(missing.status, 400);
  assert.equal(missing.body.errors[0].field, 'agent_id');
});

test('graduate before the rung is earned is 409 maturity_gate_unmet naming what is missing; pinned is 409 graduation_locked', async () => {
  const c = await human(`${A}/categories`, { name: 'Unearned', risk: { graduate_min_approvals: 3, graduate_min_age_hours: 48 } });
  const early = await human(`${A}/categories/${c.body.id}/graduate`);
  assert.equal(early.status, 409, early.text);
  assert.equal(early.body.code, 'maturity_gate_unmet');
  assert.deepEqual(early.body.errors.filter((e: any) => e.field !== 'rung' && e.field !== 'allowed_action').map((e: any) => e.field), ['clean_approvals', 'age_hours']);
  assert.equal((await svc.api.get(`${A}/machines/category/${c.body.id}`, tenant.consoleToken)).body.state, 'supervised');

  const pinned = await human(`${A}/categories/${c.body.id}/pin`);
  assert.equal(pinned.status, 200, pinned.text);
  assert.equal(pinned.body.pinned, true);
  assert.equal(pinned.body.rung, 'supervised');
  const locked = await human(`${A}/categories/${c.body.id}/graduate`);
  assert.equal(locked.status, 409);
  assert.equal(locked.body.code, 'graduation_locked');
  assert.deepEqual(locked.body.errors.filter((e: any) => e.field === 'allowed_action').map((e: any) => e.code), ['unpin']);
  const unpinned = await human(`${A}/categories/${c.body.id}/pin`, { pinned: false });
  assert.equal(unpinned.body.pinned, false);
  assert.equal((await human(`${A}/categories/${c.body.id}/demote`)).body.code, 'conflict', 'nothing below supervised');
});

test('an earned graduation moves one rung with category.graduated; demote moves back with category.demoted; the snapshot shows the transitions', async () => {
  const c = await human(`${A}/categories`, { name: 'Open gates', risk: { graduate_min_approvals: 0, graduate_min_age_hours: 0 } });
  const up = await human(`${A}/categories/${c.body.id}/graduate`);
  assert.equal(up.status, 200, up.text);
  assert.equal(up.body.rung, 'auto_notify');
  assert.equal((await human(`${A}/categories/${c.body.id}/graduate`)).body.rung, 'autonomous');
  assert.equal((await human(`${A}/categories/${c.body.id}/graduate`)).body.code, 'conflict', 'nothing above autonomous');
  const down = await human(`${A}/categories/${c.body.id}/demote`);
  assert.equal(down.body.rung, 'auto_notify');
  const machine = await svc.api.get(`${A}/machines/category/${c.body.id}`, tenant.consoleToken);
  assert.equal(machine.status, 200, machine.text);
  assert.deepEqual(machine.body.transitions.map((t: any) => t.to_state), ['supervised', 'auto_notify', 'autonomous', 'auto_notify']);
  assert.deepEqual(machine.body.allowed_actions, ['graduate', 'demote', 'pin']);
  const { rows } = await svc.services.db.query(
    `SELECT type, payload FROM events WHERE org_id = $1 AND payload->'category'->>'id' = $2 ORDER BY id`, [tenant.orgId, c.body.id]);
  assert.deepEqual(rows.map((r) => [r.type, r.payload.from_rung, r.payload.to_rung, r.payload.by]), [
    ['category.graduated', 'supervised', 'auto_notify', 'human'],
    ['category.graduated', 'auto_notify', 'autonomous', 'human'],
    ['category.demoted', 'autonomous', 'auto_notify', 'human'],
  ]);
  assert.equal(rows[2].payload.category.rung, 'auto_notify');
});
