// References a request carries that the service stores and later acts on: a rule's category must be
// one the caller can see, and an inbox's webhook_url must be a target a webhook could have. Before,
// a rule named any string as its category (`""` was a 500 at its constraint), and an inbox stored a
// webhook_url on a loopback or private address that a webhook's url is refused for.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { PERMISSIONS } from '../../machines/policy/permissions.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';

// Private targets refused, as in production: the check a webhook's url gets in full.
const svc = await startTestService({ roles: ['api'], env: { WEBHOOK_ALLOW_PRIVATE: 'false' } });
const tenant = await createTenant(svc, { plan: 'pro' });
const O = `/v1/admin/orgs/${tenant.orgId}`;
const A = `${O}/projects/${tenant.projectId}`;
const human = (method: string, path: string, body: object) => svc.api.request(method, path, { body, token: tenant.consoleToken });

async function agentWithKey(handle: string) {
  const a = await tenant.enroll(handle);
  const key = await svc.api.post(`${A}/agents/${a.agentId}/keys`, { permissions: PERMISSIONS.filter((p) => p !== 'signup:verify') }, tenant.consoleToken);
  assert.equal(key.status, 201, key.text);
  return { agentId: a.agentId, key: key.body.key as string };
}
const me = await agentWithKey('rules-me');
const other = await agentWithKey('rules-other');

async function category(body: object): Promise<string> {
  const r = await human('POST', `${A}/categories`, body);
  assert.equal(r.status, 201, r.text);
  return r.body.id;
}
const shared = await category({ name: 'Shared' });
const mine = await category({ name: 'Mine', scope: 'agent_private', agent_id: me.agentId });
const theirs = await category({ name: 'Theirs', scope: 'agent_private', agent_id: other.agentId });

function assertNotFound(r: { status: number; body: any; text: string }, what: string): void {
  assert.equal(r.status, 404, `${what}: ${r.text}`);
  assert.equal(r.body.code ?? r.body.error, 'not_found', what);
  if (r.body.errors) assert.equal(r.body.errors[0].field, 'category_id', what);
}

const rule = (category_id: string) => ({ rule_text: 'Quote the order number.', scope: 'category', category_id });

test('an agent proposes a rule only on a category it can see: shared and its own, not another agent\'s or none', async () => {
  for (const id of [shared, mine]) {
    const r = await svc.api.post('/v1/rules', rule(id), me.key);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.category_id, id);
  }
  assertNotFound(await svc.api.post('/v1/rules', rule(theirs), me.key), 'another agent\'s private category');
  assertNotFound(await svc.api.post('/v1/rules', rule('cat_nowhere'), me.key), 'no such category');
  const empty = await svc.api.post('/v1/rules', rule(''), me.key);
  assert.equal(empty.status, 400, empty.text);
  assert.equal(empty.body.errors[0].field, 'category_id');
});

test('a human creates and revises project and org rules only on a category of the org, private ones included', async () => {
  const elsewhere = await createTenant(svc);
  const foreign = await svc.api.post(`/v1/admin/orgs/${elsewhere.orgId}/projects/${elsewhere.projectId}/categories`, { name: 'Foreign' }, elsewhere.consoleToken);
  assert.equal(foreign.status, 201, foreign.text);
  const foreignId: string = foreign.body.id;
  assert.ok(foreignId);
  for (const home of [A, O]) {
    const created = await human('POST', `${home}/rules`, rule(theirs));
    assert.equal(created.status, 201, `${home}: ${created.text}`);
    assertNotFound(await human('POST', `${home}/rules`, rule('cat_nowhere')), `${home} create, no such category`);
    assertNotFound(await human('POST', `${home}/rules`, rule(foreignId)), `${home} create, another org's category`);
    const revised = await human('POST', `${home}/rules/${created.body.id}/revisions`, { category_id: shared });
    assert.equal(revised.status, 201, `${home}: ${revised.text}`);
    assertNotFound(await human('POST', `${home}/rules/${revised.body.id}/revisions`, { category_id: 'cat_nowhere' }), `${home} revise, no such category`);
  }
  const { rows } = await svc.services.db.query('SELECT count(*)::int AS n FROM rules WHERE org_id = $1 AND category_id IN ($2, $3)', [tenant.orgId, 'cat_nowhere', foreignId]);
  assert.equal(rows[0].n, 0, 'no rule names a category it could not see');
});

test('an inbox\'s webhook_url is refused where a webhook\'s url is, by both planes, and nothing is stored', async () => {
  const refused = ['http://127.0.0.1:9/hook', 'http://10.0.0.5/hook', 'http://[::1]/hook', 'http://169.254.169.254/latest', 'https://user:pw@example.com/hook'];
  for (const url of refused) {
    const hook = await svc.api.post('/v1/webhooks', { url, events: ['message.received'] }, me.key);
    assert.equal(hook.status, 400, `webhook ${url}: ${hook.text}`);
    const byAgent = await svc.api.post('/v1/inboxes', { display_name: 'Hooked', webhook_url: url }, me.key);
    assert.equal(byAgent.status, 400, `${url}: ${byAgent.text}`);
    assert.equal(byAgent.body.errors[0].field, 'webhook_url');
    assert.equal(byAgent.body.errors[0].code, 'target_refused');
    const byHuman = await human('POST', `${A}/inboxes`, { agent_id: me.agentId, webhook_url: url });
    assert.equal(byHuman.status, 400, `${url}: ${byHuman.text}`);
    assert.match(byHuman.body.message ?? byHuman.body.detail, /webhook_url/);
  }
  const { rows } = await svc.services.db.query('SELECT count(*)::int AS n FROM inboxes WHERE org_id = $1 AND webhook_url IS NOT NULL', [tenant.orgId]);
  assert.equal(rows[0].n, 0);
});

test('an inbox\'s webhook_url on a public literal address is stored', async () => {
  const r = await svc.api.post('/v1/inboxes', { display_name: 'Hooked', webhook_url: 'https://93.184.215.14/hook' }, me.key);
  assert.equal(r.status, 201, r.text);
  assert.equal(r.body.webhook_url, 'https://93.184.215.14/hook');
});
