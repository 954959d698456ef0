// Deciding by replying to a review notice, over real SMTP with a DNS server on loopback: the
// member's domain publishes a DKIM key and DMARC p=reject (and no SPF), so only a signed reply
// from the member's address counts. Refused replies change nothing and the member is told why.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, test } from '../../testkit/test.ts';
import MailComposer from 'nodemailer/lib/mail-composer';
import { parseReply } from '../../actors/notification-replies.ts';
import { signDkim } from '../../mail/outbound/dkim.ts';
import { startTestDns } from '../../testkit/dns.ts';
import { sendMail, sendRaw } from '../../testkit/mail.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
import { startRelay, type Received } from '../../testkit/relay.ts';
import { INTENT, agentWithInbox } from './setup.ts';

const dns = await startTestDns();
const relay = await startRelay();
after(() => relay.close());
const svc = await startTestService({
  env: { SMTP_URL: relay.url, SYSTEM_FROM: 'reviews@agents.test', REVIEW_NOTIFICATIONS: 'true', DNS_SERVERS: dns.server, INBOUND_AUTH_TIMEOUT_SECONDS: '2' },
});
const db = svc.services.db;

const key = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = key.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
dns.txt('sel._domainkey.people.example', `v=DKIM1; k=rsa; p=${key.publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`);
dns.txt('_dmarc.people.example', 'v=DMARC1; p=reject');

let seq = 0;
const mailsTo = (email: string) => relay.received.filter((m) => m.to.includes(email));
const waitMail = (email: string, what: string, n = 1) => waitFor(() => (mailsTo(email).length >= n ? mailsTo(email)[n - 1] : null), what);

async function waitingReview(subject: string) {
  const email = `alice.${++seq}.${Date.now()}@people.example`;
  const t = await createTenant(svc, { plan: 'enterprise', email });
  const agent = await agentWithInbox(svc, t);
  const r = await agent.send({ to: 'Dana <dana@acme.example>', subject, text: `Body of ${subject}.`, intent: INTENT });
  assert.equal(r.status, 202, r.text);
  const notice = await waitMail(email, 'the notification');
  const replyTo = notice.mail.replyTo?.value[0]?.address ?? '';
  assert.match(replyTo, /^decide\+[0-9a-z]+\.[0-9a-f]+@agents\.test$/);
  return { t, email, agent, id: r.body.review_id as string, replyTo, notice };
}

async function reply(o: { from: string; to: string; text: string; sign: boolean; notice: Received }) {
  const composer = new MailComposer({
    from: o.from,
    to: o.to,
    subject: `Re: ${o.notice.mail.subject}`,
    text: `${o.text}\n\nOn Tuesday, reviews@agents.test wrote:\n> ${o.notice.mail.text?.split('\n')[0]}\n`,
    messageId: `<${crypto.randomUUID()}@people.example>`,
    inReplyTo: o.notice.mail.messageId,
  });
  const raw = await new Promise<Buffer>((resolve, reject) => composer.compile().build((err, m) => (err ? reject(err) : resolve(m))));
  const signed = o.sign ? await signDkim(raw, { domainName: 'people.example', keySelector: 'sel', privateKey: pem }) : raw;
  await sendRaw(svc, signed, { from: o.from, to: [o.to] });
}

const history = async (r: { agent: any; id: string; t: any }) => (await svc.api.get(`${r.agent.A}/reviews/${r.id}/notifications`, r.t.consoleToken)).body;
const eventTypes = async (orgId: string) =>
  (await db.query(`SELECT type FROM events WHERE org_id = $1 AND type LIKE 'notification.reply%' ORDER BY id`, [orgId])).rows.map((e) => e.type);

test('"approve" from the member\'s address, DKIM-signed, decides: the mail is sent once and the decision is recorded as the member\'s, by reply', async () => {
  const r = await waitingReview('Reply approve');
  await reply({ from: r.email, to: r.replyTo, text: 'Approve', sign: true, notice: r.notice });
  await r.agent.until(r.id, 'sent');
  await waitFor(() => mailsTo('dana@acme.example').some((m) => m.mail.subject === 'Reply approve'), 'the approved mail');
  assert.equal(mailsTo('dana@acme.example').filter((m) => m.mail.subject === 'Reply approve').length, 1);
  assert.deepEqual((await history(r)).decisions.map((d: any) => [d.action, d.email, d.via]), [['approve', r.email, 'mail_reply']]);
  assert.deepEqual(await eventTypes(r.t.orgId), ['notification.reply_taken']);
  const stored = await db.query('SELECT count(*)::int AS n FROM messages WHERE org_id = $1', [r.t.orgId]);
  assert.equal(stored.rows[0].n, 1, 'the reply is stored in no inbox (only the sent mail is)');
});

