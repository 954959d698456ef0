import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, test } from '../../testkit/test.ts';
import { createLogger } from '../../service/logger.ts';
import { createTenant, startTestService, type Tenant } from '../../testkit/service.ts';
import { addInbox, startReceiver } from './helpers.ts';

const logged: string[] = [];
const sink = new PassThrough();
sink.on('data', (chunk: Buffer) => logged.push(chunk.toString('utf8')));
const svc = await startTestService({ log: createLogger('debug', sink) });
// The same database, with private targets refused, as a production API process.
const strict = await startTestService({ databaseUrl: svc.databaseUrl, roles: ['api'], env: { WEBHOOK_ALLOW_PRIVATE: 'false' } });
// Many registrations in one org: a plan without a webhook limit.
const tenant = await createTenant(svc, { plan: 'enterprise' });
const agent = await tenant.enroll('hooks-agent');
const sibling = await tenant.enroll('sibling-agent');
const inbox = await addInbox(svc, tenant, agent.agentId);
const siblingInbox = await addInbox(svc, tenant, sibling.agentId);
const receiver = await startReceiver();

const A = (t: Tenant) => `/v1/admin/orgs/${t.orgId}/projects/${t.projectId}`;

async function issueKey(t: Tenant, agentId: string, body: Record<string, unknown>): Promise<string> {
  const r = await svc.api.post(`${A(t)}/agents/${agentId}/keys`, body, t.consoleToken);
  assert.equal(r.status, 201, r.text);
  return r.body.key;
}

