// Webhook delivery to real HTTP receivers on loopback: signatures, retries, deactivation, filtering.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, test } from '../../testkit/test.ts';
import { checkWebhookSignature, verifyWebhook } from '../../packages/sdk/src/webhooks.ts';
import { createLogger } from '../../service/logger.ts';
import { sendMail } from '../../testkit/mail.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { eventIdsFor } from '../../storage/opaque-ids.ts';
import { waitFor } from '../../testkit/wait.ts';
import { addInbox, receiveMessage, startReceiver, type Receiver } from './helpers.ts';

const logged: string[] = [];
const sink = new PassThrough();
sink.on('data', (chunk: Buffer) => logged.push(chunk.toString('utf8')));
const svc = await startTestService({
  log: createLogger('debug', sink),
  env: { WEBHOOK_RETRY_SCHEDULE: '0.2,0.2,0.2,0.2,0.2,0.2', WEBHOOK_DEACTIVATE_AFTER: '4', WEBHOOK_TIMEOUT_SECONDS: '1' },
});
const eventIds = await eventIdsFor(svc.services.db);
const evt = (position: number): string => eventIds.encode(position);
const tenant = await createTenant(svc, { plan: 'enterprise' });
const agent = await tenant.enroll('delivery-agent');
const sibling = await tenant.enroll('delivery-sibling');

async function register(receiver: Receiver, body: Record<string, unknown> = {}, key = agent.agentKey) {
  const r = await svc.api.post('/v1/webhooks', { url: `${receiver.url}/hook`, ...body }, key);
  assert.equal(r.status, 201, r.text);
  return r.body as { id: string; secret: string; secret_prefix: string };
}

async function deliveries(webhookId: string, key = agent.agentKey) {
  const r = await svc.api.get(`/v1/webhooks/${webhookId}/deliveries`, key);
  assert.equal(r.status, 200, r.text);
  return r.body.items as any[];
}

const header = (req: { headers: Record<string, unknown> }, name: string) => String(req.headers[name] ?? '');

