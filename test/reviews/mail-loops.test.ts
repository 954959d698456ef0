// Breaking mail loops: two agent inboxes hosted here, each on allow_direct, answering each other
// stop at LOOP_MAX_SENDS sends into a thread with the next reply held (`loop_suspected`) and
// nothing lost; an auto-reply is marked on arrival, an agent's answer to it says
// `Auto-Submitted: auto-replied`, and an answer to an auto-reply that answered the agent's own
// mail is held.
import assert from 'node:assert/strict';
import { after, test } from '../../testkit/test.ts';
import { sendRaw } from '../../testkit/mail.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
import { startRelay } from '../../testkit/relay.ts';
import { INTENT, agentWithInbox, setPolicy, type Agent } from './setup.ts';

const relay = await startRelay();
after(() => relay.close());
const svc = await startTestService({ env: { SMTP_URL: relay.url, LOOP_MAX_SENDS: '3' } });
const tenant = await createTenant(svc, { plan: 'enterprise' });

async function directAgent(): Promise<Agent> {
  const agent = await agentWithInbox(svc, tenant);
  await setPolicy(agent, 'allow_direct');
  return agent;
}

const messagesOf = async (agent: Agent, folder = 'INBOX') =>
  (await svc.api.get(`/v1/inboxes/${agent.inboxId}/messages?folder=${folder}&limit=100`, agent.key)).body.data as any[];

/** Waits for the `n`th mail in the agent's inbox and answers its thread the way an eager agent would. */
async function answer(agent: Agent, n: number) {
  const inbox = await waitFor(async () => {
    const list = await messagesOf(agent);
    return list.length >= n ? list : null;
  }, `${agent.address} to receive mail ${n}`);
  const r = await agent.api.post(`/v1/inboxes/${agent.inboxId}/reply`, { thread_id: inbox[0].thread_id, text: `Answer ${n}`, intent: INTENT }, agent.key);
  assert.equal(r.status, 202, r.text);
  return r.body;
}

test('two agents answering each other stop at the cap: the next reply is held with loop_suspected for a human, and every mail is kept', async () => {
  const a = await directAgent();
  const b = await directAgent();
  const first = await a.send({ to: b.address, subject: 'Ping', text: 'Shall we sync?', intent: INTENT });
  assert.equal(first.body.outcome, 'released');
  await a.until(first.body.review_id, 'auto_sent');

  // A sends 1 (above), then B and A alternate; A's fourth send into its thread is past LOOP_MAX_SENDS=3.
  const outcomes: Array<[string, string, string | null]> = [];
  let held: any = null;
  for (let turn = 1; turn <= 4 && !held; turn++) {
    for (const [agent, n] of [[b, turn], [a, turn]] as const) {
      const r = await answer(agent, n);
      outcomes.push([agent === a ? 'a' : 'b', r.outcome, r.review.mode_reason]);
      if (r.outcome !== 'released') {
        held = r;
        break;
      }
      await agent.until(r.review_id, 'auto_sent');
    }
  }
  assert.deepEqual(outcomes, [
    ['b', 'released', 'allow_direct'],
    ['a', 'released', 'allow_direct'],
    ['b', 'released', 'allow_direct'],
    ['a', 'released', 'allow_direct'],
    ['b', 'released', 'allow_direct'],
    ['a', 'queued_for_review', 'loop_suspected'],
  ]);
  const review = await a.review(held.review_id);
  assert.deepEqual([review.body.state, review.body.mode_reason, review.body.route, review.body.draft.text], ['needs_review', 'loop_suspected', 'human', 'Answer 3']);
  // Nothing lost: every mail sent is in the sender's SENT and the other's INBOX, and the held one waits.
  assert.equal((await messagesOf(a, 'SENT')).length, 3);
  assert.equal((await messagesOf(b, 'SENT')).length, 3);
  assert.equal((await messagesOf(b)).length, 3);
  assert.equal((await messagesOf(a)).length, 3);
  // A human may still let it go.
  assert.equal((await a.decide(held.review_id, { action: 'approve', parent_revision: 1 })).status, 200);
  await a.until(held.review_id, 'sent');
});

test("an auto-reply is marked on arrival; answering it says Auto-Submitted: auto-replied; answering an auto-reply to the agent's own mail is held", async () => {
  const agent = await directAgent();
  const sent = await agent.send({ to: 'dana@acme.example', subject: 'Tuesday demo', text: 'Tuesday 10:00?', intent: INTENT });
  await agent.until(sent.body.review_id, 'auto_sent');
  const messageId = `<${sent.body.review_id}.1@agents.test>`;

  // Dana's out-of-office answers the agent's mail.
  const ooo = [
    'From: Dana <dana@acme.example>',
    `To: ${agent.address}`,
    'Subject: Automatic reply: Tuesday demo',
    'Auto-Submitted: auto-replied',
    `In-Reply-To: ${messageId}`,
    `References: ${messageId}`,
    'Message-ID: <ooo-1@acme.example>',
    'Date: Thu, 26 Nov 2026 09:00:00 +0000',
    '',
    'I am out of the office until Monday.',
    '',
  ].join('\r\n');
  await sendRaw(svc, ooo, { from: 'dana@acme.example', to: [agent.address] });
  const got = await waitFor(async () => (await messagesOf(agent)).find((m) => m.message_id === '<ooo-1@acme.example>'), 'the auto-reply');
  assert.equal(got.auto_submitted, 'auto-submitted: auto-replied');
  const held = await agent.api.post(`/v1/inboxes/${agent.inboxId}/reply`, { thread_id: got.thread_id, text: 'Thanks, Monday then.', intent: INTENT }, agent.key);
  assert.equal(held.status, 202);
  assert.deepEqual([held.body.outcome, held.body.review.mode_reason], ['queued_for_review', 'loop_suspected']);

  // A newsletter (Precedence: bulk) the agent never wrote to: the answer goes out, marked as an auto-reply.
  const bulk = [
    'From: News <news@acme.example>',
    `To: ${agent.address}`,
    'Subject: This week at Acme',
    'Precedence: bulk',
    'Message-ID: <news-1@acme.example>',
    'Date: Thu, 26 Nov 2026 09:05:00 +0000',
    '',
    'Our news.',
    '',
  ].join('\r\n');
  await sendRaw(svc, bulk, { from: 'news@acme.example', to: [agent.address] });
  const news = await waitFor(async () => (await messagesOf(agent)).find((m) => m.message_id === '<news-1@acme.example>'), 'the newsletter');
  assert.equal(news.auto_submitted, 'precedence: bulk');
  const reply = await agent.api.post(`/v1/inboxes/${agent.inboxId}/reply`, { thread_id: news.thread_id, text: 'Please unsubscribe me.', intent: INTENT }, agent.key);
  assert.equal(reply.body.outcome, 'released');
  await agent.until(reply.body.review_id, 'auto_sent');
  const relayed = await waitFor(() => relay.received.find((m) => m.mail.messageId === `<${reply.body.review_id}.1@agents.test>`), 'the answer at the relay');
  assert.match(relayed.raw.toString(), /\r\nAuto-Submitted: auto-replied\r\n/);
  // An ordinary mail is not marked.
  await sendRaw(svc, 'From: Dana <dana@acme.example>\r\nTo: ' + agent.address + '\r\nSubject: Back now\r\nMessage-ID: <plain-1@acme.example>\r\n\r\nHi.\r\n', { from: 'dana@acme.example', to: [agent.address] });
  const plain = await waitFor(async () => (await messagesOf(agent)).find((m) => m.message_id === '<plain-1@acme.example>'), 'the plain mail');
  assert.equal(plain.auto_submitted, null);
});
