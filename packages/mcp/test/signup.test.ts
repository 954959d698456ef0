// An agent with no key onboards itself over MCP (stdio): sign_up, the code from the mail the relay
// received, verify_signup, then a mail to its new inbox read with the quickstart calls; then the
// person with that verified email claims the org on the console and sees the agent. The HTTP
// /mcp endpoint still refuses a request with no bearer.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { PassThrough } from 'node:stream';
import { after, test } from '../../../testkit/test.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createLogger } from '../../../service/logger.ts';
import { sendMail } from '../../../testkit/mail.ts';
import { startTestService } from '../../../testkit/service.ts';
import { waitFor } from '../../../testkit/wait.ts';
import { startRelay } from '../../../testkit/relay.ts';

const logs: string[] = [];
const sink = new PassThrough();
sink.on('data', (c: Buffer) => logs.push(c.toString('utf8')));
const relay = await startRelay('accept');
after(() => relay.close());
const svc = await startTestService({ env: { SMTP_URL: relay.url, SIGNUP_ENABLED: 'true' }, log: createLogger('debug', sink) });

const json = (result: any): any => JSON.parse(result.content[0].text);

test('over stdio an agent with no key signs up, verifies the mailed code and reads mail in its new inbox; the person with that email claims the org and sees the agent', async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', path.resolve('bin/agent-inbox.ts'), 'mcp', '--stdio'],
    env: { ...(process.env as Record<string, string>), AGENT_INBOX_URL: svc.url, AGENT_INBOX_API_KEY: '', LOG_LEVEL: 'silent' },
    stderr: 'ignore',
  });
  const mcp = new Client({ name: 'self-signup-agent', version: '1.0.0' });
  await mcp.connect(transport);
  after(() => mcp.close());
  const call = (name: string, args: Record<string, unknown> = {}) => mcp.callTool({ name, arguments: args });

  assert.deepEqual(json(await call('signup_status')), { enabled: true });
  const signed = json(await call('sign_up', { email: 'owner@people.example', agent_handle: 'helper', display_name: 'Helper' }));
  assert.match(signed.temporary_key, /^pk_agent_/);
  const mail = await waitFor(() => relay.received.find((r) => r.to.includes('owner@people.example')), 'the code at the relay');
  const code = /verification code is (\d{6})/.exec(mail.mail.text ?? '')![1]!;

  // Holding only the temporary key, the server may verify and nothing else.
  const early: any = await call('list_inboxes');
  assert.equal(early.isError, true);
  assert.equal(json(early).code, 'forbidden_scope');

  const wrong: any = await call('verify_signup', { code: code === '000000' ? '111111' : '000000' });
  assert.equal(wrong.isError, true);
  assert.equal(json(wrong).code, 'bad_request');

  const verified = json(await call('verify_signup', { code }));
  assert.match(verified.agent_key, /^pk_agent_/);
  assert.equal(verified.inbox_address, signed.inbox_address);
  assert.deepEqual(verified.quickstart.map((q: any) => q.name), ['read_messages', 'get_message', 'wait_for_email']);
  const me = json(await call('whoami'));
  assert.equal(me.agent_id, signed.agent_id);
  assert.equal(me.key_id, verified.key_id, 'the server carries on with the durable key');

  const since = new Date(Date.now() - 1000).toISOString();
  await sendMail(svc, { from: 'friend@example.com', to: verified.inbox_address, subject: 'First mail', text: 'Welcome aboard' });
  const waited = json(await call('wait_for_email', { inbox_id: verified.inbox_id, timeout_seconds: 20, since }));
  assert.equal(waited.message.subject, 'First mail');
  const listed = json(await call('read_messages', { inbox_id: verified.inbox_id }));
  assert.equal(listed.data.length, 1);
  const message = json(await call('get_message', { message_id: listed.data[0].id }));
  assert.match(message.text, /Welcome aboard/);

  assert.ok(!logs.join('').includes(code), 'the code is in no log line');

  // The person behind the address signs in to the console (the development identity provider
  // vouches for the email) and claims what the agent created.
  const env = { ...process.env, DATABASE_URL: svc.databaseUrl, DATA_DIR: svc.config.dataDir, LOG_LEVEL: 'silent' };
  const minted = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'bin/agent-inbox.ts', 'console-token', '--email', 'owner@people.example', '--json'], { env });
  const person = JSON.parse(minted.stdout).console_token as string;
  const claimable = await svc.api.get('/v1/admin/claims', person);
  assert.equal(claimable.status, 200);
  assert.deepEqual(claimable.body.items.map((c: any) => c.agent_id), [signed.agent_id]);
  const claimed = await svc.api.post('/v1/admin/claims', { signup_id: claimable.body.items[0].signup_id }, person);
  assert.equal(claimed.status, 201, claimed.text);
  assert.equal(claimed.body.role, 'owner');
  const agents = await svc.api.get(`/v1/admin/orgs/${verified.org_id}/projects/${verified.project_id}/agents`, person);
  assert.equal(agents.status, 200);
  assert.deepEqual(agents.body.items.map((a: any) => [a.id, a.handle]), [[signed.agent_id, 'helper']]);
  const inboxes = await svc.api.get(`/v1/admin/orgs/${verified.org_id}/projects/${verified.project_id}/inboxes`, person);
  assert.deepEqual(inboxes.body.data.map((i: any) => i.address), [verified.inbox_address]);
});

test('the HTTP /mcp endpoint still refuses a request with no bearer', async () => {
  const r = await fetch(`${svc.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'sign_up', arguments: { email: 'x@people.example' } } }),
  });
  assert.equal(r.status, 401);
});
