// Writing rules on the agent plane, through real HTTP: the ladder that applies to the caller with
// the rules high-water, and proposals that wait for a human.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { newId } from '../../storage/ids.ts';
import { insertProject } from '../../storage/tenancy.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';

const svc = await startTestService({ roles: ['api'] });
const tenant = await createTenant(svc);
const O = `/v1/admin/orgs/${tenant.orgId}`;
const A = `${O}/projects/${tenant.projectId}`;
// Rules of scope category name a category of the project that exists.
const orders: string = (await svc.api.post(`${A}/categories`, { name: 'Orders' }, tenant.consoleToken)).body.id;
const human = (path: string, body: object = {}) => svc.api.post(path, body, tenant.consoleToken);
const me = await tenant.enroll('composer');
const other = await tenant.enroll('other-agent');

async function rule(path: string, body: object): Promise<any> {
  const r = await human(path, body);
  assert.equal(r.status, 201, r.text);
  return r.body;
}

test('the ladder: hard first, then project and per-agent over org, then by priority; only what applies to the caller', async () => {
  const orgHard = await rule(`${O}/rules`, { rule_text: 'org hard', kind: 'hard', priority: 1 });
  const orgSoftHigh = await rule(`${O}/rules`, { rule_text: 'org soft p100', priority: 100 });
  const projSoft = await rule(`${A}/rules`, { rule_text: 'project soft p1', priority: 1 });
  const projHard = await rule(`${A}/rules`, { rule_text: 'project hard p0', kind: 'hard', priority: 0 });
  const mineSoft = await rule(`${A}/rules`, { rule_text: 'per-agent soft p0', scope_agent_id: me.agentId, priority: 0 });
  const projSoftHigh = await rule(`${A}/rules`, { rule_text: 'project soft p50', priority: 50 });
  await rule(`${A}/rules`, { rule_text: 'for the other agent', scope_agent_id: other.agentId, priority: 1000 });
  const cat = await rule(`${A}/rules`, { rule_text: 'orders category', scope: 'category', category_id: orders, priority: 7 });
  await rule(`${A}/rules`, { rule_text: 'a proposal', status: 'proposed', priority: 999 });
  const retired = await rule(`${A}/rules`, { rule_text: 'withdrawn', priority: 999 });
  await human(`${A}/rules/${retired.id}/retire`);
  // Another project's rule never reaches this project's agents.
  const elsewhere = await insertProject(svc.services.db, { org_id: tenant.orgId, id: newId('prj'), name: 'Elsewhere' });
  await rule(`${O}/projects/${elsewhere.id}/rules`, { rule_text: 'elsewhere', priority: 999 });

  const r = await svc.api.get('/v1/rules', me.agentKey);
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body.data.map((x: any) => x.id), [
    projHard.id, // hard, project
    orgHard.id, // hard, org
    mineSoft.id, // soft, project, per-agent (outranks the project's all-agent rules whatever their priority)
    projSoftHigh.id, // soft, project, p50
    projSoft.id, // soft, project, p1
    orgSoftHigh.id, // soft, org: below every project rule despite p100
  ]);
  assert.ok(r.body.data.every((x: any) => x.status === 'active'));
  assert.equal(typeof r.body.rules_version, 'number');
  assert.ok(r.body.rules_version >= 8, 'every activation that applies here raised the high-water');

  const withCategory = await svc.api.get(`/v1/rules?category_id=${orders}`, me.agentKey);
  assert.deepEqual(withCategory.body.data.map((x: any) => x.id), [projHard.id, orgHard.id, mineSoft.id, projSoftHigh.id, cat.id, projSoft.id, orgSoftHigh.id]);
  assert.equal(withCategory.body.rules_version, r.body.rules_version);

  const theirs = (await svc.api.get('/v1/rules', other.agentKey)).body.data.map((x: any) => x.rule_text);
  assert.ok(theirs.includes('for the other agent'));
  assert.ok(!theirs.includes('per-agent soft p0'));
});

test('rules_version moves with every change to an active rule and not with a proposal', async () => {
  const v0 = (await svc.api.get('/v1/rules', me.agentKey)).body.rules_version;
  const proposed = await svc.api.post('/v1/rules', { rule_text: 'Open with the customer\'s first name.', priority: 4 }, me.agentKey);
  assert.equal(proposed.status, 201, proposed.text);
  assert.equal(proposed.body.status, 'proposed');
  assert.equal(proposed.body.author_kind, 'agent');
  assert.equal(proposed.body.rule_layer, 'project');
  assert.equal(proposed.body.project_id, tenant.projectId);
  const v1 = (await svc.api.get('/v1/rules', me.agentKey)).body;
  assert.equal(v1.rules_version, v0, 'a proposal changes nothing the agent reads');
  assert.ok(!v1.data.some((x: any) => x.id === proposed.body.id));

  const activated = await human(`${A}/rules/${proposed.body.id}/activate`);
  assert.equal(activated.body.status, 'active');
  const v2 = (await svc.api.get('/v1/rules', me.agentKey)).body;
  assert.equal(v2.rules_version, v0 + 1);
  assert.ok(v2.data.some((x: any) => x.id === proposed.body.id));

  const revised = await human(`${A}/rules/${proposed.body.id}/revisions`, { rule_text: 'Open with the customer\'s full name.' });
  const v3 = (await svc.api.get('/v1/rules', me.agentKey)).body;
  assert.equal(v3.rules_version, v0 + 2);
  assert.ok(v3.data.some((x: any) => x.id === revised.body.id));
  assert.ok(!v3.data.some((x: any) => x.id === proposed.body.id), 'the superseded revision left the ladder');
});

test('an agent cannot activate its own proposal, nor set its status', async () => {
  const r = await svc.api.post('/v1/rules', { rule_text: 'x', status: 'active' }, me.agentKey);
  assert.equal(r.status, 400);
  assert.ok(r.body.errors.some((e: any) => e.field === 'status'), r.text);
});

test('a proposal needs mailbox:send; reading the ladder needs mailbox:read', async () => {
  const issued = await human(`${A}/agents/${me.agentId}/keys`, { permissions: ['mailbox:read'] });
  assert.equal(issued.status, 201, issued.text);
  const readOnly = issued.body.key;
  assert.equal((await svc.api.get('/v1/rules', readOnly)).status, 200);
  const refused = await svc.api.post('/v1/rules', { rule_text: 'Be brief.' }, readOnly);
  assert.equal(refused.status, 403);
  assert.equal(refused.body.code, 'forbidden_scope');
});

test('a bad proposal names the field and stores nothing', async () => {
  const before = (await svc.services.db.query('SELECT count(*)::int AS n FROM rules WHERE org_id = $1', [tenant.orgId])).rows[0].n;
  for (const [body, field] of [
    [{ rule_text: 'x', category_id: 'cat_1' }, 'category_id'],
    [{ rule_text: 'y'.repeat(2001) }, 'rule_text'],
    [{ rule_text: 'x', tone: 'warm' }, 'tone'],
  ] as const) {
    const r = await svc.api.post('/v1/rules', body, me.agentKey);
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.ok(r.body.errors.some((e: any) => e.field === field), r.text);
  }
  const after = (await svc.services.db.query('SELECT count(*)::int AS n FROM rules WHERE org_id = $1', [tenant.orgId])).rows[0].n;
  assert.equal(after, before);
});
