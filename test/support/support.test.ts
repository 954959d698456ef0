// Support feedback and cases through real HTTP (and MCP for the agent's report): validation at
// each limit, idempotency and dedupe, redaction, reach, the automatic-feedback opt-in, every reply
// code, the staff surface, status mail, deletion, and the whole path from a failed send.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, test } from '../../testkit/test.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { insertMembership, upsertUser } from '../../storage/tenancy.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { startRelay } from '../../testkit/relay.ts';
import { waitFor } from '../../testkit/wait.ts';

const STAFF = 'staff@support.example';
const relay = await startRelay('refuse');
after(() => relay.close());
const svc = await startTestService({ env: { SMTP_URL: relay.url, SUPPORT_STAFF_EMAILS: `Other@x.example, ${STAFF}` } });
const tenant = await createTenant(svc, { plan: 'developer' });
const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;
const F = `/v1/projects/${tenant.projectId}/feedback`;
const staffToken = await svc.services.identity.mint!(STAFF);
const agent = await tenant.enroll();
const key = agent.agentKey;

const evidence = (over: Record<string, unknown> = {}) => ({
  client_id: crypto.randomUUID(),
  category: 'unexpected_error',
  user_intent: 'Send the weekly report',
  observed_behavior: `The send failed ${crypto.randomUUID()}`,
  outcome: 'observation',
  ...over,
});

test('each evidence field one past its limit is 400 naming that field; at the limit it is taken', async () => {
  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    ['user_intent', { user_intent: 'x'.repeat(501) }, { user_intent: 'x'.repeat(500) }],
    ['user_intent', { user_intent: '' }, { user_intent: 'x' }],
    ['expected_behavior', { expected_behavior: 'x'.repeat(1001) }, { expected_behavior: 'x'.repeat(1000) }],
    ['observed_behavior', { observed_behavior: 'x'.repeat(2001) }, { observed_behavior: `${crypto.randomUUID()}`.padEnd(2000, 'y') }],
    ['attempts', { attempts: Array.from({ length: 21 }, () => ({ operation: 'send' })) }, { attempts: Array.from({ length: 20 }, () => ({ operation: 'send' })) }],
    ['attempts.0.operation', { attempts: [{ operation: 'o'.repeat(81) }] }, { attempts: [{ operation: 'o'.repeat(80) }] }],
    ['attempts.0.http_status', { attempts: [{ operation: 'send', http_status: 600 }] }, { attempts: [{ operation: 'send', http_status: 599 }] }],
    ['attempts.0.error_code', { attempts: [{ operation: 'send', error_code: 'e'.repeat(81) }] }, { attempts: [{ operation: 'send', error_code: 'e'.repeat(80) }] }],
    ['attempts.0.summary', { attempts: [{ operation: 'send', summary: 's'.repeat(301) }] }, { attempts: [{ operation: 'send', summary: 's'.repeat(300) }] }],
    ['resource_refs', { resource_refs: Array.from({ length: 21 }, () => ({ type: 'inbox', id: 'inb_x' })) }, {}],
    ['resource_refs.0.id', { resource_refs: [{ type: 'inbox', id: 'i'.repeat(201) }] }, {}],
    ['client_versions.sdk', { client_versions: { sdk: 'v'.repeat(101) } }, { client_versions: { sdk: 'v'.repeat(100) } }],
    ['client_id', { client_id: 'not-a-uuid' }, {}],
  ];
  for (const [field, over, ok] of cases) {
    const r = await svc.api.post(F, evidence(over), key);
    assert.equal(r.status, 400, `${field}: ${r.text}`);
    assert.equal(r.body.code, 'bad_request');
    assert.ok(r.body.errors.some((e: any) => e.field === field), `${field} named in ${JSON.stringify(r.body.errors)}`);
    if (Object.keys(ok).length) {
      const good = await svc.api.post(F, evidence(ok), key);
      assert.equal(good.status, 201, `${field} at the limit: ${good.text}`);
    }
  }
});

