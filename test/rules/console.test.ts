// Writing rules on the console plane, through real HTTP: create, revise (append-only lineage),
// activate, retire, the audit with undo, org-layer rules, the events and the high-water they leave.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { newId } from '../../storage/ids.ts';
import { highWater } from '../../storage/rules.ts';
import { insertMembership, insertProject, upsertUser } from '../../storage/tenancy.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';

const svc = await startTestService({ roles: ['api'] });
const tenant = await createTenant(svc);
const O = `/v1/admin/orgs/${tenant.orgId}`;
const A = `${O}/projects/${tenant.projectId}`;
// Rules of scope category name a category of the project that exists.
const orders: string = (await svc.api.post(`${A}/categories`, { name: 'Orders' }, tenant.consoleToken)).body.id;
const token = tenant.consoleToken;
const db = svc.services.db;

async function eventsOf(type: string, ruleId: string): Promise<{ project_id: string; payload: any }[]> {
  const { rows } = await db.query(`SELECT project_id, payload FROM events WHERE org_id = $1 AND type = $2 AND payload->'rule'->>'id' = $3`, [tenant.orgId, type, ruleId]);
  return rows;
}

const post = (path: string, body: object = {}) => svc.api.post(path, body, token);

test('a human rule is created active at rev 1 in a new lineage, emits rule.created and raises the high-water', async () => {
  const before = await highWater(db, tenant.orgId, tenant.projectId);
  const r = await post(`${A}/rules`, { rule_text: 'Sign off with "Best, Dana".', priority: 5 });
  assert.equal(r.status, 201, r.text);
  assert.match(r.body.id, /^rule_/);
  assert.match(r.body.lineage_id, /^rln_/);
  assert.equal(r.body.rev, 1);
  assert.equal(r.body.status, 'active');
  assert.equal(r.body.rule_layer, 'project');
  assert.equal(r.body.project_id, tenant.projectId);
  assert.equal(r.body.scope, 'general');
  assert.equal(r.body.kind, 'soft');
  assert.equal(r.body.priority, 5);
  assert.equal(r.body.author_kind, 'human');
  assert.equal(r.body.supersedes_id, null);
  assert.equal(await highWater(db, tenant.orgId, tenant.projectId), before + 1);
  const created = await eventsOf('rule.created', r.body.id);
  assert.equal(created.length, 1);
  assert.equal(created[0]!.payload.rule.status, 'active');
});

test('a revision is a new rule in the same lineage; the prior one is superseded, and both are kept', async () => {
  const first = (await post(`${A}/rules`, { rule_text: 'Use British spelling.' })).body;
  const hw = await highWater(db, tenant.orgId, tenant.projectId);
  const r = await post(`${A}/rules/${first.id}/revisions`, { rule_text: 'Use British spelling, except in product names.', kind: 'hard' });
  assert.equal(r.status, 201, r.text);
  assert.notEqual(r.body.id, first.id);
  assert.equal(r.body.lineage_id, first.lineage_id);
  assert.equal(r.body.rev, 2);
  assert.equal(r.body.supersedes_id, first.id);
  assert.equal(r.body.status, 'active');
  assert.equal(r.body.kind, 'hard');
  assert.equal(r.body.rule_text, 'Use British spelling, except in product names.');
  const lineage = await svc.api.get(`${A}/rules?lineage_id=${first.lineage_id}`, token);
  assert.deepEqual(lineage.body.data.map((x: any) => [x.rev, x.status, x.rule_text]), [
    [2, 'active', 'Use British spelling, except in product names.'],
    [1, 'superseded', 'Use British spelling.'],
  ]);
  assert.equal((await eventsOf('rule.superseded', first.id)).length, 1);
  assert.equal(await highWater(db, tenant.orgId, tenant.projectId), hw + 1, 'one change, one raise');
  // Only the newest revision of a lineage can be edited.
  const old = await post(`${A}/rules/${first.id}/revisions`, { rule_text: 'again' });
  assert.equal(old.status, 409);
  assert.equal(old.body.code, 'stale');
});

