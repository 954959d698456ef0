// The commands of bin/agent-inbox.ts: run the service (all roles, or one), and the operator's tools.
import http from 'node:http';
import { parseArgs } from 'node:util';
import { ORG_OWNER } from '../machines/policy/console-roles.ts';
import { reconcileDelivery, type DeliveryDeps } from '../actors/delivery.ts';
import { createSignInLink } from '../actors/console-sessions.ts';
import { issueEnrollmentToken } from '../actors/enrollment.ts';
import { findOutbox, listOutbox, machineDiagrams, machineSnapshot, parkedDeliveries } from '../actors/operators.ts';
import { signupGateOpen } from '../actors/signup.ts';
import { billingSummary, changePlan } from '../actors/billing.ts';
import { createOrgWithOwner } from '../actors/tenancy.ts';
import { jobsSwitchedOff } from '../actors/jobs.ts';
import { PLAN_TIERS, type PlanTier } from '../machines/policy/plans.ts';
import { ConfigError, loadConfig, type Config } from '../service/config.ts';
import { findOrg } from '../storage/tenancy.ts';
import { openInBrowser } from './open-url.ts';
import { createIdentityProvider } from '../service/identity.ts';
import { createLogger, type Logger } from '../service/logger.ts';
import { ROLES, describeDatabase, openDatabase, startService, type Role } from '../roles/start.ts';
import { openJobQueue } from '../roles/workers.ts';
import { createPool, endPool, type Pool } from '../storage/db.ts';
import { takeOverStopSignals } from '../storage/embedded.ts';
import { migrate } from '../storage/migrate.ts';
import { writeSignupGate } from '../storage/signups.ts';

/** Operator commands say which database they work on, on stderr, so stdout stays the answer. */
function announceDatabase(config: Config): void {
  const where = config.databaseUrl
    ? `the PostgreSQL at DATABASE_URL (${describeDatabase(config.databaseUrl)})`
    : `the embedded PostgreSQL in ${config.dataDir}`;
  process.stderr.write(`agent-inbox: using ${where}\n`);
}

async function withDatabase<T>(config: Config, fn: (db: Pool, opened: { url: string; log: Logger }) => Promise<T>): Promise<T> {
  announceDatabase(config);
  const log = createLogger(process.env.LOG_LEVEL ?? 'warn', undefined, config.logPretty);
  const { url, embedded } = await openDatabase(config, log);
  const db = createPool(url, log, 2);
  try {
    await migrate(db);
    return await fn(db, { url, log });
  } finally {
    await endPool(db);
    await embedded?.stop();
  }
}

/** The database and the job queue, for commands that move a machine (its effects enqueue jobs). */
function withQueue<T>(config: Config, fn: (deps: DeliveryDeps) => Promise<T>): Promise<T> {
  return withDatabase(config, async (db, { url, log }) => {
    const queue = await openJobQueue(db, url, log, jobsSwitchedOff(config));
    try {
      return await fn({ db, queue, config, log });
    } finally {
      await queue.stop();
    }
  });
}

async function mintConsoleToken(config: Config, email: string): Promise<string> {
  if (!config.consoleJwksUrl) process.stderr.write(`agent-inbox: signing with the development key in ${config.dataDir}\n`);
  const identity = await createIdentityProvider(config);
  if (!identity.mint) {
    throw new Error('console tokens come from the identity provider at CONSOLE_JWKS_URL; this service only mints them when none is configured');
  }
  // The longest a console session may live (service/identity.ts); mint another when it ends.
  return identity.mint(email);
}

function print(json: boolean, value: Record<string, unknown>): void {
  if (json) console.log(JSON.stringify(value, null, 2));
  else for (const [k, v] of Object.entries(value)) console.log(`${k}: ${v}`);
}

