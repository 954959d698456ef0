#!/usr/bin/env -S node --import tsx
// The one command line: run the service (all roles, or one), and the operator's tools.
import { parseArgs } from 'node:util';
import { issueEnrollmentToken } from '../actors/enrollment.ts';
import { createOrgWithOwner } from '../actors/tenancy.ts';
import { ConfigError, PLAN_TIERS, loadConfig, type Config, type PlanTier } from '../service/config.ts';
import { createIdentityProvider } from '../service/identity.ts';
import { createLogger } from '../service/logger.ts';
import { ROLES, openDatabase, startService, type Role } from '../service/start.ts';
import { createPool, type Pool } from '../storage/db.ts';
import { migrate } from '../storage/migrate.ts';

const USAGE = `usage: agent-inbox <command>

  start [--role api|smtp|worker ...]     run the service (every role unless named)
  bootstrap [--json] [--email E] [--name N] [--plan P]
                                         create an org, project, owner, console token and enrollment token
  console-token --email E [--json]       mint a console session token (development identity provider)
`;

async function withDatabase<T>(config: Config, fn: (db: Pool) => Promise<T>): Promise<T> {
  const log = createLogger(process.env.LOG_LEVEL ?? 'warn');
  const { url, embedded } = await openDatabase(config, log);
  const db = createPool(url, log, 2);
  try {
    await migrate(db);
    return await fn(db);
  } finally {
    await db.end();
    await embedded?.stop();
  }
}

async function mintConsoleToken(config: Config, email: string): Promise<string> {
  const identity = await createIdentityProvider(config);
  if (!identity.mint) {
    throw new Error('console tokens come from the identity provider at CONSOLE_JWKS_URL; this service only mints them when none is configured');
  }
  return identity.mint(email, 30 * 24 * 3600);
}

function print(json: boolean, value: Record<string, unknown>): void {
  if (json) console.log(JSON.stringify(value, null, 2));
  else for (const [k, v] of Object.entries(value)) console.log(`${k}: ${v}`);
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const config = loadConfig();
  switch (command) {
    case 'start': {
      const { values } = parseArgs({ args: rest, options: { role: { type: 'string', multiple: true } } });
      const roles = (values.role ?? [...ROLES]) as Role[];
      const bad = roles.find((r) => !ROLES.includes(r));
      if (bad) throw new ConfigError(`--role must be one of ${ROLES.join(', ')}, got "${bad}"`);
      const service = await startService(config, { roles });
      const shutdown = async () => {
        await service.stop();
        process.exit(0);
      };
      process.once('SIGINT', shutdown);
      process.once('SIGTERM', shutdown);
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
      const { values } = parseArgs({ args: rest, options: { email: { type: 'string' }, json: { type: 'boolean' } } });
      if (!values.email) throw new ConfigError('--email is required');
      const token = await mintConsoleToken(config, values.email);
      print(values.json === true, { email: values.email.toLowerCase(), console_token: token });
      return 0;
    }
    default:
      process.stderr.write(USAGE);
      return command ? 2 : 0;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err) => {
    process.stderr.write(`agent-inbox: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(err instanceof ConfigError ? 2 : 1);
  },
);
