// What happened to a sent mail, end to end through real SMTP, HTTP, webhooks and the stream: the
// relay takes it (message.delivered), a DSN or ARF report comes back later to its signed return
// path (message.bounced / message.complained / message.delayed), the recipient is suppressed, and
// the next send to it is refused; the corpus of MTA report shapes links to the right review;
// reports that match nothing are stored as mail; sender health holds an inbox's sends until a
// human clears it.
import assert from 'node:assert/strict';
import { after, test } from '../../testkit/test.ts';
import { sendRaw } from '../../testkit/mail.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
import { recordingQueries } from '../../testkit/db.ts';
import { startReceiver } from '../events/helpers.ts';
import { openStream } from '../../testkit/sse-client.ts';
import { EXPECTED, corpusMail } from '../mail/dsn-corpus.ts';
import { startRelay } from '../../testkit/relay.ts';
import { INTENT, agentWithInbox, setPolicy, type Agent } from './setup.ts';

const relay = await startRelay();
after(() => relay.close());
const svc = await startTestService({ env: { SMTP_URL: relay.url, SENDER_HEALTH_MIN_SENDS: '4', SOFT_BOUNCE_LIMIT: '2' } });
const tenant = await createTenant(svc, { plan: 'enterprise' });
const receiver = await startReceiver();

const DELIVERY_EVENTS = ['message.delivered', 'message.bounced', 'message.complained', 'message.delayed'];

async function directAgent(): Promise<Agent> {
  const agent = await agentWithInbox(svc, tenant);
  await setPolicy(agent, 'allow_direct');
  return agent;
}

/** Sends one mail under allow_direct and waits until the relay has it; its review and the return path it went out with. */
async function sendAndRelay(agent: Agent, to: string, subject = 'Tuesday demo') {
  const r = await agent.send({ to, subject, text: 'Tuesday 10:00 works for us.', intent: INTENT });
  assert.equal(r.status, 202, r.text);
  const review = await agent.until(r.body.review_id, 'auto_sent');
  const relayed = await waitFor(() => relay.received.find((m) => m.mail.messageId === `<${review.id}.1@agents.test>`), `the relay to get ${review.id}`);
  return { review, returnPath: relayed.from, messageId: relayed.mail.messageId! };
}

function fill(agent: Agent, sent: { review: { id: string }; returnPath: string; messageId: string }, to: string) {
  return { RETURN_PATH: sent.returnPath, TO: to, SENDER: agent.address, MESSAGE_ID: sent.messageId, REVIEW_ID: sent.review.id };
}

const hooked = (type: string, recipient: string) =>
  waitFor(() => receiver.requests.map((r) => JSON.parse(r.raw.toString())).find((b) => b.event === type && b.recipient === recipient), `webhook ${type} for ${recipient}`);

const inboxMessages = async (agent: Agent) => (await svc.api.get(`/v1/inboxes/${agent.inboxId}/messages`, agent.key)).body.data as any[];