/** Runs one command; the exit code, or -1 for a command that keeps running (start, mcp). */
export async function runCommand(command: string, rest: string[]): Promise<number> {
  const config = loadConfig();
  switch (command) {
    case 'start': {
      const { values } = parseArgs({ args: rest, options: { role: { type: 'string', multiple: true } } });
      const roles = (values.role ?? [...ROLES]) as Role[];
      const bad = roles.find((r) => !ROLES.includes(r));
      if (bad) throw new ConfigError(`--role must be one of ${ROLES.join(', ')}, got "${bad}"`);
      // Taken over before anything starts: a signal during start-up waits for the start to finish
      // and then stops in order, rather than the embedded database stopping on its own at once.
      takeOverStopSignals();
      const starting = startService(config, { roles });
      const shutdown = async () => {
        const service = await starting.catch(() => null);
        if (!service) return; // the failed start is reported by main's caller
        await service.stop();
        service.services.log.info('stopped');
        process.exit(0);
      };
      process.once('SIGINT', shutdown);
      process.once('SIGTERM', shutdown);
      await starting;
      return -1; // keep running
    }
    case 'bootstrap': {
      const { values } = parseArgs({
        args: rest,
        options: { json: { type: 'boolean' }, email: { type: 'string' }, name: { type: 'string' }, plan: { type: 'string' } },
      });
      const plan = (values.plan ?? config.defaultPlan) as PlanTier;
      if (!PLAN_TIERS.includes(plan)) throw new ConfigError(`--plan must be one of ${PLAN_TIERS.join(', ')}`);
      const email = (values.email ?? `owner@${config.inboxDomain}`).toLowerCase();
      const out = await withDatabase(config, async (db) => {
        const { org, project } = await createOrgWithOwner(db, { name: values.name ?? 'My org', owner_email: email, plan_tier: plan });
        const { raw } = await issueEnrollmentToken(db, {
          issuer: ORG_OWNER,
          org_id: org.id,
          project_id: project.id,
          label: 'bootstrap',
          reusable: true,
          created_by: email,
          now: new Date(),
        });
        return { org_id: org.id, project_id: project.id, email, console_token: await mintConsoleToken(config, email), enrollment_token: raw };
      });
      print(values.json === true, out);
      return 0;
    }
    case 'console-token': {
      const { values } = parseArgs({
        args: rest,
        options: { email: { type: 'string' }, json: { type: 'boolean' }, link: { type: 'boolean' }, open: { type: 'boolean' } },
      });
      if (!values.email) throw new ConfigError('--email is required');
      if (values.link || values.open) {
        const email = values.email;
        const identity = await createIdentityProvider(config);
        const link = await withDatabase(config, (db) => createSignInLink(db, identity, { email, baseUrl: config.publicBaseUrl, now: new Date() }));
        print(values.json === true, { email: email.toLowerCase(), sign_in_link: link.url, expires_at: link.expires_at.toISOString() });
        if (values.open) {
          // Printed first, so the link is there whatever the browser does; the outcome goes to stderr.
          const outcome = await openInBrowser(link.url);
          if ('opened' in outcome) process.stderr.write(`agent-inbox: opened the sign-in link with ${outcome.opened}\n`);
          else process.stderr.write(`agent-inbox: could not open a browser (${outcome.failed}); open the sign-in link above yourself\n`);
        }
        return 0;
      }
      const token = await mintConsoleToken(config, values.email);
      print(values.json === true, { email: values.email.toLowerCase(), console_token: token });
      return 0;
    }
    case 'snapshot': {
      const id = rest[0];
      if (!id) throw new ConfigError('snapshot needs a machine id, such as rr_...');
      const found = await withDatabase(config, (db) => machineSnapshot(db, id));
      if (!found) {
        process.stderr.write(`agent-inbox: no machine ${id}\n`);
        return 1;
      }
      console.log(JSON.stringify(found, null, 2));
      return 0;
    }
    case 'machines': {
      const { values } = parseArgs({ args: rest, options: { mermaid: { type: 'boolean' } } });
      if (!values.mermaid) throw new ConfigError('machines needs --mermaid');
      process.stdout.write(machineDiagrams());
      return 0;
    }
    case 'outbox': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: { raw: { type: 'boolean' }, json: { type: 'boolean' }, limit: { type: 'string' } },
      });
      if (positionals[0]) {
        const row = await withDatabase(config, (db) => findOutbox(db, positionals[0]!));
        if (!row) {
          process.stderr.write(`agent-inbox: no outbox message ${positionals[0]}\n`);
          return 1;
        }
        if (values.raw) process.stdout.write(row.raw);
        else print(values.json === true, { id: row.id, review_id: row.review_id, message_id: row.message_id, from: row.envelope_from, to: row.envelope_to.join(', '), subject: row.subject, created_at: row.created_at.toISOString() });
        return 0;
      }
      const rows = await withDatabase(config, (db) => listOutbox(db, { org_id: null, limit: Number(values.limit ?? 50) }));
      if (values.json) console.log(JSON.stringify(rows, null, 2));
      else for (const r of rows) console.log(`${r.created_at.toISOString()}  ${r.id}  ${r.envelope_from} -> ${r.envelope_to.join(', ')}  ${r.subject}`);
      return 0;
    }
    case 'reconcile': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: { delivered: { type: 'boolean' }, failed: { type: 'boolean' }, reason: { type: 'string' }, list: { type: 'boolean' }, json: { type: 'boolean' } },
      });
      if (values.list) {
        const rows = await withDatabase(config, (db) => parkedDeliveries(db));
        if (values.json) console.log(JSON.stringify(rows, null, 2));
        else if (rows.length === 0) console.log('no sends await reconciliation');
        else for (const r of rows) console.log(`${r.parked_since.toISOString()}  ${r.id}  ${r.org_id}/${r.project_id}  ${r.state}  -> ${r.to.join(', ')}  ${r.subject}`);
        return 0;
      }
      const id = positionals[0];
      if (!id || values.delivered === values.failed) throw new ConfigError('reconcile needs a review id and one of --delivered or --failed');
      const out = await withQueue(config, (deps) =>
        reconcileDelivery(deps, { review_id: id, outcome: values.delivered ? 'delivered' : 'failed', reason: values.reason }),
      );
      print(false, { review_id: id, ...out });
      return 0;
    }
    case 'signup': {
      const { values } = parseArgs({ args: rest, options: { enable: { type: 'boolean' }, disable: { type: 'boolean' }, status: { type: 'boolean' } } });
      const chosen = [values.enable, values.disable, values.status].filter(Boolean).length;
      if (chosen !== 1) throw new ConfigError('signup needs one of --enable, --disable or --status');
      const enabled = await withDatabase(config, async (db) => {
        if (!values.status) await writeSignupGate(db, values.enable === true);
        return signupGateOpen({ db, config });
      });
      print(false, { signup: enabled ? 'enabled' : 'disabled' });
      return 0;
    }
    case 'plan': {
      const { values } = parseArgs({ args: rest, options: { org: { type: 'string' }, tier: { type: 'string' }, json: { type: 'boolean' } } });
      if (!values.org || !values.tier) throw new ConfigError('plan needs --org ORG and --tier T');
      if (!(PLAN_TIERS as readonly string[]).includes(values.tier)) throw new ConfigError(`--tier must be one of ${PLAN_TIERS.join(', ')}`);
      const summary = await withDatabase(config, async (db) => {
        const org = await findOrg(db, values.org!);
        if (!org) return null;
        await changePlan(db, org.id, values.tier!);
        return billingSummary(db, config, org.id);
      });
      if (!summary) {
        process.stderr.write(`agent-inbox: no org ${values.org}\n`);
        return 1;
      }
      const p = summary.entitlements;
      print(values.json === true, {
        org_id: summary.org_id,
        plan_tier: summary.plan_tier,
        inbox_limit: p.inbox_limit,
        included_messages_monthly: p.included_messages_monthly,
        daily_message_cap: p.daily_message_cap,
        storage_bytes: p.storage_bytes,
        webhook_limit: p.webhook_limit,
        member_limit: p.member_limit,
        total_messages: summary.usage.total_messages,
      });
      return 0;
    }
    case 'mcp': {
      const { mcpHttpHandler, runStdio } = await import('@agent-inbox/mcp');
      const { values } = parseArgs({ args: rest, options: { stdio: { type: 'boolean' }, http: { type: 'boolean' }, port: { type: 'string' } } });
      const apiBaseUrl = process.env.AGENT_INBOX_URL || config.publicBaseUrl;
      if (values.stdio) {
        await runStdio({ apiBaseUrl, apiKey: process.env.AGENT_INBOX_API_KEY || undefined });
        return -1;
      }
      if (!values.http) throw new ConfigError('mcp needs --stdio or --http');
      const port = Number(values.port ?? 8081);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError('--port must be a port number');
      const handler = mcpHttpHandler({ apiBaseUrl });
      http.createServer((req, res) => {
        if (new URL(req.url ?? '/', 'http://x').pathname !== '/mcp') return void res.writeHead(404).end();
        void handler(req, res);
      }).listen(port, config.host, () => process.stderr.write(`MCP server on http://${config.host}:${port}/mcp for ${apiBaseUrl}\n`));
      return -1;
    }
    default:
      throw new Error(`${command} has no implementation`);
  }
}

