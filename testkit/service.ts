// The whole service started in-process on a fresh database, as `npm start` runs it.
import { after } from './test.ts';
import { ORG_OWNER } from '../machines/policy/console-roles.ts';
import { issueEnrollmentToken } from '../actors/enrollment.ts';
import { createOrgWithOwner } from '../actors/tenancy.ts';
import { loadConfig, type Config } from '../service/config.ts';
import type { Logger } from '../service/logger.ts';
import { startService, type Role, type RunningService } from '../roles/start.ts';
import { randomToken } from '../storage/ids.ts';
import { createTestDatabase } from './db.ts';
import { client, type Client } from './http.ts';
import { assertNothingLeft, owned } from './leftovers.ts';
import { scratchDir } from './scratch.ts';

export type TestService = RunningService & { url: string; api: Client; config: Config; databaseUrl: string; owner: { name: string } };

export async function testConfig(env: Record<string, string> = {}): Promise<Config> {
  const dataDir = scratchDir('test');
  return loadConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: '0',
    DATA_DIR: dataDir,
    INBOX_DOMAIN: 'agents.test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    // Nothing listens on port 9 of loopback: inbound verdicts get a refusal at once (temperror)
    // instead of asking the machine's resolver about the internet. Tests of DNS set their own.
    DNS_SERVERS: '127.0.0.1:9',
    // Review notifications are mail of their own: tests that count what a relay or outbox got turn them on.
    REVIEW_NOTIFICATIONS: 'false',
    ...env,
  });
}

/**
 * Starts every role (or those named) on a new database; stopped and dropped after the file.
 * Pass `databaseUrl` to start a second process on the same database.
 */
export async function startTestService(
  opts: { env?: Record<string, string>; roles?: Role[]; databaseUrl?: string; config?: Config; log?: Logger } = {},
): Promise<TestService> {
  const created = opts.databaseUrl ? null : await createTestDatabase();
  const databaseUrl = opts.databaseUrl ?? created!.url;
  const config = opts.config ?? (await testConfig(opts.env));
  const owner = { name: `the service with roles ${(opts.roles ?? ['all']).join(', ')}` };
  const running = await owned(owner, () => startService(config, { roles: opts.roles, databaseUrl, log: opts.log }));
  const url = running.httpUrl ?? '';
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await running.stop();
    try {
      // Anything left running would keep this test process from exiting.
      await assertNothingLeft(owner);
    } finally {
      await created?.drop();
    }
  };
  after(stop);
  return { ...running, stop, url, api: client(url), config, databaseUrl, owner };
}

export type Tenant = {
  orgId: string;
  projectId: string;
  email: string;
  consoleToken: string;
  enrollmentToken: string;
  /** Redeems the enrollment token over HTTP for a new agent. */
  enroll(handle?: string): Promise<{ agentKey: string; agentId: string; keyId: string }>;
};

/** An org with an owner, a project and a reusable enrollment token, as `bootstrap` makes them. */
export async function createTenant(svc: TestService, opts: { email?: string; plan?: string } = {}): Promise<Tenant> {
  const email = opts.email ?? `owner-${randomToken(6)}@example.com`;
  const { org, project } = await createOrgWithOwner(svc.services.db, { name: 'Test org', owner_email: email, plan_tier: opts.plan ?? 'free' });
  const { raw } = await issueEnrollmentToken(svc.services.db, {
    issuer: ORG_OWNER,
    org_id: org.id,
    project_id: project.id,
    reusable: true,
    created_by: email,
    now: new Date(),
  });
  const consoleToken = await svc.services.identity.mint!(email);
  return {
    orgId: org.id,
    projectId: project.id,
    email,
    consoleToken,
    enrollmentToken: raw,
    async enroll(handle = `agent-${randomToken(6)}`) {
      const r = await svc.api.post('/v1/enroll', { token: raw, agent_handle: handle });
      if (r.status !== 201 && r.status !== 200) throw new Error(`enroll failed: ${r.status} ${r.text}`);
      return { agentKey: r.body.agent_key, agentId: r.body.agent_id, keyId: r.body.key_id };
    },
  };
}
