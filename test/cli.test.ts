import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { startTestService } from './helpers/service.ts';

const run = promisify(execFile);
const svc = await startTestService({ roles: ['api'] });
const env = { ...process.env, DATABASE_URL: svc.databaseUrl, DATA_DIR: svc.config.dataDir, LOG_LEVEL: 'silent' };
const cli = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'bin/agent-inbox.ts', ...args], { env });

test('bootstrap --json prints an org, project, owner, console token and enrollment token that the server accepts', async () => {
  const { stdout } = await cli('bootstrap', '--json', '--email', 'Ops@Example.com');
  const out = JSON.parse(stdout);
  assert.deepEqual(Object.keys(out).sort(), ['console_token', 'email', 'enrollment_token', 'org_id', 'project_id']);
  assert.equal(out.email, 'ops@example.com');
  const org = await svc.api.get(`/v1/admin/orgs/${out.org_id}`, out.console_token);
  assert.equal(org.status, 200);
  assert.equal(org.body.projects[0].id, out.project_id);
  const enrolled = await svc.api.post('/v1/enroll', { token: out.enrollment_token, agent_handle: 'cli-bot' });
  assert.equal(enrolled.status, 201);
  assert.equal(enrolled.body.project_id, out.project_id);
});

test('console-token mints a token for an email that works for that user\'s orgs', async () => {
  const boot = JSON.parse((await cli('bootstrap', '--json', '--email', 'second@example.com', '--plan', 'developer')).stdout);
  const { stdout } = await cli('console-token', '--email', 'second@example.com', '--json');
  const { console_token } = JSON.parse(stdout);
  const org = await svc.api.get(`/v1/admin/orgs/${boot.org_id}`, console_token);
  assert.equal(org.status, 200);
  assert.equal(org.body.plan_tier, 'developer');
});

test('a bad plan stops bootstrap with a message naming it', async () => {
  await assert.rejects(cli('bootstrap', '--plan', 'platinum'), (err: any) => err.code === 2 && /--plan/.test(err.stderr));
});

test('a bad environment value stops the start with a message naming the variable', async () => {
  await assert.rejects(
    run(process.execPath, ['--import', 'tsx', 'bin/agent-inbox.ts', 'start'], { env: { ...env, PORT: 'eighty' } }),
    (err: any) => err.code === 2 && /PORT/.test(err.stderr),
  );
});
