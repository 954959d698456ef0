// The ladder an API service remembers is never served after another one changed the rules:
// two services on one database, through real HTTP (the check is against the database high-water).
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';

const first = await startTestService({ roles: ['api'] });
// The same DATA_DIR: both accept the console tokens of the development identity provider.
const second = await startTestService({ roles: ['api'], databaseUrl: first.databaseUrl, config: first.config });

test('a rule change made through one service is in the next ladder read through the other', async () => {
  const tenant = await createTenant(first);
  const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;
  const agent = await tenant.enroll();
  const rule = await second.api.post(`${A}/rules`, { rule_text: 'Sign off with the team name.' }, tenant.consoleToken);
  assert.equal(rule.status, 201, rule.text);

  const before = await first.api.get('/v1/rules', agent.agentKey);
  assert.deepEqual(before.body.data.map((r: any) => r.rule_text), ['Sign off with the team name.']);
  assert.equal((await first.api.get('/v1/rules', agent.agentKey)).body.rules_version, before.body.rules_version, 'read twice, the same ladder');

  const revised = await second.api.post(`${A}/rules/${rule.body.id}/revisions`, { rule_text: 'Sign off with "The Acme team".' }, tenant.consoleToken);
  assert.equal(revised.status, 201, revised.text);
  const after = await first.api.get('/v1/rules', agent.agentKey);
  assert.equal(after.body.rules_version, before.body.rules_version + 1);
  assert.deepEqual(after.body.data.map((r: any) => [r.id, r.rule_text]), [[revised.body.id, 'Sign off with "The Acme team".']]);

  assert.equal((await second.api.post(`${A}/rules/${revised.body.id}/retire`, {}, tenant.consoleToken)).status, 200);
  const retired = await first.api.get('/v1/rules', agent.agentKey);
  assert.deepEqual(retired.body.data, []);
  assert.equal(retired.body.rules_version, before.body.rules_version + 2);
  assert.match(retired.headers.get('content-type') ?? '', /^application\/json/);
});
