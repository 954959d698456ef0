// `agent-inbox reviews ...`: the human review queue in a terminal, on the console plane's public API
// (what the web console calls), so the service enforces every rule. A decision names the revision
// the human read (`--revision`, as `list` and `show` print it) and is sent as `parent_revision`:
// when the agent revised the draft since, the service answers 409 and nothing is decided.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import type { components } from '@agent-inbox/sdk';
import { ConfigError, type Config } from '../service/config.ts';

type Review = components['schemas']['Review'];
type ConsoleReview = components['schemas']['ConsoleReview'];
type Address = components['schemas']['Address'];
// problem+json; a few console answers (a 401) use the older `{ error, message }` envelope.
type Problem = { code?: string; title?: string; detail?: string; error?: string; message?: string };

/** The queue proper, as the console lists it; `--state` names others (comma-separated). */
const QUEUE_STATES = 'needs_review,in_review,chatting';
const DECISIONS = ['approve', 'reject', 'edit', 'chat'] as const;

class ApiError extends Error {
  constructor(readonly status: number, readonly problem: Problem) {
    super(problem.detail ?? problem.message ?? problem.title ?? `HTTP ${status}`);
  }
}

type Console = { get(path: string): Promise<any>; post(path: string, body: unknown): Promise<any> };

function consoleClient(baseUrl: string, token: string): Console {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(new URL(path, baseUrl), {
      method,
      headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? null : JSON.stringify(body),
    }).catch((err: Error) => {
      throw new Error(`cannot reach the service at ${baseUrl} (${err.message}); set AGENT_INBOX_URL or --url`);
    });
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : undefined;
    if (!res.ok) throw new ApiError(res.status, parsed && typeof parsed === 'object' ? parsed : { detail: text });
    return parsed;
  };
  return { get: (path) => call('GET', path), post: (path, body) => call('POST', path, body) };
}

/** The project the reviews live in: the one `--project` (and `--org`) names, or the caller's only one. */
async function projectBase(api: Console, org: string | undefined, project: string | undefined): Promise<string> {
  if (org && project) return `/v1/admin/orgs/${encodeURIComponent(org)}/projects/${encodeURIComponent(project)}`;
  const me: { orgs: { id: string; projects: { id: string }[] }[] } = await api.get('/v1/admin/me');
  const choices = me.orgs
    .filter((o) => !org || o.id === org)
    .flatMap((o) => o.projects.filter((p) => !project || p.id === project).map((p) => ({ org: o.id, project: p.id })));
  if (choices.length === 1) return projectBase(api, choices[0]!.org, choices[0]!.project);
  if (choices.length === 0) throw new ConfigError('this console token reaches no such project; check --org and --project');
  throw new ConfigError(`this console token reaches several projects; name one with --project:\n${choices.map((c) => `  --project ${c.project}  (org ${c.org})`).join('\n')}`);
}

const who = (a: Address) => (a.name ? `${a.name} <${a.email}>` : a.email);
const line = (r: Review) =>
  `${r.id}  ${r.state.padEnd(12)}  revision ${r.revision}  to ${r.draft.to.map(who).join(', ') || '-'}  ${JSON.stringify(r.draft.subject ?? '')}`;

function describe(r: ConsoleReview): string {
  const out = [
    `review ${r.id}: ${r.state}, revision ${r.revision}`,
    `inbox: ${r.inbox_id}  agent: ${r.agent_id}  route: ${r.route}`,
    `to: ${r.draft.to.map(who).join(', ')}`,
    ...(r.draft.cc.length ? [`cc: ${r.draft.cc.map(who).join(', ')}`] : []),
    `subject: ${r.draft.subject ?? ''}`,
    `intent: ${r.intent?.summary ?? '-'}`,
    `allowed: ${r.allowed_actions.join(', ') || '-'}`,
    '',
    r.draft.text ?? '',
    '',
  ];
  for (const f of r.feedback_history ?? []) {
    const said = f.message ?? f.feedback ?? (f.diff ? f.diff.map((d) => `${d.field} edited`).join(', ') : '');
    out.push(`[${f.created_at}] ${f.kind} by ${f.author} on revision ${f.revision}${said ? `: ${said}` : ''}`);
  }
  // `chat` on a waiting review opens it first (runReviews), so `open` makes it available too.
  const verbs = DECISIONS.filter((d) => r.allowed_actions.includes(d) || (d === 'chat' && r.allowed_actions.includes('open')));
  if (verbs.length) out.push(`decide on this revision: agent-inbox reviews ${verbs.join('|')} ${r.id} --revision ${r.revision}`);
  return out.join('\n').replace(/\n{3,}/g, '\n\n');
}

function revisionOf(value: string | undefined, verb: string, id: string): number {
  if (value === undefined) throw new ConfigError(`reviews ${verb} needs --revision N, the revision you read (agent-inbox reviews show ${id} prints it)`);
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new ConfigError(`--revision must be a positive whole number, got "${value}"`);
  return n;
}