describe('registering a webhook', () => {
  test('returns 201 with the secret once, its prefix, and message.received by default', async () => {
    const r = await svc.api.post('/v1/webhooks', { url: `${receiver.url}/hook` }, agent.agentKey);
    assert.equal(r.status, 201, r.text);
    assert.match(r.body.id, /^wh_/);
    assert.equal(r.body.url, `${receiver.url}/hook`);
    assert.deepEqual(r.body.events, ['message.received']);
    assert.equal(r.body.inbox, null);
    assert.equal(r.body.agent_id, agent.agentId);
    assert.equal(r.body.active, true);
    assert.equal(r.body.consec_failures, 0);
    assert.match(r.body.secret, /^whsec_[0-9a-z]{32}$/);
    assert.equal(r.body.secret_prefix, r.body.secret.slice(0, 10));

    const stored = await svc.services.db.query('SELECT secret_sealed, secret_prefix FROM webhooks WHERE id = $1', [r.body.id]);
    assert.equal(stored.rows[0].secret_prefix, r.body.secret_prefix);
    assert.equal(stored.rows[0].secret_sealed.includes(Buffer.from(r.body.secret)), false, 'the secret is stored encrypted');

    const got = await svc.api.get(`/v1/webhooks/${r.body.id}`, agent.agentKey);
    assert.equal(got.status, 200);
    assert.equal(got.body.secret, undefined);
    assert.equal(got.body.secret_prefix, r.body.secret_prefix);
    assert.equal(got.text.includes(r.body.secret), false);

    const list = await svc.api.get('/v1/webhooks', agent.agentKey);
    assert.equal(list.status, 200);
    assert.ok(list.body.items.some((w: any) => w.id === r.body.id));
    assert.equal(list.body.total, list.body.items.length);
    assert.equal(list.text.includes(r.body.secret), false);
    assert.ok(list.body.items.every((w: any) => w.secret === undefined));

    assert.equal(logged.join('').includes(r.body.secret), false, 'the secret never reaches the log');
  });

  test('accepts the inbox by address (alias address) or id, and event_types as the alias of events', async () => {
    const byAddress = await svc.api.post('/v1/webhooks', { url: receiver.url, address: inbox.address, event_types: ['message.received'] }, agent.agentKey);
    assert.equal(byAddress.status, 201, byAddress.text);
    assert.equal(byAddress.body.inbox, inbox.address);
    assert.equal(byAddress.body.inbox_id, inbox.id);
    const byId = await svc.api.post('/v1/webhooks', { url: receiver.url, inbox: inbox.id }, agent.agentKey);
    assert.equal(byId.status, 201, byId.text);
    assert.equal(byId.body.inbox, inbox.address);
  });

  test('accepts inbox_id, the field its answers carry, as the inbox; on update too', async () => {
    const r = await svc.api.post('/v1/webhooks', { url: receiver.url, inbox_id: inbox.id }, agent.agentKey);
    assert.equal(r.status, 201, r.text);
    assert.deepEqual([r.body.inbox_id, r.body.inbox], [inbox.id, inbox.address]);
    const widened = await svc.api.patch(`/v1/webhooks/${r.body.id}`, { inbox_id: null }, agent.agentKey);
    assert.equal(widened.status, 200, widened.text);
    assert.equal(widened.body.inbox_id, null);
    const back = await svc.api.patch(`/v1/webhooks/${r.body.id}`, { inbox_id: inbox.id }, agent.agentKey);
    assert.equal(back.status, 200, back.text);
    assert.equal(back.body.inbox_id, inbox.id);
    const conflicting = await svc.api.post('/v1/webhooks', { url: receiver.url, inbox: inbox.id, inbox_id: siblingInbox.id }, agent.agentKey);
    assert.equal(conflicting.status, 400);
    assert.deepEqual([conflicting.body.errors[0].field, conflicting.body.errors[0].code], ['inbox_id', 'conflicting_alias']);
  });

  test('an alias and its field with different values is 400 conflicting_alias', async () => {
    const r = await svc.api.post('/v1/webhooks', { url: receiver.url, inbox: inbox.id, address: siblingInbox.address }, agent.agentKey);
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'bad_request');
    assert.equal(r.body.errors[0].field, 'address');
    assert.equal(r.body.errors[0].code, 'conflicting_alias');
  });

  test('an inbox of a sibling agent or of no one is 404, and nothing is stored', async () => {
    const before = await svc.services.db.query('SELECT count(*)::int AS n FROM webhooks');
    for (const ref of [siblingInbox.address, siblingInbox.id, `nobody@${svc.config.inboxDomain}`]) {
      const r = await svc.api.post('/v1/webhooks', { url: receiver.url, inbox: ref }, agent.agentKey);
      assert.equal(r.status, 404, ref);
      assert.equal(r.body.code, 'not_found');
    }
    const after = await svc.services.db.query('SELECT count(*)::int AS n FROM webhooks');
    assert.equal(after.rows[0].n, before.rows[0].n);
  });

  test('events other than message.received, a missing or invalid url, and unknown keys are 400', async () => {
    const other = await svc.api.post('/v1/webhooks', { url: receiver.url, events: ['review.sent'] }, agent.agentKey);
    assert.equal(other.status, 400);
    assert.equal(other.body.errors[0].field, 'events.0');
    const missing = await svc.api.post('/v1/webhooks', { events: ['message.received'] }, agent.agentKey);
    assert.equal(missing.status, 400);
    assert.equal(missing.body.errors[0].field, 'url');
    assert.equal(missing.body.errors[0].code, 'required');
    const invalid = await svc.api.post('/v1/webhooks', { url: 'not a url' }, agent.agentKey);
    assert.equal(invalid.status, 400);
    assert.equal(invalid.body.errors[0].field, 'url');
    const unknown = await svc.api.post('/v1/webhooks', { url: receiver.url, secret: 'mine' }, agent.agentKey);
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.detail, /accepted keys: address, client_id, event_types, events, inbox, inbox_id, url/);
  });

  test('a key without webhook:write is 403 forbidden_scope; reading needs mailbox:read', async () => {
    const readOnly = await issueKey(tenant, agent.agentId, { permissions: ['mailbox:read'] });
    const r = await svc.api.post('/v1/webhooks', { url: receiver.url }, readOnly);
    assert.equal(r.status, 403);
    assert.equal(r.body.code, 'forbidden_scope');
    assert.equal((await svc.api.get('/v1/webhooks', readOnly)).status, 200);
    const writeOnly = await issueKey(tenant, agent.agentId, { permissions: ['webhook:write'] });
    const list = await svc.api.get('/v1/webhooks', writeOnly);
    assert.equal(list.status, 403);
    assert.equal(list.body.code, 'forbidden_scope');
  });

  test('client_id replays the first registration instead of creating a second', async () => {
    const body = { url: receiver.url, client_id: `reg-${Date.now()}` };
    const first = await svc.api.post('/v1/webhooks', body, agent.agentKey);
    const again = await svc.api.post('/v1/webhooks', body, agent.agentKey);
    assert.equal(first.status, 201);
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.body.id, first.body.id);
    assert.equal(again.body.secret, first.body.secret, 'the replay is the first response, secret included');
    const n = await svc.services.db.query('SELECT count(*)::int AS n FROM webhooks WHERE id = $1', [first.body.id]);
    assert.equal(n.rows[0].n, 1);
  });

  test('a stored registration response keeps its one-time secret sealed, not in clear', async () => {
    const body = { url: receiver.url, client_id: `sealed-${Date.now()}` };
    const first = await svc.api.post('/v1/webhooks', body, agent.agentKey);
    assert.equal(first.status, 201);
    assert.ok(typeof first.body.secret === 'string' && first.body.secret.length > 10);
    const { rows } = await svc.services.db.query(
      'SELECT body, body_sealed, headers::text AS headers FROM idempotency_keys WHERE key = $1',
      [body.client_id],
    );
    assert.equal(rows.length, 1);
    assert.equal(rows[0].body, null);
    assert.ok(Buffer.isBuffer(rows[0].body_sealed));
    assert.equal(rows[0].body_sealed.includes(Buffer.from(first.body.secret)), false, 'the secret is not stored in clear');
    assert.equal(rows[0].headers.includes(first.body.secret), false);
  });
});

