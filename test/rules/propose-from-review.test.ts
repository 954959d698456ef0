// A reviewer's edit of a draft turned into a proposed rule on the console
// (POST A/reviews/{id}/propose-rule), through real HTTP.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { newId } from '../../storage/ids.ts';
import { insertMembership, upsertUser } from '../../storage/tenancy.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { INTENT, agentWithInbox } from '../reviews/setup.ts';

const svc = await startTestService({ roles: ['api'] });
const tenant = await createTenant(svc);
const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;
const agent = await agentWithInbox(svc, tenant);
const db = svc.services.db;
const human = (path: string, body: object = {}) => svc.api.post(path, body, tenant.consoleToken);
const rules = async () => (await svc.api.get('/v1/rules', agent.key)).body;
const ruleCount = async () => (await db.query('SELECT count(*)::int AS n FROM rules WHERE org_id = $1', [tenant.orgId])).rows[0].n as number;

async function draft(text = 'Hi Dana!!! Tuesday works!!!'): Promise<string> {
  const r = await agent.send({ to: 'dana@acme.example', subject: 'Demo', text, intent: INTENT });
  assert.equal(r.status, 202, r.text);
  return r.body.review_id;
}

async function edited(): Promise<string> {
  const id = await draft();
  const e = await agent.decide(id, { action: 'edit', parent_revision: 1, text: 'Hi Dana, Tuesday works.', feedback: 'No exclamation marks.' });
  assert.equal(e.status, 200, e.text);
  return id;
}

test('an edited draft becomes a proposed rule naming the review; the agent reads it once a human activates it', async () => {
  const reviewId = await edited();
  const before = await rules();
  const r = await human(`${A}/reviews/${reviewId}/propose-rule`, { rule_text: 'Never use exclamation marks.', kind: 'hard' });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.body.status, 'proposed');
  assert.equal(r.body.author_kind, 'human');
  assert.equal(r.body.source_review_id, reviewId);
  assert.equal(r.body.rule_layer, 'project');
  assert.equal(r.body.project_id, tenant.projectId);
  assert.equal(r.body.kind, 'hard');
  assert.equal(r.body.rev, 1);
  assert.match(r.body.lineage_id, /^rln_/);

  const { rows: events } = await db.query(`SELECT type FROM events WHERE org_id = $1 AND payload->'rule'->>'id' = $2`, [tenant.orgId, r.body.id]);
  assert.deepEqual(events.map((e) => e.type), ['rule.created']);
  const audit = (await svc.api.get(`${A}/rules/audit`, tenant.consoleToken)).body.data.find((a: any) => a.after.id === r.body.id);
  assert.equal(audit.action, 'create');
  assert.equal(audit.actor_email, tenant.email);

  const unchanged = await rules();
  assert.equal(unchanged.rules_version, before.rules_version, 'a proposal moves nothing the agent reads');
  assert.ok(!unchanged.data.some((x: any) => x.id === r.body.id));
  const activated = await human(`${A}/rules/${r.body.id}/activate`);
  assert.equal(activated.status, 200, activated.text);
  const after = await rules();
  assert.equal(after.rules_version, before.rules_version + 1);
  assert.equal(after.data[0].id, r.body.id, 'a hard project rule heads the ladder');
  assert.equal(after.data[0].source_review_id, reviewId);
});

test('scope category without category_id takes the review\'s category; a review without one is 400 naming category_id', async () => {
  const reviewId = await edited();
  // A rule names only a category that exists.
  const orders: string = (await human(`${A}/categories`, { name: 'Orders' })).body.id;
  await db.query(
    `UPDATE machine_instances SET snapshot = jsonb_set(snapshot, '{context,category_id}', to_jsonb($2::text)) WHERE kind = 'review' AND id = $1`,
    [reviewId, orders],
  );
  const r = await human(`${A}/reviews/${reviewId}/propose-rule`, { rule_text: 'Quote the order number.', scope: 'category' });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual([r.body.scope, r.body.category_id], ['category', orders]);

  const plain = await edited();
  const n = await ruleCount();
  const refused = await human(`${A}/reviews/${plain}/propose-rule`, { rule_text: 'Quote the order number.', scope: 'category' });
  assert.equal(refused.status, 400, refused.text);
  assert.equal(refused.body.errors[0].field, 'category_id');
  assert.equal(await ruleCount(), n);
});

test('refusals: an unedited draft is 409 not_edited, another project\'s review 404, bad input 400 naming the field, a viewer 403; nothing is stored', async () => {
  const n = await ruleCount();
  const untouched = await draft();
  const r = await human(`${A}/reviews/${untouched}/propose-rule`, { rule_text: 'Be brief.' });
  assert.equal(r.status, 409, r.text);
  assert.equal(r.body.code, 'conflict');
  assert.deepEqual(r.body.errors, [{ field: 'review_id', code: 'not_edited', detail: untouched }]);

  const reviewId = await edited();
  const other = await createTenant(svc);
  const foreign = await svc.api.post(`/v1/admin/orgs/${other.orgId}/projects/${other.projectId}/reviews/${reviewId}/propose-rule`, { rule_text: 'x' }, other.consoleToken);
  assert.equal(foreign.status, 404);
  assert.equal((await human(`${A}/reviews/rr_nothing/propose-rule`, { rule_text: 'x' })).status, 404);

  for (const [body, field] of [
    [{ rule_text: 'x', status: 'active' }, 'status'],
    [{ rule_text: 'x'.repeat(2001) }, 'rule_text'],
    [{}, 'rule_text'],
    [{ rule_text: 'x', category_id: 'cat_1' }, 'category_id'],
  ] as const) {
    const bad = await human(`${A}/reviews/${reviewId}/propose-rule`, body);
    assert.equal(bad.status, 400, JSON.stringify(body));
    assert.ok(bad.body.errors.some((e: any) => e.field === field), `${JSON.stringify(body)}: ${bad.text}`);
  }

  const email = `viewer-${newId('u')}@example.com`;
  const user = await upsertUser(db, newId('usr'), email);
  await insertMembership(db, { org_id: tenant.orgId, user_id: user.id, project_id: null, role: 'viewer' });
  const viewer = await svc.services.identity.mint!(email);
  assert.equal((await svc.api.post(`${A}/reviews/${reviewId}/propose-rule`, { rule_text: 'x' }, viewer)).status, 403);
  assert.equal(await ruleCount(), n);
});