function decisionBody(verb: (typeof DECISIONS)[number], values: Record<string, string | boolean | undefined>): Record<string, unknown> {
  const feedback = typeof values.feedback === 'string' ? { feedback: values.feedback } : {};
  if (verb === 'chat') {
    if (typeof values.message !== 'string') throw new ConfigError('reviews chat needs --message M');
    return { action: 'chat', message: values.message };
  }
  if (verb === 'edit') {
    const text = typeof values['text-file'] === 'string' ? fs.readFileSync(values['text-file'] === '-' ? 0 : values['text-file'], 'utf8') : values.text;
    if (typeof text !== 'string' && typeof values.subject !== 'string') throw new ConfigError('reviews edit needs --text T, --text-file F or --subject S');
    return { action: 'edit', ...(typeof text === 'string' ? { text } : {}), ...(typeof values.subject === 'string' ? { subject: values.subject } : {}), ...feedback };
  }
  return { action: verb, ...feedback };
}

/** A 409: what moved, and where the review is now, so the human can read it again and decide. */
async function reportConflict(api: Console, base: string, id: string, err: ApiError, json: boolean): Promise<number> {
  const now: ConsoleReview | null = await api.get(`${base}/reviews/${encodeURIComponent(id)}`).catch(() => null);
  const where = now ? `it is now ${now.state} at revision ${now.revision} (allowed: ${now.allowed_actions.join(', ') || 'none'})` : 'it could not be read again';
  process.stderr.write(
    `agent-inbox: review ${id} was not decided: ${err.problem.code ?? 'conflict'} (409): ${err.message}\n` +
      `agent-inbox: ${where}; read it again with: agent-inbox reviews show ${id}\n`,
  );
  if (json) console.log(JSON.stringify({ problem: err.problem, review: now }, null, 2));
  return 1;
}

export async function runReviews(rest: string[], config: Config): Promise<number> {
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      json: { type: 'boolean' },
      url: { type: 'string' },
      token: { type: 'string' },
      org: { type: 'string' },
      project: { type: 'string' },
      state: { type: 'string' },
      inbox: { type: 'string' },
      agent: { type: 'string' },
      limit: { type: 'string' },
      cursor: { type: 'string' },
      revision: { type: 'string' },
      feedback: { type: 'string' },
      text: { type: 'string' },
      'text-file': { type: 'string' },
      subject: { type: 'string' },
      message: { type: 'string' },
    },
  });
  const [verb, id, extra] = positionals;
  if (!verb || !['list', 'show', ...DECISIONS].includes(verb)) throw new ConfigError(`reviews needs one of list, show, ${DECISIONS.join(', ')}`);
  if (verb !== 'list' && !id) throw new ConfigError(`reviews ${verb} needs a review id (rr_...)`);
  if (extra !== undefined) throw new ConfigError(`unexpected argument "${extra}"`);
  const token = values.token ?? process.env.AGENT_INBOX_CONSOLE_TOKEN;
  if (!token) throw new ConfigError('reviews needs a console token: set AGENT_INBOX_CONSOLE_TOKEN (agent-inbox console-token --email E prints one) or pass --token');
  const json = values.json === true;
  const api = consoleClient(values.url ?? process.env.AGENT_INBOX_URL ?? config.publicBaseUrl, token);

  try {
    const base = await projectBase(api, values.org, values.project);
    if (verb === 'list') {
      const q = new URLSearchParams({ state: values.state ?? QUEUE_STATES, limit: values.limit ?? '50' });
      if (values.inbox) q.set('inbox_id', values.inbox);
      if (values.agent) q.set('agent_id', values.agent);
      if (values.cursor) q.set('cursor', values.cursor);
      const page: components['schemas']['ReviewList'] = await api.get(`${base}/reviews?${q}`);
      if (json) console.log(JSON.stringify(page, null, 2));
      else for (const r of page.data) console.log(line(r));
      if (!json && page.has_more && page.next_cursor) process.stderr.write(`agent-inbox: more with --cursor ${page.next_cursor}\n`);
      return 0;
    }
    const path = `${base}/reviews/${encodeURIComponent(id!)}`;
    if (verb === 'show') {
      const review: ConsoleReview = await api.get(path);
      console.log(json ? JSON.stringify(review, null, 2) : describe(review));
      return 0;
    }
    const decision = verb as (typeof DECISIONS)[number];
    const revision = revisionOf(values.revision, decision, id!);
    const body = decisionBody(decision, values);
    try {
      // A human chats on an open review: one still waiting is opened first, as the console does.
      if (decision === 'chat') {
        const now: Review = await api.get(path);
        if (now.state === 'needs_review') await api.post(`${path}/decision`, { action: 'open', parent_revision: revision });
      }
      const after: Review = await api.post(`${path}/decision`, { ...body, parent_revision: revision });
      if (json) console.log(JSON.stringify(after, null, 2));
      else console.log(`${decision}: review ${after.id} is ${after.state} (revision ${after.revision})`);
      return 0;
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) return reportConflict(api, base, id!, err, json);
      throw err;
    }
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    process.stderr.write(`agent-inbox: ${err.problem.code ?? err.problem.error ?? 'error'} (${err.status}): ${err.message}\n`);
    if (json) console.log(JSON.stringify({ problem: err.problem }, null, 2));
    return 1;
  }
}