test('the same client_id replays the first answer; the same evidence under a new client_id raises repeat_count', async () => {
  const first = evidence();
  const a = await svc.api.post(F, first, key);
  assert.equal(a.status, 201, a.text);
  assert.equal(a.body.repeat_count, 1);
  const replay = await svc.api.post(F, first, key);
  assert.equal(replay.status, 201);
  assert.equal(replay.headers.get('idempotent-replayed'), 'true');
  assert.deepEqual(replay.body, a.body);
  const again = await svc.api.post(F, { ...first, client_id: crypto.randomUUID() }, key);
  assert.equal(again.status, 200, again.text);
  assert.equal(again.body.id, a.body.id);
  assert.equal(again.body.repeat_count, 2);
  const { rows } = await svc.services.db.query('SELECT count(*)::int AS n FROM support_feedback WHERE id = $1', [a.body.id]);
  assert.equal(rows[0].n, 1);
});

test('once its replay record is gone, a client_id still names its filing: other evidence is 409, the same is not counted again', async () => {
  const first = evidence();
  const a = await svc.api.post(F, first, key);
  assert.equal(a.status, 201, a.text);
  await svc.services.db.query('DELETE FROM idempotency_keys WHERE key = $1', [first.client_id]);
  const other = await svc.api.post(F, { ...first, observed_behavior: 'Something else' }, key);
  assert.equal(other.status, 409);
  assert.equal(other.body.code, 'idempotency_conflict');
  assert.equal(other.body.errors[0].field, 'client_id');
  await svc.services.db.query('DELETE FROM idempotency_keys WHERE key = $1', [first.client_id]);
  const same = await svc.api.post(F, first, key);
  assert.equal(same.status, 201, same.text);
  assert.equal(same.body.id, a.body.id);
  assert.equal(same.body.repeat_count, 1);
});

test('secrets are redacted before storage and named in redacted_fields', async () => {
  const r = await svc.api.post(F, evidence({
    observed_behavior: `401 with Authorization: Bearer ${key}`,
    attempts: [{ operation: 'register_webhook', summary: 'secret was whsec_abcdefghijklmnop' }, { operation: 'wait_for_email', summary: 'the code is 482913' }],
  }), key);
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.body.redacted_fields.sort(), ['attempts.0.summary', 'attempts.1.summary', 'observed_behavior']);
  const { rows } = await svc.services.db.query('SELECT evidence::text AS e FROM support_feedback WHERE id = $1', [r.body.id]);
  assert.ok(!rows[0].e.includes(key) && !rows[0].e.includes('whsec_abc') && !rows[0].e.includes('482913'), rows[0].e);
  assert.match(rows[0].e, /\[REDACTED\]/);
  assert.equal(r.body.observed_runtime.build, '0.1.0-pre.6');
  assert.ok(r.body.observed_runtime.request_id);
});

test('a resource ref outside the ceiling is 404 naming it; one inside fills diagnostics', async () => {
  const other = await createTenant(svc);
  const otherKey = (await other.enroll()).agentKey;
  const foreign = (await svc.api.post('/v1/inboxes', {}, otherKey)).body;
  const mine = (await svc.api.post('/v1/inboxes', {}, key)).body;
  const out = await svc.api.post(F, evidence({ resource_refs: [{ type: 'inbox', id: foreign.id }] }), key);
  assert.equal(out.status, 404, out.text);
  assert.equal(out.body.errors[0].field, 'resource_refs.0.id');
  const inside = await svc.api.post(F, evidence({ resource_refs: [{ type: 'inbox', id: mine.id }] }), key);
  assert.equal(inside.status, 201, inside.text);
  assert.equal(inside.body.diagnostics[0].id, mine.id);
  assert.equal(inside.body.diagnostics[0].state, 'active');
  assert.equal(inside.body.diagnostics[0].org_id, tenant.orgId);
});

