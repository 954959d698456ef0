// /metrics after real traffic: an HTTP call, an SMTP delivery, webhook deliveries and system mail
// move their counters, the scrape-time figures (queues, reviews) are there, and the whole text parses as the
// Prometheus exposition format.
import assert from 'node:assert/strict';
import { describe, test } from '../../testkit/test.ts';
import { ConfigError, loadConfig } from '../../service/config.ts';
import parsePrometheusTextFormat, { type MetricFamily } from 'parse-prometheus-text-format';
import { startReceiver } from '../events/helpers.ts';
import { sendMail } from '../../testkit/mail.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';

const svc = await startTestService();
const tenant = await createTenant(svc);
const agent = await tenant.enroll('metrics-agent');
const inbox = (await svc.api.post('/v1/inboxes', { display_name: 'Metrics' }, agent.agentKey)).body;

type Scrape = MetricFamily[] & { text: string };

async function scrape(token?: string): Promise<Scrape> {
  const r = await svc.api.get('/metrics', token);
  assert.equal(r.status, 200, r.text);
  assert.match(r.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  // Throws on any line that is not the exposition format.
  return Object.assign(parsePrometheusTextFormat(r.text), { text: r.text });
}

/** The value of one counter or gauge series (0 when it does not exist yet). */
function value(families: Scrape, name: string, labels: Record<string, string> = {}): number {
  const family = families.find((f) => f.name === name);
  const sample = family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  return Number(sample?.value ?? 0);
}

/**
 * Observations in one histogram series, from its `_count` line. Read from the text: the parser
 * above merges the series of a labelled histogram into one and drops their labels.
 */
function observations(families: Scrape, name: string, labels: Record<string, string>): number {
  for (const line of families.text.split('\n')) {
    const m = /^(\w+)\{(.*)\} (\S+)$/.exec(line);
    if (!m || m[1] !== `${name}_count`) continue;
    const got = Object.fromEntries([...m[2]!.matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[3]);
  }
  return 0;
}

describe('after real traffic', () => {
  test('an HTTP call counts under its operationId and status, with its latency in a histogram, never under its path', async () => {
    const labels = { route: 'getHealth', method: 'GET', status: '200' };
    const before = await scrape();
    assert.equal((await svc.api.get('/healthz')).status, 200);
    assert.equal((await svc.api.get('/v1/inboxes/inb_nosuchinbox', agent.agentKey)).status, 404);
    assert.equal((await svc.api.get('/no/such/path')).status, 404);
    const after = await scrape();
    assert.equal(value(after, 'agent_inbox_http_requests_total', labels) - value(before, 'agent_inbox_http_requests_total', labels), 1);
    assert.equal(observations(after, 'agent_inbox_http_request_duration_seconds', labels) - observations(before, 'agent_inbox_http_request_duration_seconds', labels), 1);
    assert.ok(value(after, 'agent_inbox_http_requests_total', { route: 'getInbox', status: '404' }) >= 1);
    assert.ok(value(after, 'agent_inbox_http_requests_total', { route: 'unmatched', status: '404' }) >= 1);
    const routes = after.find((f) => f.name === 'agent_inbox_http_requests_total')!.metrics.map((m) => m.labels!.route!);
    assert.ok(routes.every((r) => !r.includes('/')), `no raw paths as labels: ${routes.join(', ')}`);
  });

  test('an SMTP delivery counts a session and an accepted message; an unknown recipient a rejected one', async () => {
    const before = await scrape();
    await sendMail(svc, { from: 'dana@example.com', to: inbox.address, subject: 'Counted', text: 'Hello' });
    await assert.rejects(sendMail(svc, { from: 'dana@example.com', to: 'nobody@agents.test', subject: 'Refused', text: 'Hello' }));
    const after = await scrape();
    const moved = (name: string, labels: Record<string, string> = {}) => value(after, name, labels) - value(before, name, labels);
    assert.equal(moved('agent_inbox_smtp_sessions_total'), 2);
    assert.equal(moved('agent_inbox_smtp_messages_total', { outcome: 'accepted' }), 1);
    assert.equal(moved('agent_inbox_smtp_recipients_total', { outcome: 'accepted' }), 1);
    assert.equal(moved('agent_inbox_smtp_recipients_total', { outcome: 'rejected', reason: 'unknown_recipient' }), 1);
  });

  test('a webhook delivery counts as a succeeded job of its queue', async () => {
    const receiver = await startReceiver();
    const hook = await svc.api.post('/v1/webhooks', { url: `${receiver.url}/hook`, inbox: inbox.id }, agent.agentKey);
    assert.equal(hook.status, 201, hook.text);
    const labels = { queue: 'webhook-delivery', outcome: 'succeeded' };
    const before = value(await scrape(), 'agent_inbox_jobs_total', labels);
    await sendMail(svc, { from: 'dana@example.com', to: inbox.address, subject: 'Hooked', text: 'Hello' });
    await waitFor(() => receiver.requests.length >= 1, 'the webhook is delivered');
    // The job is counted once its attempt is recorded, just after the receiver answered.
    await waitFor(async () => value(await scrape(), 'agent_inbox_jobs_total', labels) === before + 1, 'the delivery is counted');
    assert.ok(observations(await scrape(), 'agent_inbox_job_duration_seconds', { queue: 'webhook-delivery' }) >= 1);
  });

  test('webhook deliveries are counted by result with their latency: a receiver answering 200, then one answering 500', async () => {
    const ok = await startReceiver();
    const failing = await startReceiver();
    failing.respond(500);
    const moved = async (before: Scrape, result: string) => {
      const after = await scrape();
      return [
        value(after, 'agent_inbox_webhook_deliveries_total', { result }) - value(before, 'agent_inbox_webhook_deliveries_total', { result }),
        observations(after, 'agent_inbox_webhook_delivery_duration_seconds', { result }) - observations(before, 'agent_inbox_webhook_delivery_duration_seconds', { result }),
      ];
    };
    const target = (await svc.api.post('/v1/inboxes', { display_name: 'Hooked' }, agent.agentKey)).body;
    const good = await svc.api.post('/v1/webhooks', { url: `${ok.url}/hook`, inbox: target.id }, agent.agentKey);
    assert.equal(good.status, 201, good.text);
    let before = await scrape();
    await sendMail(svc, { from: 'dana@example.com', to: target.address, subject: 'Hooked', text: 'Hello' });
    await waitFor(async () => (await moved(before, 'succeeded'))[0] === 1, 'the succeeded delivery is counted');
    assert.deepEqual(await moved(before, 'succeeded'), [1, 1]);

    await svc.api.del(`/v1/webhooks/${good.body.id}`, agent.agentKey);
    const bad = await svc.api.post('/v1/webhooks', { url: `${failing.url}/hook`, inbox: target.id }, agent.agentKey);
    assert.equal(bad.status, 201, bad.text);
    before = await scrape();
    await sendMail(svc, { from: 'dana@example.com', to: target.address, subject: 'Hooked again', text: 'Hello' });
    await waitFor(async () => (await moved(before, 'retry'))[0] >= 1, 'the failed attempt is counted as a retry');
    assert.ok((await moved(before, 'retry'))[1] >= 1);
  });

  test('system mail is counted by kind and outcome: an invitation sent', async () => {
    const labels = { kind: 'invitation', outcome: 'outbox' };
    const before = value(await scrape(), 'agent_inbox_notifications_total', labels);
    const invited = await svc.api.post(`/v1/admin/orgs/${tenant.orgId}/invitations`, { email: `teammate-${Date.now()}@people.example` }, tenant.consoleToken);
    assert.equal(invited.status, 201, invited.text);
    assert.equal(value(await scrape(), 'agent_inbox_notifications_total', labels), before + 1);
  });

  test('reviews by state and queue figures are read from the database at scrape time', async () => {
    const before = await scrape();
    const pending = before.find((f) => f.name === 'agent_inbox_reviews')?.metrics ?? [];
    const sent = await svc.api.post(
      `/v1/inboxes/${inbox.id}/send`,
      { to: 'dana@example.com', subject: 'Hi', text: 'Hello Dana', intent: { summary: 'Greet Dana, a new customer, today' } },
      agent.agentKey,
    );
    assert.equal(sent.status, 202, sent.text);
    const { rows } = await svc.services.db.query<{ state: string }>(`SELECT state FROM machine_instances WHERE kind = 'review' AND id = $1`, [sent.body.review_id]);
    const state = rows[0]!.state;
    const after = await scrape();
    const was = Number(pending.find((m) => m.labels?.state === state)?.value ?? 0);
    assert.equal(value(after, 'agent_inbox_reviews', { state }), was + 1);
    assert.equal(value(after, 'agent_inbox_database_up'), 1);
    for (const state of ['waiting', 'scheduled', 'active']) {
      assert.ok(after.find((f) => f.name === 'agent_inbox_queue_jobs')!.metrics.some((m) => m.labels?.queue === 'webhook-delivery' && m.labels?.state === state));
    }
    assert.ok(after.find((f) => f.name === 'agent_inbox_queue_oldest_waiting_seconds')!.metrics.some((m) => m.labels?.queue === 'review-delivery'));
  });

  test('default process metrics are there, and every family has help and a type', async () => {
    const families = await scrape();
    for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) {
      assert.ok(families.some((f) => f.name === name), name);
    }
    for (const f of families) {
      assert.ok(f.help, `${f.name} has help`);
      assert.ok(['COUNTER', 'GAUGE', 'HISTOGRAM', 'SUMMARY'].includes(f.type), `${f.name} is typed (${f.type})`);
    }
  });
});

describe('with METRICS_TOKEN set', () => {
  const token = 'metrics-token-0123456789';

  test('/metrics answers 401 without the token or with another, and 200 with it', async () => {
    const guarded = await startTestService({ databaseUrl: svc.databaseUrl, roles: ['api'], env: { METRICS_TOKEN: token } });
    const none = await guarded.api.get('/metrics');
    assert.equal(none.status, 401);
    assert.equal(none.body.code, 'unauthorized');
    assert.match(none.headers.get('www-authenticate') ?? '', /^Bearer/);
    assert.doesNotMatch(none.text, /agent_inbox_/);
    assert.equal((await guarded.api.get('/metrics', 'metrics-token-wrong-0000')).status, 401);
    const ok = await guarded.api.get('/metrics', token);
    assert.equal(ok.status, 200);
    assert.ok(parsePrometheusTextFormat(ok.text).some((f) => f.name === 'agent_inbox_http_requests_total'));
  });
});

describe('a process without the API role', () => {
  test('serves its own SMTP counters on METRICS_PORT, and only /metrics there', async () => {
    const smtpOnly = await startTestService({ databaseUrl: svc.databaseUrl, roles: ['smtp'], env: { METRICS_PORT: '0' } });
    assert.equal(smtpOnly.httpUrl, null);
    assert.ok(smtpOnly.metricsPort);
    const base = `http://127.0.0.1:${smtpOnly.metricsPort}`;
    const read = async () => {
      const r = await fetch(`${base}/metrics`);
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
      return Object.assign(parsePrometheusTextFormat(await r.text()), { text: '' });
    };
    const before = value(await read(), 'agent_inbox_smtp_messages_total', { outcome: 'accepted' });
    await sendMail(smtpOnly, { from: 'dana@example.com', to: inbox.address, subject: 'Split', text: 'Hello' });
    assert.equal(value(await read(), 'agent_inbox_smtp_messages_total', { outcome: 'accepted' }), before + 1);
    assert.equal((await fetch(`${base}/healthz`)).status, 404);
  });

  test('METRICS_PORT and METRICS_TOKEN are validated, naming the variable', () => {
    assert.equal(loadConfig({}).metricsPort, null);
    assert.equal(loadConfig({}).metricsToken, null);
    assert.equal(loadConfig({ METRICS_PORT: '9464' }).metricsPort, 9464);
    for (const env of [{ METRICS_PORT: 'x' }, { METRICS_TOKEN: 'short' }, { METRICS_TOKEN: 'has a space in it somewhere' }]) {
      const name = Object.keys(env)[0]!;
      assert.throws(() => loadConfig(env), (e: unknown) => e instanceof ConfigError && e.message.startsWith(name), name);
    }
  });
});
