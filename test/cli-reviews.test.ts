// `agent-inbox reviews ...` against a running service, as a human in a terminal uses it: a console
// token in the environment, the queue listed, a review read, and decisions made on the revision read.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from '../testkit/test.ts';
import { createTenant, startTestService } from '../testkit/service.ts';
import { INTENT, agentWithInbox } from './reviews/setup.ts';

const svc = await startTestService({ roles: ['api'] });
const tenant = await createTenant(svc);
const agent = await agentWithInbox(svc, tenant);
const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;
const env = { PATH: process.env.PATH!, AGENT_INBOX_URL: svc.url, AGENT_INBOX_CONSOLE_TOKEN: tenant.consoleToken, LOG_LEVEL: 'silent' };

type Ran = { code: number; stdout: string; stderr: string };

/** Runs the CLI as a user's shell does, with only the given environment; never throws on an exit code. */
function cli(args: string[], extraEnv: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'bin/agent-inbox.ts', 'reviews', ...args], { env: { ...env, ...extraEnv } }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

async function queued(subject: string): Promise<string> {
  const r = await agent.send({ to: 'Dana <dana@acme.example>', subject, text: `${subject}: Tuesday 10:00 works.`, intent: INTENT });
  assert.equal(r.status, 202, r.text);
  return r.body.review_id;
}

const consoleReview = async (id: string) => (await svc.api.get(`${A}/reviews/${id}`, tenant.consoleToken)).body;

test('list prints the queue with each review\'s revision, show prints the draft, its revision and how to decide on it', async () => {
  const id = await queued('Listed demo');
  const list = await cli(['list']);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, new RegExp(`^${id}\\s+needs_review\\s+revision 1\\s+to Dana <dana@acme\\.example>\\s+"Listed demo"$`, 'm'));

  const page = JSON.parse((await cli(['list', '--json'])).stdout);
  assert.ok(page.data.some((r: { id: string; revision: number }) => r.id === id && r.revision === 1));

  const show = await cli(['show', id]);
  assert.equal(show.code, 0, show.stderr);
  assert.match(show.stdout, new RegExp(`^review ${id}: needs_review, revision 1$`, 'm'));
  assert.match(show.stdout, /^subject: Listed demo$/m);
  assert.match(show.stdout, /^Listed demo: Tuesday 10:00 works\.$/m);
  assert.match(show.stdout, new RegExp(`^intent: ${INTENT.summary}$`, 'm'));
  assert.match(show.stdout, new RegExp(`^decide on this revision: agent-inbox reviews approve\\|reject\\|edit\\|chat ${id} --revision 1$`, 'm'));

  const json = JSON.parse((await cli(['show', id, '--json'])).stdout);
  assert.equal(json.id, id);
  assert.equal(json.revision, 1);
  assert.deepEqual(json.feedback_history, []);
});

test('approve --revision decides the revision read: the review is approved, recorded as the token\'s human', async () => {
  const id = await queued('Approve me');
  const r = await cli(['approve', id, '--revision', '1', '--feedback', 'Good to go.']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), `approve: review ${id} is approved (revision 1)`);
  const review = await consoleReview(id);
  assert.equal(review.state, 'approved');
  assert.deepEqual(review.feedback_history.map((f: any) => [f.kind, f.author, f.revision, f.feedback, f.author_email]), [['approve', 'human', 1, 'Good to go.', tenant.email]]);
});