test('a project the key cannot reach is 404 with the projects it can and the next action', async () => {
  const other = await createTenant(svc);
  const r = await svc.api.post(`/v1/projects/${other.projectId}/feedback`, evidence(), key);
  assert.equal(r.status, 404);
  assert.equal(r.body.code, 'not_found');
  assert.equal(r.body.reason, 'project_not_accessible');
  assert.deepEqual(r.body.projects.data.map((p: any) => p.id), [tenant.projectId]);
  assert.match(r.body.next_action, new RegExp(tenant.projectId));
  assert.equal((await svc.api.get(`/v1/projects/${other.projectId}/feedback`, key)).status, 404);
});

test('a key without support scopes is refused, even one with other privileged permissions', async () => {
  const k = await svc.api.post(`${A}/agents/${agent.agentId}/keys`, { permissions: ['mailbox:read', 'mailbox:quota'] }, tenant.consoleToken);
  assert.equal(k.status, 201, k.text);
  const r = await svc.api.post(F, evidence(), k.body.key);
  assert.equal(r.status, 403);
  assert.equal(r.body.code, 'forbidden_scope');
  assert.equal((await svc.api.get(F, k.body.key)).status, 403);
});

test('automatic feedback is refused until an org administrator opts in', async () => {
  const r = await svc.api.post(F, evidence({ submission_mode: 'automatic' }), key);
  assert.equal(r.status, 403);
  assert.equal(r.body.reason, 'automatic_feedback_not_enabled');
  assert.equal(r.body.errors[0].field, 'submission_mode');
  assert.equal((await svc.api.get(`${F}/policy`, key)).body.automatic_feedback, false);
  const on = await svc.api.request('PUT', `/v1/admin/orgs/${tenant.orgId}/support-settings`, { body: { automatic_feedback: true }, token: tenant.consoleToken });
  assert.equal(on.status, 200, on.text);
  assert.equal((await svc.api.get(`${F}/policy`, key)).body.automatic_feedback, true);
  const ok = await svc.api.post(F, evidence({ submission_mode: 'automatic' }), key);
  assert.equal(ok.status, 201, ok.text);
  assert.equal(ok.body.evidence.submission_mode, 'automatic');
  await svc.api.request('PUT', `/v1/admin/orgs/${tenant.orgId}/support-settings`, { body: { automatic_feedback: false }, token: tenant.consoleToken });
});

test('the list is the contract envelope of own records, paged; support:read sees other agents\' records too', async () => {
  const other = await tenant.enroll();
  await svc.api.post(F, evidence(), other.agentKey);
  const mine = await svc.api.get(`${F}?limit=2`, key);
  assert.equal(mine.status, 200, mine.text);
  assert.equal(mine.body.object, 'list');
  assert.equal(mine.body.data.length, 2);
  assert.equal(mine.body.has_more, true);
  const next = await svc.api.get(`${F}?limit=100&cursor=${mine.body.next_cursor}`, key);
  assert.ok(next.body.data.every((f: any) => !mine.body.data.some((m: any) => m.id === f.id)));
  const ids = new Set([...mine.body.data, ...next.body.data].map((f: any) => f.id));
  const reader = await svc.api.post(`${A}/agents/${agent.agentId}/keys`, { permissions: ['support:submit', 'support:read'] }, tenant.consoleToken);
  const all = await svc.api.get(`${F}?limit=100`, reader.body.key);
  assert.ok(all.body.data.length > ids.size);
  assert.equal((await svc.api.get(`${F}?limit=101`, key)).status, 400);
  assert.equal((await svc.api.get(`${F}?cursor=${'x'.repeat(2049)}`, key)).status, 400);
});

const staffMove = (id: string, body: Record<string, unknown>) =>
  svc.api.post(`/v1/admin/support/cases/${id}/updates`, { client_id: crypto.randomUUID(), body: 'update', ...body }, staffToken);

async function openCase(): Promise<string> {
  const r = await svc.api.post(F, evidence({ outcome: 'blocked' }), key);
  assert.equal(r.status, 201, r.text);
  assert.equal(r.body.linked_cases.length, 1);
  return r.body.linked_cases[0].id;
}