test('a send the relay took and a later DSN rejected: message.delivered, then message.bounced (hard) on the webhook, the stream and the review queue; the recipient is suppressed and the next send to it is 422 recipient_suppressed', async () => {
  const agent = await directAgent();
  const hook = await svc.api.post('/v1/webhooks', { url: receiver.url, inbox: agent.inboxId, events: DELIVERY_EVENTS }, agent.key);
  assert.equal(hook.status, 201, hook.text);
  const stream = await openStream(svc.url, `/v1/events/stream?types=message.bounced`, { token: agent.key });
  after(() => stream.close());

  const sent = await sendAndRelay(agent, 'Nobody <nobody@acme.example>');
  assert.match(sent.returnPath, new RegExp(`^bounce\\+${sent.review.id}\\.[0-9a-f]{16}@agents\\.test$`), 'the envelope sender is the signed return path');
  const delivered = await hooked('message.delivered', 'nobody@acme.example');
  assert.equal(delivered.review_id, sent.review.id);
  assert.equal(delivered.message_id, sent.review.sent_message_id);

  const answer = await sendRaw(svc, corpusMail('postfix-hard.eml', fill(agent, sent, 'nobody@acme.example')), { from: '', to: [sent.returnPath] });
  assert.match(answer.response, /^250 /);

  const bounced = await hooked('message.bounced', 'nobody@acme.example');
  assert.deepEqual([bounced.review_id, bounced.type, bounced.status, bounced.inbox_id, bounced.message_id], [sent.review.id, 'hard', '5.1.1', agent.inboxId, sent.review.sent_message_id]);
  assert.match(bounced.diagnostic, /User unknown/);
  // The reporting MTA delivering the same DSN again (it missed our 250) records nothing more.
  await sendRaw(svc, corpusMail('postfix-hard.eml', fill(agent, sent, 'nobody@acme.example')), { from: '', to: [sent.returnPath] });
  const logged = await svc.services.db.query(`SELECT count(*)::int AS n FROM events WHERE type = 'message.bounced' AND payload->>'review_id' = $1`, [sent.review.id]);
  assert.equal(logged.rows[0].n, 1);
  const [live] = await stream.waitForEvents(1);
  assert.equal(live!.event, 'message.bounced');
  assert.equal(JSON.parse(live!.data).recipient, 'nobody@acme.example');

  const items = await agent.drain(`?review_id=${sent.review.id}`);
  const item = items.find((e: any) => e.type === 'message.bounced');
  assert.ok(item, `the review's queue has the bounce: ${JSON.stringify(items.map((e: any) => e.type))}`);
  assert.deepEqual([item.recipient, item.bounce_type, item.status], ['nobody@acme.example', 'hard', '5.1.1']);

  const check = await svc.api.get('/v1/suppression/nobody@acme.example', agent.key);
  assert.deepEqual([check.body.suppressed, check.body.origin, check.body.reason], [true, 'delivery', 'bounced']);
  const again = await agent.send({ to: 'nobody@acme.example', subject: 'Again', text: 'Hello?', intent: INTENT });
  assert.equal(again.status, 422);
  assert.equal(again.body.code, 'recipient_suppressed');

  const review = await agent.review(sent.review.id);
  assert.deepEqual(review.body.delivery.map((d: any) => [d.recipient, d.status, d.type, d.status_code]), [['nobody@acme.example', 'bounced', 'hard', '5.1.1']]);
  const copy = await svc.api.get(`/v1/messages/${sent.review.sent_message_id}`, agent.key);
  assert.deepEqual(copy.body.delivery.map((d: any) => [d.recipient, d.status]), [['nobody@acme.example', 'bounced']]);
  assert.deepEqual((await inboxMessages(agent)).filter((m) => m.folder === 'INBOX'), [], 'the DSN is recorded against its send, not stored as mail');

  // Lifted through the suppression API, the address can be written to again.
  assert.equal((await svc.api.del('/v1/suppression/nobody@acme.example', agent.key)).status, 204);
  assert.equal((await agent.send({ to: 'nobody@acme.example', subject: 'Again', text: 'Hello?', intent: INTENT })).status, 202);
});

test('a delivery locks its review and reads the webhooks that hear it with the sent copy\'s insert, and with none logs message.delivered with its COMMIT: no round trips of their own; the stream still has the event', async () => {
  const agent = await directAgent();
  const stream = await openStream(svc.url, '/v1/events/stream?types=message.delivered', { token: agent.key });
  after(() => stream.close());
  // The first prepares the statements on the connection the next delivery takes again.
  await sendAndRelay(agent, 'first@acme.example');
  const sent: string[] = [];
  const second = await recordingQueries(sent, () => sendAndRelay(agent, 'second@acme.example'));
  const insert = sent.find((q) => q.includes('EXECUTE "mailbox-insert-message"') && q.includes(second.review.id));
  assert.ok(insert, sent.join('\n'));
  const locked = `EXECUTE "machines-lock"\\('review', '${second.review.id}'\\)`;
  assert.match(insert, new RegExp(`${locked}; EXECUTE "webhooks-subscribed"\\('[^']+', 'message\\.delivered', '[^']+'\\); EXECUTE "mailbox-insert-message"`));
  const commit = sent.find((q) => q.includes('EXECUTE "machines-update"') && q.includes(second.review.id) && q.includes('COMMIT'));
  assert.ok(commit, sent.join('\n'));
  assert.match(commit, /EXECUTE "events-append-at-commit"\([^;]*'message\.delivered'[^;]*\); COMMIT;/, 'the event goes with the COMMIT');
  assert.ok(!sent.some((q) => ['events-append', 'webhooks-subscribed', 'machines-lock'].includes(q)), `no round trip of their own: ${sent.join('\n')}`);
  assert.match(commit, /^EXECUTE "usage-count-received"\([^)]*\); EXECUTE "machines-update"/, 'the outcome is the round trip after the insert');

  const events = await stream.waitForEvents(2);
  assert.deepEqual(events.map((e) => [e.event, JSON.parse(e.data).recipient]), [['message.delivered', 'first@acme.example'], ['message.delivered', 'second@acme.example']]);
  const logged = await svc.services.db.query(`SELECT count(*)::int AS n FROM events WHERE type = 'message.delivered' AND payload->>'review_id' = $1`, [second.review.id]);
  assert.equal(logged.rows[0].n, 1);
});