test('the same reply unsigned, or signed but from another address, is refused with a short notice to the member, and nothing changes', async () => {
  const r = await waitingReview('Reply refused');
  await reply({ from: r.email, to: r.replyTo, text: 'approve', sign: false, notice: r.notice });
  const first = await waitMail(r.email, 'the first refusal notice', 2);
  assert.match(first.mail.subject ?? '', /not taken/);
  assert.match(first.mail.text ?? '', /could not be verified/);

  await reply({ from: `mallory.${Date.now()}@people.example`, to: r.replyTo, text: 'approve', sign: true, notice: r.notice });
  const second = await waitMail(r.email, 'the second refusal notice', 3);
  assert.match(second.mail.text ?? '', /not from the address the notice was sent to/);

  const review = await r.agent.review(r.id);
  assert.equal(review.body.state, 'needs_review');
  assert.deepEqual((await history(r)).decisions, []);
  assert.deepEqual(await eventTypes(r.t.orgId), ['notification.reply_refused', 'notification.reply_refused']);
  assert.equal(mailsTo('dana@acme.example').filter((m) => m.mail.subject === 'Reply refused').length, 0);
});

test('free text becomes a chat message the agent sees in its review events; "reject" with feedback then rejects', async () => {
  const r = await waitingReview('Reply chat');
  await reply({ from: r.email, to: r.replyTo, text: 'Which Tuesday do you mean?', sign: true, notice: r.notice });
  const events = await waitFor(async () => {
    const e = await r.agent.drain();
    return e.some((x: any) => x.type === 'review.chat') ? e : null;
  }, 'the chat in the agent\'s review events');
  assert.deepEqual(events.map((e: any) => e.type), ['review.created', 'review.in_review', 'review.chat']);
  const feedback = await r.agent.api.get(`/v1/reviews/${r.id}/feedback`, r.agent.key);
  assert.equal(feedback.status, 200, feedback.text);
  const items = feedback.body.data ?? feedback.body.items ?? feedback.body;
  assert.ok(JSON.stringify(items).includes('Which Tuesday do you mean?'), 'the agent reads the message');

  await reply({ from: r.email, to: r.replyTo, text: 'reject: say the 14th.', sign: true, notice: r.notice });
  await r.agent.until(r.id, 'rejected');
  const review = await svc.api.get(`${r.agent.A}/reviews/${r.id}`, r.t.consoleToken);
  assert.deepEqual(review.body.feedback_history.map((f: any) => [f.kind, f.author_email]), [['chat', r.email], ['reject', r.email]]);
  assert.equal(review.body.feedback, 'say the 14th.');
});

test('a reply address whose signature does not verify is refused at RCPT', async () => {
  const r = await waitingReview('Forged address');
  const forged = r.replyTo.replace(/\.([0-9a-f])/, (_m, c) => `.${c === '0' ? '1' : '0'}`);
  await assert.rejects(sendMail(svc, { from: r.email, to: forged, subject: 'approve', text: 'approve' }), /550/);
  assert.equal((await r.agent.review(r.id)).body.state, 'needs_review');
});

test('the first line decides: approve, reject with feedback, otherwise chat; the quoted notice is ignored', () => {
  assert.deepEqual(parseReply('approve\n\nOn Mon, x wrote:\n> reject'), { action: 'approve' });
  assert.deepEqual(parseReply('Reject - too pushy\nsoften the close'), { action: 'reject', feedback: 'too pushy\nsoften the close' });
  assert.deepEqual(parseReply('reject'), { action: 'reject', feedback: null });
  assert.deepEqual(parseReply('approve, but later'), { action: 'chat', message: 'approve, but later' });
  assert.equal(parseReply('> only a quote'), null);
});