test('a proposed rule does not move the high-water until a human activates it; retire withdraws it', async () => {
  const hw = await highWater(db, tenant.orgId, tenant.projectId);
  const p = (await post(`${A}/rules`, { rule_text: 'Never promise delivery dates.', status: 'proposed' })).body;
  assert.equal(p.status, 'proposed');
  assert.equal(await highWater(db, tenant.orgId, tenant.projectId), hw);
  const a = await post(`${A}/rules/${p.id}/activate`);
  assert.equal(a.status, 200, a.text);
  assert.equal(a.body.status, 'active');
  assert.equal(await highWater(db, tenant.orgId, tenant.projectId), hw + 1);
  const again = await post(`${A}/rules/${p.id}/activate`);
  assert.equal(again.status, 409);
  assert.equal(again.body.code, 'conflict');
  assert.deepEqual(again.body.errors.map((e: any) => [e.field, e.code]), [['status', 'active'], ['allowed_action', 'supersede'], ['allowed_action', 'retire']]);
  const retired = await post(`${A}/rules/${p.id}/retire`);
  assert.equal(retired.body.status, 'retired');
  assert.equal(await highWater(db, tenant.orgId, tenant.projectId), hw + 2);
  for (const verb of ['activate', 'retire']) {
    const r = await post(`${A}/rules/${p.id}/${verb}`);
    assert.equal(r.status, 409, verb);
    assert.deepEqual(r.body.errors, [{ field: 'status', code: 'retired', detail: 'The rule is retired.' }]);
  }
  const revise = await post(`${A}/rules/${p.id}/revisions`, { rule_text: 'x' });
  assert.equal(revise.status, 409);
  // Declining a proposal: proposed → retired without touching the high-water.
  const q = (await post(`${A}/rules`, { rule_text: 'Always cc legal.', status: 'proposed' })).body;
  const hw2 = await highWater(db, tenant.orgId, tenant.projectId);
  assert.equal((await post(`${A}/rules/${q.id}/retire`)).body.status, 'retired');
  assert.equal(await highWater(db, tenant.orgId, tenant.projectId), hw2);
});

test('bad input names the field and writes nothing', async () => {
  const count = async () => Number((await db.query('SELECT count(*) FROM rules WHERE org_id = $1', [tenant.orgId])).rows[0].count);
  const n = await count();
  const cases: [object, string][] = [
    [{ rule_text: 'x', colour: 'red' }, 'colour'],
    [{ rule_text: 'x', category_id: 'cat_1' }, 'category_id'],
    [{ rule_text: 'x', scope: 'category' }, 'category_id'],
    [{ rule_text: 'x'.repeat(2001) }, 'rule_text'],
    [{ rule_text: '   ' }, 'rule_text'],
    [{ rule_text: 'x', kind: 'firm' }, 'kind'],
    [{ rule_text: 'x', scope_agent_id: 'agt_nobody' }, 'scope_agent_id'],
    [{}, 'rule_text'],
  ];
  for (const [body, field] of cases) {
    const r = await post(`${A}/rules`, body);
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.equal(r.body.code, 'bad_request');
    assert.ok(r.body.errors.some((e: any) => e.field === field), `${JSON.stringify(body)} names ${field}: ${r.text}`);
  }
  const cat = await post(`${A}/rules`, { rule_text: 'Quote the order number.', scope: 'category', category_id: orders });
  assert.equal(cat.status, 201, cat.text);
  assert.equal(cat.body.category_id, orders);
  assert.equal(await count(), n + 1);
});

test('a rule of another project or another org is not found', async () => {
  const project = await insertProject(db, { org_id: tenant.orgId, id: newId('prj'), name: 'Other' });
  const theirs = (await post(`${O}/projects/${project.id}/rules`, { rule_text: 'Other project rule.' })).body;
  for (const verb of ['activate', 'retire']) assert.equal((await post(`${A}/rules/${theirs.id}/${verb}`)).status, 404);
  const r = await post(`${A}/rules/${theirs.id}/revisions`, { rule_text: 'hijack' });
  assert.equal(r.status, 404);
  assert.equal(r.body.code, 'not_found');
  const other = await createTenant(svc);
  const foreign = await svc.api.post(`/v1/admin/orgs/${other.orgId}/projects/${other.projectId}/rules/${theirs.id}/retire`, {}, other.consoleToken);
  assert.equal(foreign.status, 404);
  // An org-layer path does not reach a project rule either.
  assert.equal((await post(`${O}/rules/${theirs.id}/retire`)).status, 404);
});

test('a viewer may read rules but not change them', async () => {
  const email = `viewer-${newId('u')}@example.com`;
  const user = await upsertUser(db, newId('usr'), email);
  await insertMembership(db, { org_id: tenant.orgId, user_id: user.id, project_id: null, role: 'viewer' });
  const viewer = await svc.services.identity.mint!(email);
  assert.equal((await svc.api.get(`${A}/rules`, viewer)).status, 200);
  assert.equal((await svc.api.post(`${A}/rules`, { rule_text: 'x' }, viewer)).status, 403);
});