describe('webhook targets when private addresses are refused', () => {
  const refused = async (url: string, pattern: RegExp) => {
    const r = await strict.api.post('/v1/webhooks', { url }, agent.agentKey);
    assert.equal(r.status, 400, url);
    assert.match(r.headers.get('content-type')!, /application\/problem\+json/);
    assert.equal(r.body.code, 'bad_request');
    assert.equal(r.body.errors[0].field, 'url');
    assert.equal(r.body.errors[0].code, 'target_refused');
    assert.match(r.body.detail, pattern);
  };

  test('loopback and the metadata address are refused with bad_request naming url, and the detail names WEBHOOK_ALLOW_PRIVATE', async () => {
    await refused('http://127.0.0.1/hook', /loopback.*WEBHOOK_ALLOW_PRIVATE=true/);
    await refused('http://169.254.169.254/latest/meta-data/', /link-local/);
    await refused('http://[::ffff:127.0.0.1]/hook', /loopback/);
    await refused('http://10.0.0.8:8080/hook', /private/);
  });

  test('IPv6 forms that carry a private IPv4 address (translated, 6to4, Teredo) are refused', async () => {
    await refused('http://[::ffff:0:7f00:1]/hook', /loopback/);
    await refused('http://[2002:7f00:1::]/hook', /loopback/);
    await refused('http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook', /loopback/);
    await refused('http://[2002:a9fe:a9fe::]/latest/meta-data/', /link-local/);
  });

  test('a host name is resolved and refused when it points inside', async () => {
    await refused(`http://localhost:${new URL(receiver.url).port}/hook`, /resolves to a loopback address.*WEBHOOK_ALLOW_PRIVATE=true/);
  });

  test('a scheme other than http and https is refused', async () => {
    await refused('ftp://example.com/hook', /http or https/);
  });

  test('changing the url to a private address is refused too', async () => {
    const created = await svc.api.post('/v1/webhooks', { url: receiver.url }, agent.agentKey);
    const r = await strict.api.patch(`/v1/webhooks/${created.body.id}`, { url: 'http://192.168.1.1/x' }, agent.agentKey);
    assert.equal(r.status, 400);
    assert.equal(r.body.errors[0].field, 'url');
    const stored = await svc.api.get(`/v1/webhooks/${created.body.id}`, agent.agentKey);
    assert.equal(stored.body.url, receiver.url);
  });
});