test('every reply code: context required, context changed (text kept), already pending, workflow required', async () => {
  const id = await openCase();
  const C = `/v1/projects/${tenant.projectId}/support-cases/${id}`;
  const reply = (body: Record<string, unknown>) => svc.api.post(`${C}/replies`, { client_id: crypto.randomUUID(), body: 'Here is more', ...body }, key);
  assert.equal((await staffMove(id, { status: 'waiting_on_customer', body: 'Which inbox?' })).status, 201);
  await staffMove(id, { body: 'Also: which time?' });

  const none = await reply({});
  assert.equal(none.status, 409);
  assert.equal(none.body.code, 'reply_context_required');
  assert.equal(none.body.current_state.id, id);

  const old = await reply({ sequence: 1, body: 'It was inb_123' });
  assert.equal(old.body.code, 'reply_context_changed');
  assert.equal(old.body.latest_update.sequence, 2);
  assert.equal(old.body.latest_update.body, 'Also: which time?');
  assert.equal(old.body.truncated, false);
  assert.equal(old.body.unsent_text, 'It was inb_123');
  assert.equal(old.body.current_state.status, 'waiting_on_customer');

  const ok = await reply({ sequence: 2 });
  assert.equal(ok.status, 201, ok.text);
  assert.equal(ok.body.case.status, 'working');
  assert.equal(ok.body.update.sequence, 3);
  assert.equal(ok.body.update.actor_kind, 'customer');

  const pending = await reply({ sequence: 3 });
  assert.equal(pending.body.code, 'reply_already_pending');
  assert.equal(pending.body.current_state.status, 'working');

  assert.equal((await staffMove(id, { status: 'resolved', body: 'Fixed' })).status, 201);
  // Resolved 15 days ago: past the 14-day reopen window.
  await svc.services.db.query(
    `UPDATE machine_instances SET snapshot = jsonb_set(snapshot, '{context,resolved_at_ms}', to_jsonb((extract(epoch from now()) * 1000)::bigint - 15 * 86400000)) WHERE kind = 'support_case' AND id = $1`,
    [id],
  );
  const late = await reply({ sequence: 4 });
  assert.equal(late.body.code, 'reply_workflow_required');
  assert.equal(late.body.unsent_text, 'Here is more');
  const { rows } = await svc.services.db.query('SELECT count(*)::int AS n FROM support_case_updates WHERE case_id = $1', [id]);
  assert.equal(rows[0].n, 4);
});

test('two replies racing for the same update: one is taken, the other is refused with current_state', async () => {
  const id = await openCase();
  await staffMove(id, { status: 'waiting_on_customer', body: 'Details?' });
  const send = (body: string) => svc.api.post(`/v1/projects/${tenant.projectId}/support-cases/${id}/replies`, { client_id: crypto.randomUUID(), body, sequence: 1 }, key);
  const [a, b] = await Promise.all([send('first'), send('second')]);
  const statuses = [a.status, b.status].sort();
  assert.deepEqual(statuses, [201, 409]);
  const lost = a.status === 409 ? a : b;
  assert.equal(lost.body.code, 'reply_context_changed');
  assert.equal(lost.body.current_state.status, 'working');
  assert.equal(lost.body.latest_update.actor_kind, 'customer');
  const { rows } = await svc.services.db.query("SELECT count(*)::int AS n FROM support_case_updates WHERE case_id = $1 AND actor_kind = 'customer'", [id]);
  assert.equal(rows[0].n, 1);
});

test('a customer reply within the window reopens a resolved case', async () => {
  const id = await openCase();
  await staffMove(id, { status: 'resolved', body: 'Done' });
  const r = await svc.api.post(`/v1/projects/${tenant.projectId}/support-cases/${id}/replies`, { client_id: crypto.randomUUID(), body: 'Still broken', sequence: 1 }, key);
  assert.equal(r.status, 201, r.text);
  assert.equal(r.body.case.status, 'working');
  assert.equal(r.body.case.resolved_ms, null);
});