describe('a delivery', () => {
  test('is a signed JSON POST whose signature verifies over the raw bytes, and whose body is the contract table', async () => {
    const inbox = await addInbox(svc, tenant, agent.agentId);
    const receiver = await startReceiver();
    const hook = await register(receiver, { inbox: inbox.address });
    const event = await receiveMessage(svc, inbox, 'Signed hello');
    await waitFor(() => receiver.requests.length === 1, 'the delivery');
    const req = receiver.requests[0]!;
    assert.equal(req.method, 'POST');
    assert.equal(req.url, '/hook');
    assert.equal(header(req, 'content-type'), 'application/json');
    assert.equal(header(req, 'x-service-event'), 'message.received');
    const signature = header(req, 'x-service-signature');
    assert.match(signature, /^t=\d+,v1=[0-9a-f]{64}$/);

    assert.equal(await verifyWebhook(req.raw, signature, hook.secret, { toleranceSeconds: 300 }), true);
    assert.equal(await verifyWebhook(req.raw.toString('utf8'), signature, hook.secret), true);
    const tampered = Buffer.from(req.raw.toString('utf8').replace('Signed hello', 'Signed hellO'));
    assert.deepEqual(await checkWebhookSignature(tampered, signature, hook.secret), { ok: false, reason: 'mismatch' });
    const reserialized = JSON.stringify(JSON.parse(req.raw.toString('utf8')), null, 2);
    assert.equal(await verifyWebhook(reserialized, signature, hook.secret), false, 're-serialized JSON is not the signed bytes');
    const t = Number(/t=(\d+)/.exec(signature)![1]);
    assert.deepEqual(await checkWebhookSignature(req.raw, signature, hook.secret, { now: t + 301 }), { ok: false, reason: 'stale' });
    assert.equal(await verifyWebhook(req.raw, signature, hook.secret, { now: t + 299 }), true);
    const staleHeader = signature.replace(/t=\d+/, `t=${t - 600}`);
    assert.equal(await verifyWebhook(req.raw, staleHeader, hook.secret), false);
    assert.equal(await verifyWebhook(req.raw, signature, 'whsec_wrong'), false);

    const body = JSON.parse(req.raw.toString('utf8'));
    assert.deepEqual(Object.keys(body).sort(), ['created_at', 'event', 'id', 'inbox', 'message']);
    assert.equal(body.event, 'message.received');
    assert.equal(body.id, evt(event.id));
    assert.equal(body.created_at, event.created_at.toISOString());
    assert.equal(body.inbox, inbox.address);
    assert.deepEqual(Object.keys(body.message).sort(), ['date', 'folder', 'from', 'id', 'inbox', 'message_id', 'seen', 'subject', 'text', 'thread_id', 'to']);
    assert.equal(body.message.from, '"Ada Lovelace" <ada@example.com>');
    assert.equal(body.message.to, inbox.address);
    assert.equal(body.message.subject, 'Signed hello');
    assert.equal(body.message.seen, false);

    const [d] = await waitFor(async () => {
      const list = await deliveries(hook.id);
      return list[0]?.status === 'succeeded' ? list : null;
    }, 'the delivery recorded as succeeded');
    assert.equal(d.event_id, evt(event.id));
    assert.equal(d.attempt_count, 1);
    assert.equal(d.attempts.length, 1);
    assert.equal(d.attempts[0].attempt, 1);
    assert.equal(d.attempts[0].status_code, 200);
    assert.equal(d.attempts[0].error, null);
    assert.equal(d.attempts[0].next_retry_at, null);
    assert.equal(typeof d.attempts[0].duration_ms, 'number');
  });

  test('answered 500 is retried on the schedule and then succeeds, every attempt recorded, same event id', async () => {
    const inbox = await addInbox(svc, tenant, agent.agentId);
    const receiver = await startReceiver();
    receiver.respond((i) => (i < 2 ? 500 : 204));
    const hook = await register(receiver, { inbox: inbox.id });
    const event = await receiveMessage(svc, inbox);
    await waitFor(() => receiver.requests.length === 3, 'three attempts');
    const ids = receiver.requests.map((r) => JSON.parse(r.raw.toString('utf8')).id);
    assert.deepEqual(ids, [evt(event.id), evt(event.id), evt(event.id)]);
    for (const r of receiver.requests) assert.equal(await verifyWebhook(r.raw, header(r, 'x-service-signature'), hook.secret), true);
    // The schedule's 0.2 s (±10 %) lies between attempts.
    assert.ok(receiver.requests[1]!.at - receiver.requests[0]!.at >= 170);

    const [d] = await waitFor(async () => {
      const list = await deliveries(hook.id);
      return list[0]?.status === 'succeeded' ? list : null;
    }, 'the delivery recorded as succeeded');
    assert.equal(d.attempt_count, 3);
    assert.deepEqual(d.attempts.map((a: any) => a.status_code), [500, 500, 204]);
    assert.deepEqual(d.attempts.map((a: any) => a.error), ['HTTP 500', 'HTTP 500', null]);
    assert.ok(d.attempts[0].next_retry_at && d.attempts[1].next_retry_at);
    assert.equal(d.attempts[2].next_retry_at, null);
    const webhook = await svc.api.get(`/v1/webhooks/${hook.id}`, agent.agentKey);
    assert.equal(webhook.body.consec_failures, 0, 'a success clears the failure count');
    assert.equal(webhook.body.active, true);
  });

  test('to a receiver that always fails ends with the webhook deactivated after the limit', async () => {
    const inbox = await addInbox(svc, tenant, agent.agentId);
    const receiver = await startReceiver();
    receiver.respond(503);
    const hook = await register(receiver, { inbox: inbox.id });
    await receiveMessage(svc, inbox);
    const webhook = await waitFor(async () => {
      const r = await svc.api.get(`/v1/webhooks/${hook.id}`, agent.agentKey);
      return r.body.active === false ? r.body : null;
    }, 'the webhook deactivated');
    assert.equal(webhook.consec_failures, 4);
    assert.ok(webhook.deactivated_at);
    assert.equal(receiver.requests.length, 4);
    const [d] = await deliveries(hook.id);
    assert.equal(d.status, 'failed');
    assert.equal(d.attempt_count, 4);
    assert.equal(d.next_attempt_at, null);
    assert.match(d.attempts[3].error, /deactivated after 4 consecutive failures/);

    // Later events create no delivery for an inactive webhook.
    await receiveMessage(svc, inbox);
    const after = await svc.services.db.query('SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1', [hook.id]);
    assert.equal(after.rows[0].n, 1);
    const redeliver = await svc.api.post(`/v1/webhooks/${hook.id}/deliveries/${d.id}/redeliver`, {}, agent.agentKey);
    assert.equal(redeliver.status, 409);
    assert.equal(redeliver.body.code, 'conflict');

    // Reactivating clears the count; deliveries flow again.
    receiver.respond(200);
    const on = await svc.api.patch(`/v1/webhooks/${hook.id}`, { active: true }, agent.agentKey);
    assert.equal(on.body.active, true);
    assert.equal(on.body.consec_failures, 0);
    await receiveMessage(svc, inbox);
    await waitFor(() => receiver.requests.length === 5, 'a delivery after reactivation');
  });

  test('is not redirected: a 302 is a failed attempt and the Location is never requested', async () => {
    const inbox = await addInbox(svc, tenant, agent.agentId);
    const receiver = await startReceiver();
    receiver.respond((i) => (i === 0 ? 302 : 200));
    const hook = await register(receiver, { inbox: inbox.id });
    await receiveMessage(svc, inbox);
    await waitFor(() => receiver.requests.length === 2, 'the retry after the redirect');
    assert.deepEqual(receiver.requests.map((r) => r.url), ['/hook', '/hook']);
    const [d] = await waitFor(async () => {
      const list = await deliveries(hook.id);
      return list[0]?.status === 'succeeded' ? list : null;
    }, 'the delivery recorded as succeeded');
    assert.equal(d.attempts[0].status_code, 302);
    assert.equal(d.attempts[0].error, 'HTTP 302');
  });

  test('that gets no answer within the timeout is a failed attempt with the error recorded', async () => {
    const inbox = await addInbox(svc, tenant, agent.agentId);
    const receiver = await startReceiver();
    receiver.respond((i) => (i === 0 ? 'hang' : 200));
    const hook = await register(receiver, { inbox: inbox.id });
    await receiveMessage(svc, inbox);
    const [d] = await waitFor(async () => {
      const list = await deliveries(hook.id);
      return list[0]?.status === 'succeeded' ? list : null;
    }, 'the delivery recorded as succeeded', 15_000);
    assert.equal(d.attempts[0].status_code, null);
    assert.equal(d.attempts[0].error, 'timed out after 1000 ms');
    assert.ok(d.attempts[0].duration_ms >= 990);
    assert.equal(d.attempts[1].status_code, 200);
  });
});