test('an ARF complaint to the return path: message.complained, the recipient suppressed with reason complained, the next send 422', async () => {
  const agent = await directAgent();
  const hook = await svc.api.post('/v1/webhooks', { url: receiver.url, inbox: agent.inboxId, events: ['message.complained'] }, agent.key);
  assert.equal(hook.status, 201, hook.text);
  const sent = await sendAndRelay(agent, 'grumpy@acme.example');
  await sendRaw(svc, corpusMail('arf-rfc5965.eml', fill(agent, sent, 'grumpy@acme.example')), { from: '', to: [sent.returnPath] });
  const complained = await hooked('message.complained', 'grumpy@acme.example');
  assert.equal(complained.review_id, sent.review.id);
  const list = await svc.api.get('/v1/suppression', agent.key);
  assert.deepEqual(list.body.data.filter((s: any) => s.email === 'grumpy@acme.example').map((s: any) => [s.origin, s.reason]), [['delivery', 'complained']]);
  const again = await agent.send({ to: 'grumpy@acme.example', subject: 'Again', text: 'Hello?', intent: INTENT });
  assert.equal(again.status, 422);
  assert.equal(again.body.code, 'recipient_suppressed');
});

test('the corpus (RFC 3464, RFC 5965, Postfix, Exim, qmail, Exchange, Gmail): each report sent to its return path is linked to its review with the right recipient and type', async () => {
  const agent = await directAgent();
  const sends = [];
  for (const [i, name] of Object.keys(EXPECTED).entries()) sends.push({ name, to: `corpus-${i}@acme.example`, sent: await sendAndRelay(agent, `corpus-${i}@acme.example`) });
  for (const { name, to, sent } of sends) {
    await sendRaw(svc, corpusMail(name, fill(agent, sent, to)), { from: '', to: [sent.returnPath] });
    const want = EXPECTED[name]!;
    const status = await waitFor(async () => {
      const r = await agent.review(sent.review.id);
      return r.body.delivery.find((d: any) => d.recipient === to && d.status !== 'delivered');
    }, `${name} to be linked to ${sent.review.id}`);
    assert.deepEqual([status.status, status.type, status.status_code], [want.kind, want.type, want.status], name);
  }
  assert.deepEqual((await inboxMessages(agent)).filter((m) => m.folder === 'INBOX'), [], 'no report was stored as mail');
  // gmail-full is one soft bounce; the postfix delay is another recipient's: neither suppresses.
  const list = await svc.api.get('/v1/suppression?limit=100', agent.key);
  const suppressed = new Set(list.body.data.map((s: any) => s.email));
  for (const { name, to } of sends) assert.equal(suppressed.has(to), EXPECTED[name]!.type === 'hard' || EXPECTED[name]!.kind === 'complained', `${name}: ${to}`);
});

