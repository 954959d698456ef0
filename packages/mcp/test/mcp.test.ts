// The MCP server through the MCP SDK's own client: over Streamable HTTP at /mcp and over stdio.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, test } from '../../../testkit/test.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Ajv } from 'ajv';
import { NOT_TOOLS, PENDING_TOOLS, TOOLS } from '@agent-inbox/mcp';
import { OPERATIONS } from '@agent-inbox/sdk';
import { createTenant, startTestService } from '../../../testkit/service.ts';
import { sendMail } from '../../../testkit/mail.ts';
import { startRelay } from '../../../testkit/relay.ts';
import { waitFor } from '../../../testkit/wait.ts';

const relay = await startRelay('accept');
after(() => relay.close());
const svc = await startTestService({ env: { SMTP_URL: relay.url } });
const tenant = await createTenant(svc, { plan: 'developer' });
const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;

const CONTRACT_TOOLS = [
  'redeem_enrollment', 'whoami', 'create_inbox', 'list_inboxes', 'get_inbox', 'send_email', 'reply_email', 'forward_email',
  'read_messages', 'get_message', 'search', 'batch_update_messages', 'list_threads', 'get_thread', 'list_attachments',
  'get_attachment', 'wait_for_email', 'register_webhook', 'update_webhook', 'list_webhooks', 'get_webhook', 'delete_webhook',
  'add_contact', 'list_contacts', 'remove_contact', 'check_suppression', 'list_suppressions', 'suppress_email',
  'unsuppress_email', 'get_review', 'get_review_feedback', 'cancel_review', 'restamp_review', 'revise_review', 'chat_review',
  'list_review_events', 'wait_for_review_event', 'ack_review_event', 'get_reviewer_queue', 'decide_review',
];

async function httpClient(key: string): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  after(() => client.close());
  return client;
}

function json(result: any): any {
  return JSON.parse(result.content[0].text);
}

test('SDK methods, MCP tools and the agent-plane operations of the document correspond one to one', async () => {
  const doc = (await svc.api.get('/openapi.json')).body;
  const agentPlane: string[] = [];
  for (const item of Object.values<any>(doc.paths)) {
    for (const m of ['get', 'post', 'put', 'patch', 'delete']) {
      const op = item[m];
      if (!op || op['x-sdk'] === false) continue;
      if ((op.security ?? []).some((s: any) => 'AgentKey' in s) || op['x-agent-public']) agentPlane.push(op.operationId);
    }
  }
  assert.deepEqual(Object.keys(OPERATIONS).sort(), agentPlane.sort(), 'one SDK method per agent-plane operation');
  const toolOps = TOOLS.map((t) => t.operationId);
  assert.equal(new Set(toolOps).size, toolOps.length, 'no operation has two tools');
  assert.deepEqual([...toolOps, ...Object.keys(NOT_TOOLS)].sort(), agentPlane.sort(), 'one tool per operation, but the listed exceptions');
});

test('tools/list over Streamable HTTP names every contract tool, each with a valid input schema and a description', async () => {
  const { agentKey } = await tenant.enroll('lister');
  const client = await httpClient(agentKey);
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  for (const name of CONTRACT_TOOLS) assert.ok(names.includes(name), `tool ${name}`);
  // Every tool of the contract is built: none is left pending.
  assert.deepEqual(Object.keys(PENDING_TOOLS), []);
  assert.ok(names.includes('list_categories'));
  const ajv = new Ajv({ strict: false });
  for (const t of tools) {
    assert.equal(t.inputSchema.type, 'object');
    assert.ok(ajv.validateSchema(t.inputSchema), `${t.name} input schema is valid JSON Schema`);
    assert.ok((t.description ?? '').length > 20, `${t.name} has a description an agent can act on`);
  }
});