test('a decision on a review that moved on answers 409 stale with the current revision, exits 1 and decides nothing; on the new revision it goes through', async () => {
  const id = await queued('Moving target');
  const revised = await svc.api.post(`/v1/reviews/${id}/revisions`, { parent_revision: 1, text: 'A revised draft.' }, agent.key);
  assert.equal(revised.status, 200, revised.text);
  assert.equal(revised.body.revision, 2);

  const stale = await cli(['reject', id, '--revision', '1', '--feedback', 'Too pushy.']);
  assert.equal(stale.code, 1, stale.stderr);
  assert.match(stale.stderr, new RegExp(`review ${id} was not decided: stale \\(409\\)`));
  assert.match(stale.stderr, /it is now needs_review at revision 2 \(allowed: [^)]*reject/);
  assert.match(stale.stderr, new RegExp(`agent-inbox reviews show ${id}`));
  const untouched = await consoleReview(id);
  assert.equal(untouched.state, 'needs_review');
  assert.deepEqual(untouched.feedback_history, []);

  const asJson = await cli(['approve', id, '--revision', '1', '--json']);
  assert.equal(asJson.code, 1);
  const out = JSON.parse(asJson.stdout);
  assert.equal(out.problem.code, 'stale');
  assert.equal(out.review.revision, 2);
  assert.equal((await consoleReview(id)).state, 'needs_review');

  const rejected = await cli(['reject', id, '--revision', '2', '--feedback', 'Too pushy.', '--json']);
  assert.equal(rejected.code, 0, rejected.stderr);
  assert.equal(JSON.parse(rejected.stdout).state, 'rejected');
  const events = (await agent.drain(`?review_id=${id}`)).map((e: any) => [e.type, e.revision]);
  assert.deepEqual(events.at(-1), ['review.rejected', 2]);
});

test('edit replaces the text and subject of the revision read; chat opens a waiting review and posts the message', async () => {
  const edited = await queued('Edit me');
  const e = await cli(['edit', edited, '--revision', '1', '--subject', 'Tuesday demo', '--text', 'Tuesday 10:00 works. See you then!']);
  assert.equal(e.code, 0, e.stderr);
  const after = await consoleReview(edited);
  assert.equal(after.state, 'edited');
  assert.equal(after.draft.subject, 'Tuesday demo');
  assert.equal(after.draft.text, 'Tuesday 10:00 works. See you then!');
  assert.equal(after.feedback_history[0].kind, 'edit');

  const chatted = await queued('Chat about me');
  const c = await cli(['chat', chatted, '--revision', '1', '--message', 'Which timezone?']);
  assert.equal(c.code, 0, c.stderr);
  const now = await consoleReview(chatted);
  assert.equal(now.state, 'chatting');
  assert.deepEqual(now.feedback_history.map((f: any) => [f.kind, f.message]), [['chat', 'Which timezone?']]);
});

test('a decision without --revision, or no console token, is a usage error (exit 2) that says what to give; nothing is decided', async () => {
  const id = await queued('No revision');
  const bare = await cli(['approve', id]);
  assert.equal(bare.code, 2);
  assert.match(bare.stderr, new RegExp(`needs --revision N.*agent-inbox reviews show ${id}`));
  const anonymous = await cli(['list'], { AGENT_INBOX_CONSOLE_TOKEN: '' });
  assert.equal(anonymous.code, 2);
  assert.match(anonymous.stderr, /AGENT_INBOX_CONSOLE_TOKEN/);
  assert.equal((await consoleReview(id)).state, 'needs_review');
});

test('a review outside the token\'s project is not found (exit 1), and a wrong token is refused (exit 1)', async () => {
  const missing = await cli(['show', 'rr_nosuchreview']);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /\(404\)/);
  const wrong = await cli(['list'], { AGENT_INBOX_CONSOLE_TOKEN: 'not-a-token' });
  assert.equal(wrong.code, 1);
  assert.match(wrong.stderr, /\(401\)/);
});

// Last: it gives the tenant a second project, which the tests above do not expect.
test('a token that reaches several projects is told to name one (exit 2, listing them); --project alone picks it', async () => {
  const id = await queued('Second project');
  const other = await svc.api.post(`/v1/admin/orgs/${tenant.orgId}/projects`, { name: 'Other' }, tenant.consoleToken);
  assert.equal(other.status, 201, other.text);
  const ambiguous = await cli(['list']);
  assert.equal(ambiguous.code, 2);
  assert.match(ambiguous.stderr, new RegExp(`--project ${tenant.projectId}\\b`));
  assert.match(ambiguous.stderr, new RegExp(`--project ${other.body.id}\\b`));
  const named = await cli(['list', '--project', tenant.projectId]);
  assert.equal(named.code, 0, named.stderr);
  assert.match(named.stdout, new RegExp(`^${id}\\s`, 'm'));
  const elsewhere = await cli(['list', '--project', other.body.id]);
  assert.equal(elsewhere.code, 0, elsewhere.stderr);
  assert.equal(elsewhere.stdout, '');
});
