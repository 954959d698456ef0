// The examples run for real, as a reader would run them, against a started service: real SMTP
// brings the verification mail, a human decides on the console API, webhooks are really posted.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { after, test } from '../../testkit/test.ts';
import { sendMail } from '../../testkit/mail.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';

const svc = await startTestService();
const tenant = await createTenant(svc);
const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;

type Run = { child: ChildProcess; lines: string[]; output: () => string; exited: Promise<number | null> };

/** Runs an example as `npx tsx examples/NAME` does, with only the environment it documents. */
function runExample(file: string, env: Record<string, string>): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', file], { env: { PATH: process.env.PATH!, ...env } });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return {
    child,
    exited,
    get lines() {
      return out.split('\n').filter(Boolean);
    },
    output: () => `stdout:\n${out}\nstderr:\n${err}`,
  };
}

/** The example's exit code; fails the test rather than hanging when it does not end. */
async function exitOf(run: Run): Promise<number | null> {
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`the example did not exit; ${run.output()}`)), 30_000).unref());
  return Promise.race([run.exited, timeout]);
}

const line = (run: Run, pattern: RegExp, what: string) =>
  waitFor(() => run.lines.map((l) => pattern.exec(l)).find(Boolean), `${what}; ${run.output()}`, 30_000);

test('the agent example enrolls, reads the verification code, sends with an intent and follows the review to sent', async () => {
  const agent = runExample('examples/agent.ts', { AGENT_INBOX_URL: svc.url, ENROLLMENT_TOKEN: tenant.enrollmentToken, AGENT_HANDLE: 'example-agent' });

  const [, inboxId, address] = (await line(agent, /^inbox (\S+) (\S+@agents\.test)$/, 'the inbox address'))!;
  await sendMail(svc, { from: 'signup@service.example', to: address, subject: 'Confirm your account', text: 'Your verification code is 482913.' });
  await line(agent, /^code 482913$/, 'the extracted code');
  await line(agent, /^intent required, for example \{"summary":/, 'the intent_required answer with its example');
  const [, reviewId] = (await line(agent, /^queued (rr_\S+) queued_for_review$/, 'the review id'))!;

  const approved = await svc.api.post(`${A}/reviews/${reviewId}/decision`, { action: 'approve' }, tenant.consoleToken);
  assert.equal(approved.status, 200, approved.text);
  assert.equal(await exitOf(agent), 0, agent.output());

  const events = agent.lines.filter((l) => l.startsWith('event ')).map((l) => l.slice('event '.length));
  assert.equal(events.at(-1), 'review.sent', agent.output());
  assert.ok(events.includes('review.approved'), agent.output());

  const review = await svc.api.get(`${A}/reviews/${reviewId}`, tenant.consoleToken);
  assert.equal(review.status, 200, review.text);
  assert.equal(review.body.state, 'sent');
  assert.equal(review.body.inbox_id, inboxId);
  assert.match(JSON.stringify(review.body), /Tell dana@example\.com that the sign-up is verified/);
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test('the webhook receiver example prints a signed message.received delivery and refuses a forged one', async () => {
  const { agentKey } = await tenant.enroll('hooked-agent');
  const inbox = await svc.api.post('/v1/inboxes', { display_name: 'Hooked' }, agentKey);
  assert.equal(inbox.status, 201, inbox.text);
  const port = await freePort();
  const hook = await svc.api.post('/v1/webhooks', { url: `http://127.0.0.1:${port}/hooks` }, agentKey);
  assert.equal(hook.status, 201, hook.text);

  const receiver = runExample('examples/webhook-receiver.ts', { PORT: String(port), AGENT_INBOX_WEBHOOK_SECRET: hook.body.secret });
  await line(receiver, new RegExp(`^listening on port ${port}$`), 'the receiver to listen');

  const forged = await fetch(`http://127.0.0.1:${port}/hooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` },
    body: JSON.stringify({ event: 'message.received', id: 'evt_forged', message: { subject: 'forged', from: 'x@example.com' } }),
  });
  assert.equal(forged.status, 400);
  await line(receiver, /^refused a delivery: mismatch$/, 'the forged delivery refused');

  await sendMail(svc, { from: 'Dana <dana@example.com>', to: inbox.body.address, subject: 'Tuesday demo', text: 'Does 10:00 work?' });
  const [, eventId] = (await line(receiver, /^message\.received (\S+): "Tuesday demo" from Dana <dana@example\.com>$/, 'the delivery printed'))!;
  assert.ok(!receiver.lines.some((l) => l.includes('forged') || l.includes('evt_forged')), receiver.output());

  // The service recorded the 204 the receiver answered as a successful delivery of that event.
  const delivered = await waitFor(async () => {
    const r = await svc.api.get(`/v1/webhooks/${hook.body.id}/deliveries`, agentKey);
    return r.body.items?.find((d: any) => d.event_id === eventId && d.status === 'succeeded');
  }, 'the delivery to be recorded as succeeded');
  assert.equal(delivered.last_status_code, 204);
  receiver.child.kill('SIGTERM');
  await exitOf(receiver);
});