test('staff: only listed identities; a stale version is 409 with current_state; customers and others are refused', async () => {
  const id = await openCase();
  assert.equal((await svc.api.get('/v1/admin/support/cases', tenant.consoleToken)).status, 403);
  const list = await svc.api.get('/v1/admin/support/cases?status=received', staffToken);
  assert.equal(list.status, 200, list.text);
  assert.ok(list.body.data.some((c: any) => c.id === id));
  const stale = await staffMove(id, { status: 'working', version: 99 });
  assert.equal(stale.status, 409);
  assert.equal(stale.body.current_state.version, 1);
  const c = await svc.api.get(`/v1/projects/${tenant.projectId}/support-cases/${id}`, (await tenant.enroll()).agentKey);
  assert.equal(c.status, 404);
});

test('from a failed send to a deleted case: MCP report, redacted key, staff moves, reply, resolve, delete, 410', async () => {
  const inbox = (await svc.api.post('/v1/inboxes', {}, key)).body;
  await svc.api.patch(`${A}/inboxes/${inbox.id}`, { review_policy: 'allow_direct' }, tenant.consoleToken);
  // The relay refuses every message: the auto-released send fails.
  const sent = await svc.api.post(`/v1/inboxes/${inbox.id}/send`, { to: 'someone@example.org', subject: 'Report', text: 'Hi' }, key);
  assert.ok(sent.status < 300, sent.text);
  const reviewId = sent.body.review_id ?? sent.body.id;
  await waitFor(async () => (await svc.api.get(`/v1/reviews/${reviewId}`, key)).body.state === 'failed', 'the send to fail');

  const mcp = new Client({ name: 'agent', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  after(() => mcp.close());
  const filed = await mcp.callTool({
    name: 'report_problem',
    arguments: {
      project_id: tenant.projectId,
      client_id: crypto.randomUUID(),
      category: 'unexpected_error',
      user_intent: 'Send the weekly report',
      observed_behavior: `The send failed; I used key ${key}`,
      outcome: 'blocked',
      attempts: [{ operation: 'send_email', http_status: 202 }],
      resource_refs: [{ type: 'review', id: reviewId }],
    },
  });
  assert.ok(!filed.isError, JSON.stringify(filed.content));
  const record = JSON.parse((filed.content as any)[0].text);
  assert.deepEqual(record.redacted_fields, ['observed_behavior']);
  assert.ok(!record.evidence.observed_behavior.includes(key));
  assert.equal(record.diagnostics[0].state, 'failed');
  assert.equal(record.observed_runtime.transport, 'mcp');
  const caseId = record.linked_cases[0].id;
  assert.equal(record.linked_cases[0].status, 'received');
  // The send was not retried because of the report: still one review, still failed.
  const { rows } = await svc.services.db.query("SELECT count(*)::int AS n FROM machine_instances WHERE kind = 'review' AND agent_id = $1", [agent.agentId]);
  assert.equal(rows[0].n, 1);

  const moved = await staffMove(caseId, { status: 'waiting_on_customer', body: 'Which recipient?' });
  assert.equal(moved.status, 201, moved.text);
  const got = JSON.parse((await mcp.callTool({ name: 'get_support_case', arguments: { project_id: tenant.projectId, id: caseId } }) as any).content[0].text);
  assert.equal(got.status, 'waiting_on_customer');
  const seq = got.updates.at(-1).sequence;
  const replied = await mcp.callTool({ name: 'reply_support_case', arguments: { project_id: tenant.projectId, id: caseId, client_id: crypto.randomUUID(), body: 'someone@example.org', sequence: seq } });
  assert.ok(!replied.isError, JSON.stringify(replied.content));
  assert.equal((await staffMove(caseId, { status: 'resolved', body: 'The relay is fixed', resolution_kind: 'fixed' })).status, 201);

  // Each status change was mailed to the agent's (oldest) inbox as system mail, and left an event.
  const contact = (await svc.services.db.query('SELECT contact_email FROM support_cases WHERE id = $1', [caseId])).rows[0].contact_email;
  assert.ok(contact);
  await waitFor(async () => {
    const m = await svc.api.get(`/v1/inboxes/${encodeURIComponent(contact)}/messages`, key);
    return (m.body.data ?? m.body.messages ?? []).filter((x: any) => /Support case/.test(x.subject)).length >= 4;
  }, 'status mails');
  const events = await svc.services.db.query("SELECT payload->>'status' AS s FROM events WHERE type = 'support_case.status_changed' AND payload->>'case_id' = $1 ORDER BY id", [caseId]);
  assert.deepEqual(events.rows.map((r) => r.s), ['received', 'waiting_on_customer', 'working', 'resolved']);

  const feed = await svc.api.get(`${A}/support-cases/${caseId}/events`, tenant.consoleToken);
  assert.equal(feed.status, 200, feed.text);
  assert.deepEqual(feed.body.data.map((u: any) => u.actor_kind), ['staff', 'customer', 'staff']);

  const clientId = crypto.randomUUID();
  const del = await svc.api.post(`${A}/support-cases/${caseId}/delete`, { client_id: clientId }, tenant.consoleToken);
  assert.equal(del.status, 200, del.text);
  const retry = await svc.api.post(`${A}/support-cases/${caseId}/delete`, { client_id: clientId }, tenant.consoleToken);
  assert.equal(retry.status, 200);
  for (const r of [
    await svc.api.get(`${A}/support-cases/${caseId}`, tenant.consoleToken),
    await svc.api.get(`/v1/projects/${tenant.projectId}/support-cases/${caseId}`, key),
    await svc.api.get(`/v1/admin/support/cases/${caseId}`, staffToken),
  ]) {
    assert.equal(r.status, 410, r.text);
    assert.equal(r.body.code, 'support_record_deleted');
  }
});

test('only a resolved case may be deleted, and only by an administrator of the whole org', async () => {
  const id = await openCase();
  const r = await svc.api.post(`${A}/support-cases/${id}/delete`, { client_id: crypto.randomUUID() }, tenant.consoleToken);
  assert.equal(r.status, 409);
  assert.equal(r.body.current_state.status, 'received');
  await staffMove(id, { status: 'resolved', body: 'Done' });
  const email = `project-admin-${crypto.randomUUID()}@example.com`;
  const user = await upsertUser(svc.services.db, `usr_${crypto.randomUUID()}`, email);
  await insertMembership(svc.services.db, { org_id: tenant.orgId, user_id: user.id, project_id: tenant.projectId, role: 'admin' });
  const projectAdmin = await svc.services.identity.mint!(email);
  assert.equal((await svc.api.get(`${A}/support-cases/${id}`, projectAdmin)).status, 200);
  const refused = await svc.api.post(`${A}/support-cases/${id}/delete`, { client_id: crypto.randomUUID() }, projectAdmin);
  assert.equal(refused.status, 403, refused.text);
  assert.equal(refused.body.code, 'forbidden_scope');
  assert.equal((await svc.api.get(`${A}/support-cases/${id}`, tenant.consoleToken)).body.status, 'resolved');
});

test('the console serves a case\'s machine snapshot with its legal verbs', async () => {
  const id = await openCase();
  const r = await svc.api.get(`${A}/machines/support_case/${id}`, tenant.consoleToken);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.state, 'received');
  assert.deepEqual(r.body.allowed_actions, ['staff_update', 'customer_reply']);
});

test('another org\'s console members see none of this org\'s cases', async () => {
  const id = await openCase();
  const other = await createTenant(svc);
  const r = await svc.api.get(`/v1/admin/orgs/${other.orgId}/projects/${other.projectId}/support-cases/${id}`, other.consoleToken);
  assert.equal(r.status, 404);
  const list = await svc.api.get(`/v1/admin/orgs/${other.orgId}/projects/${other.projectId}/support-cases`, other.consoleToken);
  assert.deepEqual(list.body.data, []);
});
