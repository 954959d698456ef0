// Org settings on the console plane: defaults, a PATCH of any subset, validation naming the field,
// and the settings used where they apply (new enrollment tokens, new inboxes).
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';

const svc = await startTestService({ roles: ['api'], env: { FREE_INBOX_DOMAIN: 'free.test' } });
const settingsOf = (orgId: string) => `/v1/admin/orgs/${orgId}/settings`;

test('settings start at their defaults; a PATCH changes the fields given and leaves the others', async () => {
  const t = await createTenant(svc);
  const r = await svc.api.get(settingsOf(t.orgId), t.consoleToken);
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, {
    org_name: 'Test org',
    default_domain: 'agents.test',
    default_onboarding_mode: 'enrollment_token',
    default_mailbox_cap: null,
    webhook_signing_prefix: 'v1',
    x402_mode: 'off',
    early_access: false,
  });
  const p = await svc.api.patch(settingsOf(t.orgId), { org_name: 'Renamed', x402_mode: 'test', early_access: true }, t.consoleToken);
  assert.equal(p.status, 200, p.text);
  assert.deepEqual(p.body, { ...r.body, org_name: 'Renamed', x402_mode: 'test', early_access: true });
  const q = await svc.api.patch(settingsOf(t.orgId), { default_onboarding_mode: 'self_signup', webhook_signing_prefix: 'v2' }, t.consoleToken);
  assert.deepEqual(q.body, { ...p.body, default_onboarding_mode: 'self_signup', webhook_signing_prefix: 'v2' });
  assert.deepEqual((await svc.api.get(settingsOf(t.orgId), t.consoleToken)).body, q.body);
  assert.equal((await svc.api.get(`/v1/admin/orgs/${t.orgId}`, t.consoleToken)).body.name, 'Renamed');
  assert.deepEqual((await svc.api.patch(settingsOf(t.orgId), {}, t.consoleToken)).body, q.body, 'an empty PATCH changes nothing');
});

test('invalid values are 400 naming the field, and change nothing', async () => {
  const t = await createTenant(svc);
  const before = (await svc.api.get(settingsOf(t.orgId), t.consoleToken)).body;
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ x402_mode: 'sometimes' }, /x402_mode/],
    [{ default_onboarding_mode: 'magic' }, /default_onboarding_mode/],
    [{ default_mailbox_cap: -1 }, /default_mailbox_cap/],
    [{ early_access: 'yes' }, /early_access/],
    [{ org_name: '' }, /org_name/],
    [{ default_domain: 'elsewhere.example' }, /default_domain/],
    [{ org_name: 'Fine', plan_tier: 'enterprise' }, /plan_tier/],
  ];
  for (const [body, field] of cases) {
    const r = await svc.api.patch(settingsOf(t.orgId), body, t.consoleToken);
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.equal(r.body.error, 'invalid');
    assert.match(r.text, field);
  }
  assert.deepEqual((await svc.api.get(settingsOf(t.orgId), t.consoleToken)).body, before);
});

test('members read the settings; only owners and admins change them; another org is 404', async () => {
  const t = await createTenant(svc);
  const memberEmail = `m-${Date.now()}@example.com`;
  await svc.services.db.query(
    "INSERT INTO users (id, email) VALUES ($1, $2); ",
    [`usr_${Date.now()}`, memberEmail],
  );
  await svc.services.db.query("INSERT INTO memberships (org_id, user_id, project_id, role) SELECT $1, id, NULL, 'member' FROM users WHERE email = $2", [t.orgId, memberEmail]);
  const member = await svc.services.identity.mint!(memberEmail);
  assert.equal((await svc.api.get(settingsOf(t.orgId), member)).status, 200);
  assert.equal((await svc.api.patch(settingsOf(t.orgId), { early_access: true }, member)).status, 403);
  const other = await createTenant(svc);
  assert.equal((await svc.api.patch(settingsOf(other.orgId), { early_access: true }, t.consoleToken)).status, 404);
});

test('default_mailbox_cap is the cap of new enrollment tokens issued without one', async () => {
  const t = await createTenant(svc);
  const tokens = `/v1/admin/orgs/${t.orgId}/projects/${t.projectId}/enrollment-tokens`;
  assert.equal((await svc.api.post(tokens, {}, t.consoleToken)).body.max_mailboxes, null);
  await svc.api.patch(settingsOf(t.orgId), { default_mailbox_cap: 2 }, t.consoleToken);
  const capped = await svc.api.post(tokens, { reusable: true }, t.consoleToken);
  assert.equal(capped.body.max_mailboxes, 2);
  assert.equal((await svc.api.post(tokens, { max_mailboxes: 7 }, t.consoleToken)).body.max_mailboxes, 7, 'a cap given wins');

  // The cap holds: an agent enrolled with that token creates two inboxes, not three.
  const enrolled = await svc.api.post('/v1/enroll', { token: capped.body.token, agent_handle: 'capped' });
  const key = enrolled.body.agent_key;
  assert.equal((await svc.api.post('/v1/inboxes', {}, key)).status, 201);
  assert.equal((await svc.api.post('/v1/inboxes', {}, key)).status, 201);
  assert.equal((await svc.api.post('/v1/inboxes', {}, key)).status, 403);
  await svc.api.patch(settingsOf(t.orgId), { default_mailbox_cap: null }, t.consoleToken);
  assert.equal((await svc.api.post(tokens, {}, t.consoleToken)).body.max_mailboxes, null, 'null removes the default cap');
});

test('default_domain is the domain of new inboxes that name none; the service domain stays open', async () => {
  const t = await createTenant(svc, { plan: 'developer' });
  const agent = await t.enroll();
  assert.match((await svc.api.post('/v1/inboxes', {}, agent.agentKey)).body.address, /@agents\.test$/);
  const set = await svc.api.patch(settingsOf(t.orgId), { default_domain: 'FREE.test' }, t.consoleToken);
  assert.equal(set.body.default_domain, 'free.test');
  const onDefault = await svc.api.post('/v1/inboxes', { display_name: 'Default' }, agent.agentKey);
  assert.equal(onDefault.status, 201, onDefault.text);
  assert.match(onDefault.body.address, /@free\.test$/);
  assert.equal(onDefault.body.domain, 'free.test');
  // On the console an inbox may name its domain: the service's stays open beside the default.
  const consoleInboxes = `/v1/admin/orgs/${t.orgId}/projects/${t.projectId}/inboxes`;
  const named = await svc.api.post(consoleInboxes, { agent_id: agent.agentId, domain: 'agents.test' }, t.consoleToken);
  assert.equal(named.status, 201, named.text);
  assert.match(named.body.address, /@agents\.test$/);
  const onConsoleDefault = await svc.api.post(consoleInboxes, { agent_id: agent.agentId }, t.consoleToken);
  assert.match(onConsoleDefault.body.address, /@free\.test$/);
  const elsewhere = await svc.api.post(consoleInboxes, { agent_id: agent.agentId, domain: 'elsewhere.example' }, t.consoleToken);
  assert.equal(elsewhere.status, 400);
  assert.equal(elsewhere.body.error, 'invalid');
  assert.match(elsewhere.body.message, /elsewhere\.example is not onboarded/);
  // Another org keeps the service domain.
  const other = await createTenant(svc);
  assert.match((await svc.api.post('/v1/inboxes', {}, (await other.enroll()).agentKey)).body.address, /@agents\.test$/);
});
