// The one command line: run the service (all roles, or one), and the operator's tools.
// The usage text and the dispatch are here; the commands themselves (bin/commands.ts, which loads
// the whole service) are imported only to run one, so --help and --version answer at once.
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, PROJECT_ROOT, loadConfig } from '../service/config.ts';

// One entry per command: its usage line(s) and what it does, for `--help` and the command list.
const COMMANDS: Record<string, { usage: string; about: string }> = {
  start: { usage: 'start [--role api|smtp|worker ...]', about: 'run the service (every role unless named)' },
  bootstrap: {
    usage: 'bootstrap [--json] [--email E] [--name N] [--plan P]',
    about: 'create an org, project, owner, console token and enrollment token',
  },
  'console-token': {
    usage: 'console-token --email E [--json]\nconsole-token --email E --link [--json]\nconsole-token --email E --open [--json]',
    about:
      'mint a console session token, or with --link a one-time sign-in link to the web console (development identity provider); --open prints the link and opens it in the system browser (xdg-open, open or start)',
  },
  snapshot: { usage: 'snapshot <id>', about: "a machine's persisted snapshot, version, state, transitions and legal verbs (JSON)" },
  machines: { usage: 'machines --mermaid', about: 'the state diagrams, generated from the machine definitions' },
  outbox: {
    usage: 'outbox [--limit N] [--json]\noutbox <id> --raw',
    about: 'mail kept for other domains when no SMTP_URL relay is configured; with an id, one message as sent (message/rfc822)',
  },
  reconcile: {
    usage: 'reconcile --list [--json]\nreconcile <review_id> --delivered|--failed [--reason R]',
    about: "list the sends parked with an unknown outcome, or resolve one after checking the relay's log",
  },
  plan: {
    usage: 'plan --org ORG --tier free|developer|startup|enterprise [--json]',
    about: "change an org's plan (test payment mode) and print its limits and this month's usage",
  },
  signup: {
    usage: 'signup --enable|--disable\nsignup --status',
    about: 'open or close self-signup for every process (SIGNUP_ENABLED is the default until set), or show it',
  },
  reviews: {
    usage: [
      'reviews list [--state S,S] [--inbox I] [--agent A] [--limit N] [--cursor C] [--json]',
      'reviews show <review_id> [--json]',
      'reviews approve <review_id> --revision N [--feedback F] [--json]',
      'reviews reject <review_id> --revision N [--feedback F] [--json]',
      'reviews edit <review_id> --revision N [--text T | --text-file F] [--subject S] [--feedback F] [--json]',
      'reviews chat <review_id> --revision N --message M [--json]',
    ].join('\n'),
    about:
      'the human review queue on the console plane, as the web console has it: AGENT_INBOX_CONSOLE_TOKEN (or --token) and AGENT_INBOX_URL (or --url, default PUBLIC_BASE_URL); --project (and --org) when the token reaches several projects. A decision is made on the revision given, as show prints it; a review that moved on answers 409, with its current revision, and exits 1',
  },
  mcp: {
    usage: 'mcp --stdio\nmcp --http [--port P]',
    about: 'the MCP server over stdio (AGENT_INBOX_URL, AGENT_INBOX_API_KEY), or as its own process over Streamable HTTP (default port 8081)',
  },
};

const USAGE = `usage: agent-inbox <command> [options]

commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(15)} ${c.about}`)
  .join('\n')}

  agent-inbox <command> --help    a command's options
  agent-inbox --version           the installed version

Configuration is read from the environment (see the README); with no DATABASE_URL, commands use the
embedded PostgreSQL in DATA_DIR (default: .data in the agent-inbox folder).
`;

function commandHelp(name: string): string {
  const c = COMMANDS[name]!;
  return `usage: ${c.usage.split('\n').map((u) => `agent-inbox ${u}`).join('\n       ')}\n\n${c.about}\n`;
}

function version(): string {
  return (JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) {
    process.stderr.write(USAGE);
    return 2;
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command === '--version' || command === '-v' || command === 'version') {
    console.log(version());
    return 0;
  }
  if (!Object.hasOwn(COMMANDS, command)) {
    process.stderr.write(`agent-inbox: unknown command "${command}"\n\n${USAGE}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(commandHelp(command));
    return 0;
  }
  if (command === 'reviews') {
    // An HTTP client of the running service: it needs none of the service's own modules.
    const { runReviews } = await import('./reviews.ts');
    return runReviews(rest, loadConfig());
  }
  const { runCommand } = await import('./commands.ts');
  return runCommand(command, rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err) => {
    process.stderr.write(`agent-inbox: ${err instanceof Error ? err.message : String(err)}\n`);
    // A wrong command line (parseArgs: unknown option, missing value) is a usage error, like a bad value.
    const usage = err instanceof ConfigError || String((err as { code?: string }).code).startsWith('ERR_PARSE_ARGS');
    process.exit(usage ? 2 : 1);
  },
);