describe('reading, changing and deleting webhooks', () => {
  test('a sibling agent cannot see, change or delete another agent\'s webhook (404)', async () => {
    const created = await svc.api.post('/v1/webhooks', { url: receiver.url }, agent.agentKey);
    const id = created.body.id;
    assert.equal((await svc.api.get(`/v1/webhooks/${id}`, sibling.agentKey)).status, 404);
    assert.equal((await svc.api.patch(`/v1/webhooks/${id}`, { active: false }, sibling.agentKey)).status, 404);
    assert.equal((await svc.api.del(`/v1/webhooks/${id}`, sibling.agentKey)).status, 404);
    const list = await svc.api.get('/v1/webhooks', sibling.agentKey);
    assert.equal(list.body.items.some((w: any) => w.id === id), false);
    assert.equal((await svc.api.get(`/v1/webhooks/${id}`, agent.agentKey)).body.active, true);
  });

  test('PATCH changes url, inbox and active; omitted fields stay', async () => {
    const created = await svc.api.post('/v1/webhooks', { url: receiver.url }, agent.agentKey);
    const id = created.body.id;
    const moved = await svc.api.patch(`/v1/webhooks/${id}`, { url: `${receiver.url}/v2`, inbox: inbox.address }, agent.agentKey);
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.body.url, `${receiver.url}/v2`);
    assert.equal(moved.body.inbox, inbox.address);
    assert.deepEqual(moved.body.events, ['message.received']);
    assert.equal(moved.body.secret, undefined);
    const off = await svc.api.patch(`/v1/webhooks/${id}`, { active: false }, agent.agentKey);
    assert.equal(off.body.active, false);
    assert.ok(off.body.deactivated_at);
    const widened = await svc.api.patch(`/v1/webhooks/${id}`, { inbox: null, active: true }, agent.agentKey);
    assert.equal(widened.body.inbox, null);
    assert.equal(widened.body.active, true);
    assert.equal(widened.body.deactivated_at, null);
    const empty = await svc.api.patch(`/v1/webhooks/${id}`, {}, agent.agentKey);
    assert.equal(empty.status, 400);
  });

  test('DELETE answers 204, then the webhook is gone (404)', async () => {
    const created = await svc.api.post('/v1/webhooks', { url: receiver.url }, agent.agentKey);
    const del = await svc.api.del(`/v1/webhooks/${created.body.id}`, agent.agentKey);
    assert.equal(del.status, 204);
    assert.equal(del.text, '');
    const got = await svc.api.get(`/v1/webhooks/${created.body.id}`, agent.agentKey);
    assert.equal(got.status, 404);
    assert.equal(got.body.code, 'not_found');
    assert.equal((await svc.api.del(`/v1/webhooks/${created.body.id}`, agent.agentKey)).status, 404);
  });

  test('an inbox key registers for its own inbox only and sees only webhooks naming it', async () => {
    const inboxKey = await issueKey(tenant, agent.agentId, { ceiling: 'inbox', inbox_id: inbox.id });
    const own = await svc.api.post('/v1/webhooks', { url: receiver.url }, inboxKey);
    assert.equal(own.status, 201, own.text);
    assert.equal(own.body.inbox, inbox.address);
    const list = await svc.api.get('/v1/webhooks', inboxKey);
    assert.ok(list.body.items.length >= 1);
    assert.ok(list.body.items.every((w: any) => w.inbox_id === inbox.id));
    const widen = await svc.api.patch(`/v1/webhooks/${own.body.id}`, { inbox: null }, inboxKey);
    assert.equal(widen.status, 400);
    assert.equal(widen.body.errors[0].field, 'inbox');
  });
});

describe('console plane', () => {
  test('registers a webhook for an active agent and gets it with the secret redacted', async () => {
    const r = await svc.api.post(`${A(tenant)}/webhooks`, { url: receiver.url, agent_id: sibling.agentId, address: siblingInbox.address }, tenant.consoleToken);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.agent_id, sibling.agentId);
    assert.equal(r.body.inbox, siblingInbox.address);
    assert.match(r.body.secret, /^whsec_/);
    const got = await svc.api.get(`${A(tenant)}/webhooks/${r.body.id}`, tenant.consoleToken);
    assert.equal(got.status, 200);
    assert.equal(got.body.secret, undefined);
    assert.equal(got.body.secret_prefix, r.body.secret_prefix);
    // The owning agent sees it on the agent plane.
    assert.equal((await svc.api.get(`/v1/webhooks/${r.body.id}`, sibling.agentKey)).status, 200);
  });

  test('an unknown agent is 404 and a missing agent_id 400, in the legacy envelope', async () => {
    const unknown = await svc.api.post(`${A(tenant)}/webhooks`, { url: receiver.url, agent_id: 'agt_nobody' }, tenant.consoleToken);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error, 'not_found');
    const missing = await svc.api.post(`${A(tenant)}/webhooks`, { url: receiver.url }, tenant.consoleToken);
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error, 'invalid');
  });

  test('another org\'s member cannot read the webhook (404)', async () => {
    const r = await svc.api.post(`${A(tenant)}/webhooks`, { url: receiver.url, agent_id: agent.agentId }, tenant.consoleToken);
    const other = await createTenant(svc);
    const got = await svc.api.get(`${A(tenant)}/webhooks/${r.body.id}`, other.consoleToken);
    assert.equal(got.status, 404);
    const own = await svc.api.get(`${A(other)}/webhooks/${r.body.id}`, other.consoleToken);
    assert.equal(own.status, 404);
  });
});