describe('which webhooks receive an event', () => {
  test('one naming the inbox, and one of the inbox agent naming none; never another agent\'s', async () => {
    const first = await addInbox(svc, tenant, agent.agentId);
    const second = await addInbox(svc, tenant, agent.agentId);
    const theirs = await addInbox(svc, tenant, sibling.agentId);
    const onFirst = await startReceiver();
    const onAll = await startReceiver();
    const siblings = await startReceiver();
    await register(onFirst, { inbox: first.address });
    await register(onAll);
    await register(siblings, {}, sibling.agentKey);

    const a = await receiveMessage(svc, first);
    const b = await receiveMessage(svc, second);
    const c = await receiveMessage(svc, theirs);
    const idsOf = (r: Receiver) => r.requests.map((q) => JSON.parse(q.raw.toString('utf8')).id).sort();
    await waitFor(() => onFirst.requests.length >= 1 && onAll.requests.length >= 2 && siblings.requests.length >= 1, 'the deliveries');
    // Events published after these would be delivered too; the three published here are the whole story.
    await waitFor(async () => {
      const { rows } = await svc.services.db.query("SELECT count(*)::int AS n FROM webhook_deliveries WHERE event_id = ANY($1) AND status = 'pending'", [[a.id, b.id, c.id]]);
      return rows[0].n === 0;
    }, 'nothing pending');
    assert.deepEqual(idsOf(onFirst), [evt(a.id)]);
    assert.deepEqual(idsOf(onAll), [evt(a.id), evt(b.id)].sort());
    assert.deepEqual(idsOf(siblings), [evt(c.id)]);
  });

  test('events of another type make no delivery', async () => {
    const inbox = await addInbox(svc, tenant, agent.agentId);
    const receiver = await startReceiver();
    const hook = await register(receiver, { inbox: inbox.id });
    const { publish } = await import('./helpers.ts');
    await publish(svc, { org_id: tenant.orgId, project_id: tenant.projectId, inbox_id: inbox.id, agent_id: agent.agentId, type: 'review.sent', payload: { review_id: 'rr_x' } });
    const { rows } = await svc.services.db.query('SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1', [hook.id]);
    assert.equal(rows[0].n, 0);
  });
});

