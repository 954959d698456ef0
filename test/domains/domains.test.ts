// Custom domains against a real DNS server on loopback: onboarding answers the records to publish,
// verification judges each one, the daily re-verification notices a record taken away, and
// inboxes on a verified domain receive mail over SMTP.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { domainRecheckWorker } from '../../actors/workers/domain-recheck.ts';
import { publishRecords, startTestDns } from '../../testkit/dns.ts';
import { sendMail } from '../../testkit/mail.ts';
import { createTenant, startTestService, type Tenant } from '../../testkit/service.ts';

const dns = await startTestDns();
const svc = await startTestService({ env: { DNS_SERVERS: dns.server, MX_HOST: 'mx.agents.test' } });
const db = svc.services.db;

const A = (t: Tenant) => `/v1/admin/orgs/${t.orgId}/projects/${t.projectId}`;
let n = 0;
const freshName = () => `d${Date.now().toString(36)}${n++}.example.org`;

async function onboard(t: Tenant, name = freshName()) {
  const r = await svc.api.post(`${A(t)}/domains`, { domain: name }, t.consoleToken);
  assert.equal(r.status, 201, r.text);
  return r.body;
}

async function verified(t: Tenant, name = freshName()) {
  const d = await onboard(t, name);
  publishRecords(dns, d);
  const v = await svc.api.post(`${A(t)}/domains/${name}/verify`, {}, t.consoleToken);
  assert.equal(v.status, 200, v.text);
  assert.equal(v.body.status, 'verified', JSON.stringify(v.body.records));
  return v.body;
}

async function domainKey(t: Tenant, permissions: string[]) {
  const { agentId } = await t.enroll();
  const r = await svc.api.post(`${A(t)}/agents/${agentId}/keys`, { permissions }, t.consoleToken);
  assert.equal(r.status, 201, r.text);
  return { key: r.body.key as string, agentId };
}

test('onboarding answers the ownership, MX, SPF, DKIM and DMARC records; the domain starts pending', async () => {
  const t = await createTenant(svc, { plan: 'startup' });
  const name = freshName();
  const d = await onboard(t, name);
  assert.match(d.id, /^dom_/);
  assert.equal(d.domain, name);
  assert.equal(d.status, 'pending');
  assert.deepEqual(d.records.map((r: any) => [r.kind, r.type, r.host, r.required, r.status]), [
    ['ownership', 'TXT', `_agent-inbox.${name}`, true, 'pending'],
    ['mx', 'MX', name, true, 'pending'],
    ['spf', 'TXT', name, true, 'pending'],
    ['dkim', 'TXT', `agentinbox._domainkey.${name}`, true, 'pending'],
    ['dmarc', 'TXT', `_dmarc.${name}`, false, 'pending'],
  ]);
  assert.equal(d.records[1].value, 'mx.agents.test');
  assert.match(d.records[3].value, /^v=DKIM1; k=rsa; p=[A-Za-z0-9+/=]{300,}$/);
  const { rows } = await db.query('SELECT dkim_private_key FROM domains WHERE id = $1', [d.id]);
  assert.ok(!rows[0].dkim_private_key.toString('latin1').includes('PRIVATE KEY'), 'the private key is stored sealed, not as PEM');
  const list = await svc.api.get(`${A(t)}/domains`, t.consoleToken);
  assert.deepEqual(list.body.items.map((x: any) => x.domain), [name]);
});

test('verification records a result per record: a missing DKIM record and a wrong SPF fail, the rest pass', async () => {
  const t = await createTenant(svc, { plan: 'startup' });
  const name = freshName();
  const d = await onboard(t, name);
  publishRecords(dns, d, ['dkim', 'spf', 'dmarc']);
  dns.set(name, [{ type: 'MX', exchange: 'mx.agents.test', priority: 10 }, { type: 'TXT', value: 'v=spf1 ip4:192.0.2.1 -all' }]);
  const v = await svc.api.post(`${A(t)}/domains/${name}/verify`, {}, t.consoleToken);
  assert.equal(v.status, 200, v.text);
  assert.equal(v.body.status, 'pending');
  const status = Object.fromEntries(v.body.records.map((r: any) => [r.kind, r.status]));
  assert.deepEqual(status, { ownership: 'pass', mx: 'pass', spf: 'fail', dkim: 'fail', dmarc: 'fail' });
  assert.deepEqual(v.body.records[2].found, ['v=spf1 ip4:192.0.2.1 -all']);
  assert.ok(v.body.checked_at);
  assert.equal(v.body.verified_at, null);

  // An inbox on the pending domain is refused, naming the field.
  const { agentId } = await t.enroll();
  const refused = await svc.api.post(`${A(t)}/inboxes`, { agent_id: agentId, domain: name, username: 'early' }, t.consoleToken);
  assert.equal(refused.status, 400, refused.text);
  assert.match(refused.text, /pending/);

  publishRecords(dns, d);
  const again = await svc.api.post(`${A(t)}/domains/${d.id}/verify`, {}, t.consoleToken);
  assert.equal(again.body.status, 'verified');
  assert.ok(again.body.records.every((r: any) => r.status === 'pass'));
  assert.ok(again.body.verified_at);
});