test('the HTTP endpoint refuses a missing key and an enrollment token', async () => {
  for (const auth of [undefined, `Bearer ${tenant.enrollmentToken}`]) {
    const r = await fetch(`${svc.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(auth ? { authorization: auth } : {}) },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(r.status, 401);
  }
});

test('a scripted agent session: inbox, a mailed code, intent_required then the example intent, approval, sent', async () => {
  const { agentKey } = await tenant.enroll('scripted');
  const mcp = await httpClient(agentKey);
  const call = async (name: string, args: Record<string, unknown>) => mcp.callTool({ name, arguments: args });

  const inbox = json(await call('create_inbox', { display_name: 'Signup Bot' }));
  assert.match(inbox.address, /@agents\.test$/);
  const since = new Date(Date.now() - 1000).toISOString(); // the call may land after the mail
  const waiting = call('wait_for_email', { inbox_id: inbox.id, extract: 'code', timeout_seconds: 20, since });
  await sendMail(svc, { from: 'noreply@saas.example', to: inbox.address, subject: 'Your code', text: 'Your verification code is 730194' });
  assert.equal(json(await waiting).code, '730194');

  const refused: any = await call('send_email', { inbox_id: inbox.id, to: 'dana@acme.example', subject: 'Hello', text: 'Hi Dana' });
  assert.equal(refused.isError, true);
  const problem = json(refused);
  assert.equal(problem.code, 'intent_required');
  assert.ok(problem.retry_with?.summary, 'the error carries an example intent to retry with');

  const queued = json(await call('send_email', { inbox_id: inbox.id, to: 'dana@acme.example', subject: 'Hello', text: 'Hi Dana', intent: problem.retry_with }));
  assert.equal(queued.outcome, 'queued_for_review');
  const approve = await svc.api.post(`${A}/reviews/${queued.review_id}/decision`, { action: 'approve' }, tenant.consoleToken);
  assert.equal(approve.status, 200, approve.text);

  const sent = await waitFor(async () => {
    const r = json(await call('wait_for_review_event', { timeout_seconds: 2 }));
    const items: any[] = r.data ?? r.items ?? [];
    for (const e of items) await call('ack_review_event', { acks: [{ review_id: e.review_id, through_seq: e.seq }], broadcast_ids: [] });
    return items.find((e) => e.review_id === queued.review_id && e.type === 'review.sent');
  }, 'review.sent through wait_for_review_event', 20_000);
  assert.equal(sent.state, 'sent');
  assert.equal(json(await call('get_review', { review_id: queued.review_id })).state, 'sent');
  await waitFor(() => relay.received.some((m) => m.to.includes('dana@acme.example')), 'the relay got the mail');
});

test('a 409 comes back with the legal verbs as allowed_action', async () => {
  const { agentKey } = await tenant.enroll('conflicted');
  const mcp = await httpClient(agentKey);
  const inbox = json(await mcp.callTool({ name: 'create_inbox', arguments: {} }));
  const queued = json(await mcp.callTool({ name: 'send_email', arguments: { inbox_id: inbox.id, to: 'x@acme.example', text: 'x', intent: { summary: 'A short note to a customer' } } }));
  const r: any = await mcp.callTool({ name: 'chat_review', arguments: { review_id: queued.review_id, message: 'hello?' } });
  assert.equal(r.isError, true);
  const body = json(r);
  assert.equal(body.code, 'wrong_state');
  assert.ok(body.allowed_action.includes('cancel'));
});

test('a reviewer agent reads its queue and approves through get_reviewer_queue and decide_review', async () => {
  const composer = await tenant.enroll('composer-for-reviewer');
  const inbox = (await svc.api.post('/v1/inboxes', {}, composer.agentKey)).body;
  const { agentId } = await tenant.enroll('mcp-reviewer');
  const key = (await svc.api.post(`${A}/agents/${agentId}/keys`, { permissions: ['review:act'] }, tenant.consoleToken)).body.key;
  const link = await svc.api.post(`${A}/review-links`, { inbox_address: inbox.address, reviewer_agent_id: agentId, transport: 'sse' }, tenant.consoleToken);
  assert.equal(link.status, 201, link.text);
  const queued = await svc.api.post(`/v1/inboxes/${inbox.id}/send`, { to: 'dana@acme.example', text: 'Hi Dana', intent: { summary: 'A short note to a customer' } }, composer.agentKey);
  assert.equal(queued.body.review.route, 'reviewer_agent');

  const mcp = await httpClient(key);
  const work = json(await mcp.callTool({ name: 'get_reviewer_queue', arguments: {} }));
  assert.deepEqual(work.data.map((w: any) => [w.review_id, w.draft.text]), [[queued.body.review_id, 'Hi Dana']]);
  const approved = json(await mcp.callTool({ name: 'decide_review', arguments: { review_id: queued.body.review_id, action: 'approve', parent_revision: 1 } }));
  assert.equal(approved.state, 'approved');
  const again: any = await mcp.callTool({ name: 'decide_review', arguments: { review_id: queued.body.review_id, action: 'open' } });
  assert.equal(again.isError, true);
});

test('over stdio a fresh agent enrolls and then acts as itself', async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', path.resolve('bin/agent-inbox.ts'), 'mcp', '--stdio'],
    env: { ...(process.env as Record<string, string>), AGENT_INBOX_URL: svc.url, AGENT_INBOX_API_KEY: '', LOG_LEVEL: 'silent' },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'stdio-agent', version: '1.0.0' });
  await client.connect(transport);
  after(() => client.close());
  const { tools } = await client.listTools();
  assert.ok(tools.some((t) => t.name === 'redeem_enrollment'));
  const enrolled = json(await client.callTool({ name: 'redeem_enrollment', arguments: { token: tenant.enrollmentToken, agent_handle: 'stdio-agent' } }));
  const me = json(await client.callTool({ name: 'whoami', arguments: {} }));
  assert.equal(me.agent_id, enrolled.agent_id);
});