describe('redelivery and rotation', () => {
  test('redeliver sends the same event id again with a fresh signature, as a new delivery', async () => {
    const inbox = await addInbox(svc, tenant, agent.agentId);
    const receiver = await startReceiver();
    const hook = await register(receiver, { inbox: inbox.id });
    const event = await receiveMessage(svc, inbox);
    await waitFor(() => receiver.requests.length === 1, 'the delivery');
    const [original] = await waitFor(async () => {
      const list = await deliveries(hook.id);
      return list[0]?.status === 'succeeded' ? list : null;
    }, 'recorded');
    const r = await svc.api.post(`/v1/webhooks/${hook.id}/deliveries/${original.id}/redeliver`, {}, agent.agentKey);
    assert.equal(r.status, 202, r.text);
    assert.match(r.body.id, /^whd_/);
    assert.notEqual(r.body.id, original.id);
    assert.equal(r.body.redelivery_of, original.id);
    assert.equal(r.body.event_id, evt(event.id));
    assert.equal(r.body.status, 'pending');
    await waitFor(() => receiver.requests.length === 2, 'the redelivery');
    const [first, second] = receiver.requests;
    assert.equal(second!.raw.toString('utf8'), first!.raw.toString('utf8'), 'the same body, the same event id');
    assert.equal(await verifyWebhook(second!.raw, header(second!, 'x-service-signature'), hook.secret), true);
    const t1 = Number(/t=(\d+)/.exec(header(first!, 'x-service-signature'))![1]);
    const t2 = Number(/t=(\d+)/.exec(header(second!, 'x-service-signature'))![1]);
    assert.ok(t2 >= t1);
    const list = await waitFor(async () => {
      const all = await deliveries(hook.id);
      return all.every((d) => d.status === 'succeeded') ? all : null;
    }, 'both recorded');
    assert.equal(list.length, 2);
    assert.equal(list[0].id, r.body.id, 'newest first');

    const unknown = await svc.api.post(`/v1/webhooks/${hook.id}/deliveries/whd_nope/redeliver`, {}, agent.agentKey);
    assert.equal(unknown.status, 404);
    const foreign = await svc.api.post(`/v1/webhooks/${hook.id}/deliveries/${original.id}/redeliver`, {}, sibling.agentKey);
    assert.equal(foreign.status, 404);
  });

  test('rotate-secret returns a new secret once; for 24 h deliveries carry both signatures', async () => {
    const inbox = await addInbox(svc, tenant, agent.agentId);
    const receiver = await startReceiver();
    const hook = await register(receiver, { inbox: inbox.id });
    const r = await svc.api.post(`/v1/webhooks/${hook.id}/rotate-secret`, {}, agent.agentKey);
    assert.equal(r.status, 200, r.text);
    assert.match(r.body.secret, /^whsec_/);
    assert.notEqual(r.body.secret, hook.secret);
    assert.equal(r.body.secret_prefix, r.body.secret.slice(0, 10));
    const overlap = new Date(r.body.previous_secret_expires_at).getTime() - Date.now();
    assert.ok(overlap > 23.9 * 3600_000 && overlap <= 24 * 3600_000);
    const got = await svc.api.get(`/v1/webhooks/${hook.id}`, agent.agentKey);
    assert.equal(got.body.secret, undefined);
    assert.equal(got.text.includes(r.body.secret), false);

    await receiveMessage(svc, inbox);
    await waitFor(() => receiver.requests.length === 1, 'the delivery');
    const req = receiver.requests[0]!;
    const signature = header(req, 'x-service-signature');
    assert.match(signature, /^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    assert.equal(await verifyWebhook(req.raw, signature, r.body.secret), true, 'the new secret verifies');
    assert.equal(await verifyWebhook(req.raw, signature, hook.secret), true, 'the old secret still verifies');
    // The first v1 is the new secret's.
    const [, newest] = signature.split(',');
    assert.equal(await verifyWebhook(req.raw, `${signature.split(',')[0]},${newest}`, r.body.secret), true);

    // Once the overlap has ended, only the new secret signs.
    await svc.services.db.query("UPDATE webhooks SET previous_expires_at = now() - interval '1 second' WHERE id = $1", [hook.id]);
    await receiveMessage(svc, inbox);
    await waitFor(() => receiver.requests.length === 2, 'the second delivery');
    const later = header(receiver.requests[1]!, 'x-service-signature');
    assert.match(later, /^t=\d+,v1=[0-9a-f]{64}$/);
    assert.equal(await verifyWebhook(receiver.requests[1]!.raw, later, hook.secret), false);
    assert.equal(await verifyWebhook(receiver.requests[1]!.raw, later, r.body.secret), true);

    const all = logged.join('');
    assert.ok(all.includes('webhook delivery attempt'), 'deliveries are logged');
    assert.equal(all.includes(r.body.secret), false, 'no secret in the log');
    assert.equal(all.includes(hook.secret), false, 'no secret in the log');
  });
});

describe('end to end over SMTP', () => {
  test('a message received over SMTP is posted to the webhook with from and to as raw header strings', async () => {
    const created = await svc.api.post('/v1/inboxes', { username: `smtp-${Date.now()}` }, agent.agentKey);
    assert.equal(created.status, 201, created.text);
    const receiver = await startReceiver();
    const hook = await register(receiver, { inbox: created.body.address });
    await sendMail(svc, {
      from: '"Grace Hopper" <grace@example.com>',
      to: created.body.address,
      subject: 'Over the wire',
      text: 'Your code is 424242.',
    });
    await waitFor(() => receiver.requests.length === 1, 'the delivery');
    const req = receiver.requests[0]!;
    assert.equal(await verifyWebhook(req.raw, header(req, 'x-service-signature'), hook.secret), true);
    const body = JSON.parse(req.raw.toString('utf8'));
    assert.equal(body.event, 'message.received');
    assert.equal(body.inbox, created.body.address);
    // nodemailer writes the display name without quotes; the header is passed on as written.
    assert.equal(body.message.from, 'Grace Hopper <grace@example.com>');
    assert.equal(body.message.to, created.body.address);
    assert.equal(body.message.subject, 'Over the wire');
    assert.match(body.message.text, /424242/);
    assert.match(body.message.id, /^msg_/);
    assert.equal(body.message.folder, 'INBOX');
    const stored = await svc.api.get(`/v1/messages/${body.message.id}`, agent.agentKey);
    assert.equal(stored.status, 200);
  });
});

describe('the delivery list cursor', () => {
  test('is opaque, pages exactly, and a forged one is 400 naming cursor', async () => {
    const inbox = await addInbox(svc, tenant, agent.agentId);
    const receiver = await startReceiver();
    const hook = await register(receiver, { inbox: inbox.id });
    await receiveMessage(svc, inbox);
    await receiveMessage(svc, inbox);
    const all = await waitFor(async () => {
      const list = await deliveries(hook.id);
      return list.length === 2 ? list : null;
    }, 'two deliveries');
    const first = await svc.api.get(`/v1/webhooks/${hook.id}/deliveries?limit=1`, agent.agentKey);
    const cursor: string = first.body.next_cursor;
    // It used to be base64url of `d:<sequence>`, the service-wide count of deliveries.
    assert.doesNotMatch(Buffer.from(cursor, 'base64url').toString('latin1'), /^d:\d+$/);
    assert.deepEqual(first.body.items.map((d: any) => d.id), [all[0].id]);
    const second = await svc.api.get(`/v1/webhooks/${hook.id}/deliveries?limit=1&cursor=${cursor}`, agent.agentKey);
    assert.deepEqual(second.body.items.map((d: any) => d.id), [all[1].id]);
    // Altered in the middle, and in the last character, whose four spare bits decoding would drop:
    // only the spelling the service gave is taken.
    for (const forged of [Buffer.from('d:999999').toString('base64url'), cursor.slice(0, -1) + (cursor.endsWith('A') ? 'B' : 'A'), cursor.slice(0, 4) + (cursor[4] === 'A' ? 'B' : 'A') + cursor.slice(5), 'x']) {
      const r = await svc.api.get(`/v1/webhooks/${hook.id}/deliveries?limit=1&cursor=${forged}`, agent.agentKey);
      assert.equal(r.status, 400, forged);
      assert.equal(r.body.errors[0].field, 'cursor');
    }
  });
});