test('a DNS server that does not answer records temperror and leaves the domain pending', async () => {
  const t = await createTenant(svc, { plan: 'startup' });
  const d = await onboard(t);
  publishRecords(dns, d);
  dns.silent = true;
  try {
    const v = await svc.api.post(`${A(t)}/domains/${d.domain}/verify`, {}, t.consoleToken);
    assert.equal(v.status, 200, v.text);
    assert.equal(v.body.status, 'pending');
    assert.ok(v.body.records.every((r: any) => r.status === 'temperror'), JSON.stringify(v.body.records));
  } finally {
    dns.silent = false;
  }
});

test('an inbox on a verified domain is created by the console (domain or domain_id) and by an agent, and receives mail over SMTP', async () => {
  const t = await createTenant(svc, { plan: 'developer' });
  const d = await verified(t);
  const { agentId } = await t.enroll();
  const byName = await svc.api.post(`${A(t)}/inboxes`, { agent_id: agentId, domain: d.domain, username: 'sales' }, t.consoleToken);
  assert.equal(byName.status, 201, byName.text);
  assert.equal(byName.body.address, `sales@${d.domain}`);
  assert.equal(byName.body.domain, d.domain);
  const byId = await svc.api.post(`${A(t)}/inboxes`, { agent_id: agentId, domain_id: d.id, username: 'ops' }, t.consoleToken);
  assert.equal(byId.status, 201, byId.text);
  assert.equal(byId.body.address, `ops@${d.domain}`);

  const agent = await domainKey(t, ['mailbox:create', 'mailbox:read']);
  const own = await svc.api.post('/v1/inboxes', { domain: d.domain, username: 'bot' }, agent.key);
  assert.equal(own.status, 201, own.text);
  assert.equal(own.body.address, `bot@${d.domain}`);
  const withDomain = await svc.api.get(`/v1/inboxes/${own.body.id}?include=domain`, agent.key);
  assert.equal(withDomain.body.included.domain.id, d.id, 'include=domain expands the custom domain record');
  assert.equal(withDomain.body.included.domain.status, 'verified');
  const unknown = await svc.api.post('/v1/inboxes', { domain: 'not-onboarded.example.net' }, agent.key);
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.errors[0].field, 'domain');
  assert.equal(unknown.body.errors[0].code, 'not_found');

  await sendMail(svc, { from: 'someone@example.net', to: `bot@${d.domain}`, subject: 'hello custom domain', text: 'hi' });
  const list = await svc.api.get(`/v1/inboxes/${own.body.id}/messages`, agent.key);
  assert.equal(list.status, 200, list.text);
  assert.equal(list.body.data[0].subject, 'hello custom domain');
});

test('a domain verified by another org is domain_unavailable, at onboarding and at verification', async () => {
  const first = await createTenant(svc, { plan: 'startup' });
  const second = await createTenant(svc, { plan: 'startup' });
  const name = freshName();
  const early = await onboard(second, name);
  await verified(first, name);
  const late = await svc.api.post(`${A(second)}/domains`, { domain: `www.${name}` }, second.consoleToken);
  assert.equal(late.status, 201, 'a different name is unaffected');
  const taken = await svc.api.post(`${A(second)}/domains`, { domain: name.toUpperCase() }, second.consoleToken);
  assert.equal(taken.status, 409, taken.text);
  assert.equal(taken.body.error, 'domain_unavailable');
  // Even with the second org's records published, the name stays with the org that verified it first.
  publishRecords(dns, early);
  const verify = await svc.api.post(`${A(second)}/domains/${early.id}/verify`, {}, second.consoleToken);
  assert.equal(verify.status, 409, verify.text);
  assert.equal(verify.body.error, 'domain_unavailable');
  const own = await svc.api.post(`${A(first)}/domains`, { domain: 'agents.test' }, first.consoleToken);
  assert.equal(own.status, 409, "the service's own domain is not onboardable");
});

test("the plan's custom_domain_limit is enforced: the developer plan's second domain is quota_exceeded with no next_reset_at", async () => {
  const t = await createTenant(svc, { plan: 'developer' });
  await onboard(t);
  const over = await svc.api.post(`${A(t)}/domains`, { domain: freshName() }, t.consoleToken);
  assert.equal(over.status, 403, over.text);
  assert.equal(over.body.error, 'quota_exceeded');
  assert.equal(over.body.reason, 'custom_domain_limit_exceeded');
  assert.equal(over.body.limit, 1);
  assert.equal('next_reset_at' in over.body, false, 'a count of domains never resets');
  const { rows } = await db.query('SELECT count(*)::int AS n FROM domains WHERE org_id = $1', [t.orgId]);
  assert.equal(rows[0].n, 1, 'nothing was stored');
});