test('undo restores the prior version as a new revision, emits rule.undone, and a second undo is 409', async () => {
  const v1 = (await post(`${A}/rules`, { rule_text: 'Keep replies under 120 words.', priority: 3 })).body;
  const v2 = (await post(`${A}/rules/${v1.id}/revisions`, { rule_text: 'Keep replies under 80 words.' })).body;
  const audit = await svc.api.get(`${A}/rules/audit`, token);
  assert.equal(audit.status, 200);
  const row = audit.body.data.find((a: any) => a.action === 'revise' && a.after.id === v2.id);
  assert.match(row.id, /^udo_/);
  assert.equal(row.before.id, v1.id);
  assert.equal(row.before.rule_text, 'Keep replies under 120 words.');
  assert.equal(row.actor_email, tenant.email);
  assert.equal(row.undone_at, null);

  const hw = await highWater(db, tenant.orgId, tenant.projectId);
  const undone = await post(`${A}/rules/audit/${row.id}/undo`);
  assert.equal(undone.status, 200, undone.text);
  assert.equal(undone.body.lineage_id, v1.lineage_id);
  assert.equal(undone.body.rev, 3, 'a forward restore revision, not a rewrite of history');
  assert.equal(undone.body.supersedes_id, v2.id);
  assert.equal(undone.body.rule_text, 'Keep replies under 120 words.');
  assert.equal(undone.body.priority, 3);
  assert.equal(undone.body.status, 'active');
  assert.equal(await highWater(db, tenant.orgId, tenant.projectId), hw + 1);
  assert.equal((await eventsOf('rule.undone', undone.body.id)).length, 1);

  const after = (await svc.api.get(`${A}/rules/audit`, token)).body.data;
  const marked = after.find((a: any) => a.id === row.id);
  assert.ok(marked.undone_at);
  const undoRow = after.find((a: any) => a.id === marked.undone_by);
  assert.equal(undoRow.action, 'undo');
  assert.equal(undoRow.after.id, undone.body.id);

  const twice = await post(`${A}/rules/audit/${row.id}/undo`);
  assert.equal(twice.status, 409);
  assert.equal(twice.body.code, 'conflict');
  assert.equal((await post(`${A}/rules/audit/udo_nothing/undo`)).status, 404);
  const lineage = (await svc.api.get(`${A}/rules?lineage_id=${v1.lineage_id}`, token)).body.data;
  assert.deepEqual(lineage.map((x: any) => x.status), ['active', 'superseded', 'superseded']);
});

test('undoing a creation retires the rule; undoing an activation brings the proposal back', async () => {
  const made = (await post(`${A}/rules`, { rule_text: 'Mention the SLA.' })).body;
  const create = (await svc.api.get(`${A}/rules/audit`, token)).body.data.find((a: any) => a.action === 'create' && a.after.id === made.id);
  const r = await post(`${A}/rules/audit/${create.id}/undo`);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.id, made.id);
  assert.equal(r.body.status, 'retired');
  assert.equal((await eventsOf('rule.undone', made.id)).length, 1);

  const p = (await post(`${A}/rules`, { rule_text: 'Offer a call.', status: 'proposed' })).body;
  await post(`${A}/rules/${p.id}/activate`);
  const activation = (await svc.api.get(`${A}/rules/audit`, token)).body.data.find((a: any) => a.action === 'activate' && a.after.id === p.id);
  const back = await post(`${A}/rules/audit/${activation.id}/undo`);
  assert.equal(back.body.status, 'proposed');
  assert.equal(back.body.rev, 2);
  assert.equal(back.body.supersedes_id, p.id);
});

test('an org-layer rule is inherited by every project: its events and high-water reach each of them', async () => {
  const second = await insertProject(db, { org_id: tenant.orgId, id: newId('prj'), name: 'Second' });
  const hwA = await highWater(db, tenant.orgId, tenant.projectId);
  const hwB = await highWater(db, tenant.orgId, second.id);
  const r = await post(`${O}/rules`, { rule_text: 'Never discuss pricing by email.', kind: 'hard' });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.body.rule_layer, 'org');
  assert.equal(r.body.project_id, '');
  assert.equal(await highWater(db, tenant.orgId, tenant.projectId), hwA + 1);
  assert.equal(await highWater(db, tenant.orgId, second.id), hwB + 1);
  const projects = (await db.query('SELECT id FROM projects WHERE org_id = $1', [tenant.orgId])).rows.map((p) => p.id);
  assert.ok(projects.length >= 2);
  const events = await eventsOf('rule.created', r.body.id);
  assert.deepEqual(events.map((e) => e.project_id).sort(), projects.sort());
  const orgList = (await svc.api.get(`${O}/rules`, token)).body.data;
  assert.ok(orgList.some((x: any) => x.id === r.body.id));
  assert.ok(!(await svc.api.get(`${A}/rules`, token)).body.data.some((x: any) => x.id === r.body.id), 'project list holds project rules');
  const audit = (await svc.api.get(`${O}/rules/audit`, token)).body.data;
  assert.equal(audit[0].after.id, r.body.id);
  const undo = await post(`${O}/rules/audit/${audit[0].id}/undo`);
  assert.equal(undo.body.status, 'retired');
});

test("a project's rule list carries its rules version, which an activated rule raises; the org layer's list has none", async () => {
  const before = await svc.api.get(`${A}/rules`, token);
  assert.equal(before.status, 200, before.text);
  assert.equal(before.body.rules_version, await highWater(db, tenant.orgId, tenant.projectId));
  assert.equal((await post(`${A}/rules`, { rule_text: 'Never promise a delivery date.' })).status, 201);
  const after = await svc.api.get(`${A}/rules`, token);
  assert.equal(after.body.rules_version, before.body.rules_version + 1);
  const org = await svc.api.get(`${O}/rules`, token);
  assert.equal(org.status, 200, org.text);
  assert.equal('rules_version' in org.body, false);
});