test("a report sent to the inbox's own address is linked by the reported Message-ID; one that matches no send is stored as plain mail, as is one whose recipient the send never had; a forged return path is refused", async () => {
  const agent = await directAgent();
  const sent = await sendAndRelay(agent, 'gone@acme.example');
  await sendRaw(svc, corpusMail('exchange.eml', { ...fill(agent, sent, 'gone@acme.example'), RETURN_PATH: agent.address }), { from: '', to: [agent.address] });
  await waitFor(async () => (await agent.review(sent.review.id)).body.delivery.find((d: any) => d.status === 'bounced'), 'the bounce to be linked by Message-ID');

  const stranger = { ...fill(agent, sent, 'someone@elsewhere.example'), RETURN_PATH: agent.address, MESSAGE_ID: '<never-sent@elsewhere.example>', REVIEW_ID: '' };
  await sendRaw(svc, corpusMail('rfc3464-failed.eml', stranger), { from: '', to: [agent.address] });
  const stored = await waitFor(async () => (await inboxMessages(agent)).find((m) => m.subject === 'Returned mail: see transcript for details'), 'the unmatched DSN stored as mail');
  assert.equal(stored.folder, 'INBOX');

  await sendRaw(svc, corpusMail('gmail-unknown.eml', fill(agent, sent, 'not-a-recipient@acme.example')), { from: '', to: [sent.returnPath] });
  await waitFor(async () => (await inboxMessages(agent)).find((m) => m.subject === 'Delivery Status Notification (Failure)'), 'the report naming a stranger stored as mail in the sending inbox');
  assert.equal((await agent.review(sent.review.id)).body.delivery.some((d: any) => d.recipient === 'not-a-recipient@acme.example'), false);

  const forged = sent.returnPath.replace(/\.[0-9a-f]{16}@/, '.0000000000000000@');
  await assert.rejects(sendRaw(svc, corpusMail('postfix-hard.eml', fill(agent, sent, 'gone@acme.example')), { from: '', to: [forged] }), (err: any) => err.responseCode === 550);
});

test('soft bounces suppress only after SOFT_BOUNCE_LIMIT sends in a row came back soft', async () => {
  const agent = await directAgent();
  const first = await sendAndRelay(agent, 'full@acme.example');
  await sendRaw(svc, corpusMail('gmail-full.eml', fill(agent, first, 'full@acme.example')), { from: '', to: [first.returnPath] });
  await waitFor(async () => (await agent.review(first.review.id)).body.delivery.find((d: any) => d.status === 'bounced'), 'the first soft bounce');
  assert.equal((await svc.api.get('/v1/suppression/full@acme.example', agent.key)).body.suppressed, false);
  const second = await sendAndRelay(agent, 'full@acme.example', 'Tuesday demo, again');
  await sendRaw(svc, corpusMail('gmail-full.eml', fill(agent, second, 'full@acme.example')), { from: '', to: [second.returnPath] });
  const check = await waitFor(async () => {
    const r = await svc.api.get('/v1/suppression/full@acme.example', agent.key);
    return r.body.suppressed ? r.body : null;
  }, 'the second soft bounce in a row to suppress');
  assert.deepEqual([check.origin, check.reason], ['delivery', 'bounced']);
});

test('sender health: past the bounce rate the next send is held with sender_health for a human, who approves it and clears the inbox; sends flow again', async () => {
  const agent = await directAgent();
  const sends: Array<Awaited<ReturnType<typeof sendAndRelay>>> = [];
  for (let i = 0; i < 4; i++) sends.push(await sendAndRelay(agent, `health-${i}@acme.example`));
  await sendRaw(svc, corpusMail('postfix-hard.eml', fill(agent, sends[0]!, 'health-0@acme.example')), { from: '', to: [sends[0]!.returnPath] });
  await waitFor(async () => (await agent.review(sends[0]!.review.id)).body.delivery.find((d: any) => d.status === 'bounced'), 'the bounce');

  const health = await svc.api.get(`${agent.A}/inboxes/${agent.inboxId}/sender-health`, agent.console);
  assert.equal(health.status, 200, health.text);
  assert.deepEqual([health.body.sends, health.body.bounces, health.body.held, health.body.reason], [4, 1, true, 'bounce_rate']);

  const held = await agent.send({ to: 'health-new@acme.example', subject: 'Next', text: 'Hi', intent: INTENT });
  assert.equal(held.status, 202);
  assert.equal(held.body.outcome, 'queued_for_review');
  assert.equal(held.body.review.mode_reason, 'sender_health');
  assert.equal(held.body.review.route, 'human');

  const cleared = await svc.api.post(`${agent.A}/inboxes/${agent.inboxId}/sender-health/clear`, {}, agent.console);
  assert.equal(cleared.status, 200, cleared.text);
  assert.deepEqual([cleared.body.sends, cleared.body.held], [0, false]);
  assert.equal((await agent.decide(held.body.review_id, { action: 'approve', parent_revision: 1 })).status, 200);
  await agent.until(held.body.review_id, 'sent');
  const next = await agent.send({ to: 'health-later@acme.example', subject: 'Later', text: 'Hi', intent: INTENT });
  assert.equal(next.body.outcome, 'released');
  await agent.until(next.body.review_id, 'auto_sent');
});