test('the daily re-verification degrades a verified domain whose DKIM record was removed, and restores it', async () => {
  const t = await createTenant(svc, { plan: 'startup' });
  const d = await verified(t);
  const dkimHost = d.records.find((r: any) => r.kind === 'dkim').host;
  dns.remove(dkimHost);
  await db.query(`UPDATE domains SET checked_at = now() - interval '25 hours' WHERE id = $1`, [d.id]);
  assert.equal(await domainRecheckWorker.perform({}, { ...svc.services, log: svc.services.log } as any), 'degraded');
  const after = await svc.api.get(`${A(t)}/domains/${d.domain}`, t.consoleToken);
  assert.equal(after.body.status, 'degraded');
  assert.equal(after.body.records.find((r: any) => r.kind === 'dkim').status, 'fail');
  assert.equal(after.body.records.find((r: any) => r.kind === 'ownership').status, 'pass');

  assert.equal(await domainRecheckWorker.perform({}, { ...svc.services } as any), 'idle', 'checked today: not checked again');
  publishRecords(dns, d);
  const back = await svc.api.post(`${A(t)}/domains/${d.domain}/verify`, {}, t.consoleToken);
  assert.equal(back.body.status, 'verified');
});

test('agent keys with domain:manage manage domains; without it 403; a purchase request is 503 not_configured', async () => {
  const t = await createTenant(svc, { plan: 'startup' });
  const plain = await domainKey(t, ['mailbox:read']);
  const denied = await svc.api.get('/v1/domains', plain.key);
  assert.equal(denied.status, 403);
  assert.equal(denied.body.code, 'forbidden_scope');

  const manager = await domainKey(t, ['domain:manage', 'commerce:request']);
  const name = freshName();
  const created = await svc.api.post('/v1/domains', { domain: name }, manager.key);
  assert.equal(created.status, 201, created.text);
  assert.equal(created.body.project_id, t.projectId);
  const bad = await svc.api.post('/v1/domains', { domain: 'not a domain' }, manager.key);
  assert.equal(bad.status, 400);
  assert.equal(bad.body.errors[0].field, 'domain');
  publishRecords(dns, created.body);
  const v = await svc.api.post(`/v1/domains/${name}/verify`, {}, manager.key);
  assert.equal(v.body.status, 'verified');
  assert.equal((await svc.api.get(`/v1/domains/${name}`, manager.key)).body.status, 'verified');
  assert.equal((await svc.api.get('/v1/domains/other.example.com', manager.key)).status, 404);

  const buy = await svc.api.post('/v1/domains/purchase-requests', { domain: 'new.example.com' }, manager.key);
  assert.equal(buy.status, 503, buy.text);
  assert.equal(buy.body.code, 'not_configured');
  const off = await svc.api.del(`/v1/domains/${name}`, manager.key);
  assert.equal(off.status, 204);
  assert.equal((await svc.api.get('/v1/domains', manager.key)).body.total, 0);
});

test('offboarding refuses while inboxes use the domain, unless asked to delete them too', async () => {
  const t = await createTenant(svc, { plan: 'startup' });
  const d = await verified(t);
  const { agentId } = await t.enroll();
  const inbox = await svc.api.post(`${A(t)}/inboxes`, { agent_id: agentId, domain: d.domain, username: 'leaving' }, t.consoleToken);
  assert.equal(inbox.status, 201);
  await sendMail(svc, { from: 'x@example.net', to: inbox.body.address, subject: 'before offboarding', text: 'hi' });

  const refused = await svc.api.del(`${A(t)}/domains/${d.domain}`, t.consoleToken);
  assert.equal(refused.status, 409, refused.text);
  assert.match(refused.body.message, /1 inboxes use/);
  assert.equal((await svc.api.get(`${A(t)}/domains`, t.consoleToken)).body.total, 1, 'nothing was removed');

  const done = await svc.api.del(`${A(t)}/domains/${d.domain}?delete_inboxes=true`, t.consoleToken);
  assert.equal(done.status, 204, done.text);
  const { rows } = await db.query('SELECT (SELECT count(*) FROM inboxes WHERE id = $1)::int AS inboxes, (SELECT count(*) FROM messages WHERE inbox_id = $1)::int AS messages', [inbox.body.id]);
  assert.deepEqual(rows[0], { inboxes: 0, messages: 0 });
  assert.equal((await svc.api.get(`${A(t)}/domains`, t.consoleToken)).body.total, 0);
});
