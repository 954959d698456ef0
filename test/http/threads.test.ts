import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { sendMail, sendRaw } from '../../testkit/mail.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';

const svc = await startTestService({ roles: ['api', 'smtp'] });
const tenant = await createTenant(svc, { plan: 'enterprise' });
const { agentKey } = await tenant.enroll('threader');

async function newInbox() {
  const r = await svc.api.post('/v1/inboxes', {}, agentKey);
  assert.equal(r.status, 201, r.text);
  return r.body as { id: string; address: string };
}

async function messagesBySubject(inboxId: string): Promise<Record<string, any>> {
  const r = await svc.api.get(`/v1/inboxes/${inboxId}/messages?limit=100`, agentKey);
  return Object.fromEntries(r.body.data.map((m: any) => [m.subject, m]));
}

test('a reply chain is one thread, its messages oldest first, last_message_id the newest', async () => {
  const inbox = await newInbox();
  await sendMail(svc, { from: 'Pat <pat@example.org>', to: inbox.address, subject: 'Quarterly numbers', text: 'Here they are.', messageId: '<q1@example.org>' });
  await sendMail(svc, {
    from: 'Sam <sam@example.org>',
    to: inbox.address,
    cc: 'pat@example.org',
    subject: 'Re: Quarterly numbers',
    text: 'Thanks!\n\n> Here they are.',
    messageId: '<q2@example.org>',
    inReplyTo: '<q1@example.org>',
    references: ['<q1@example.org>'],
  });
  await sendMail(svc, {
    from: 'pat@example.org',
    to: inbox.address,
    subject: 'RE: Re: Quarterly numbers',
    text: 'You are welcome.',
    messageId: '<q3@example.org>',
    inReplyTo: '<q2@example.org>',
    references: ['<q1@example.org>', '<q2@example.org>'],
  });
  await sendMail(svc, { from: 'other@example.org', to: inbox.address, subject: 'Unrelated', text: 'x', messageId: '<u1@example.org>' });

  const m = await messagesBySubject(inbox.id);
  const threadId = m['Quarterly numbers'].thread_id;
  assert.equal(m['Re: Quarterly numbers'].thread_id, threadId);
  assert.equal(m['RE: Re: Quarterly numbers'].thread_id, threadId);
  assert.notEqual(m.Unrelated.thread_id, threadId);

  const thread = await svc.api.get(`/v1/inboxes/${inbox.id}/threads/${threadId}`, agentKey);
  assert.equal(thread.status, 200, thread.text);
  assert.equal(thread.body.id, threadId);
  assert.equal(thread.body.subject, 'Quarterly numbers');
  assert.equal(thread.body.message_count, 3);
  assert.deepEqual(thread.body.messages.map((x: any) => x.message_id), ['<q1@example.org>', '<q2@example.org>', '<q3@example.org>']);
  assert.equal(thread.body.last_message_id, m['RE: Re: Quarterly numbers'].id);
  assert.equal(thread.body.messages[2].id, thread.body.last_message_id);
  assert.equal(thread.body.messages[1].text.trimEnd(), 'Thanks!\n\n> Here they are.');
  assert.equal(thread.body.messages[1].extracted_text.trim(), 'Thanks!');
  assert.deepEqual([...thread.body.participants].sort(), [inbox.address, 'pat@example.org', 'sam@example.org'].sort());

  const list = await svc.api.get(`/v1/inboxes/${inbox.id}/threads`, agentKey);
  assert.equal(list.status, 200);
  assert.deepEqual(list.body.data.map((t: any) => t.subject), ['Unrelated', 'Quarterly numbers'], 'most recently active first');
  assert.equal(list.body.data[1].message_count, 3);
  assert.ok(!('messages' in list.body.data[0]));

  const paged = await svc.api.get(`/v1/inboxes/${inbox.id}/threads?limit=1`, agentKey);
  assert.equal(paged.body.has_more, true);
  const rest = await svc.api.get(`/v1/inboxes/${inbox.id}/threads?limit=1&cursor=${paged.body.next_cursor}`, agentKey);
  assert.deepEqual(rest.body.data.map((t: any) => t.id), [threadId]);
  assert.equal(rest.body.has_more, false);

  const missing = await svc.api.get(`/v1/inboxes/${inbox.id}/threads/thr_missing`, agentKey);
  assert.equal(missing.status, 404);
  assert.equal(missing.body.code, 'not_found');
});

test('a reply that arrives before the message it answers still shares its thread', async () => {
  const inbox = await newInbox();
  await sendMail(svc, { from: 'b@example.org', to: inbox.address, subject: 'Re: Early bird', text: 'reply first', messageId: '<late-2@example.org>', inReplyTo: '<late-1@example.org>', references: ['<late-1@example.org>'] });
  await sendMail(svc, { from: 'a@example.org', to: inbox.address, subject: 'Early bird', text: 'original second', messageId: '<late-1@example.org>' });
  const m = await messagesBySubject(inbox.id);
  assert.equal(m['Early bird'].thread_id, m['Re: Early bird'].thread_id);
});

test('two replies to a message never received here share one thread', async () => {
  const inbox = await newInbox();
  for (const [i, from] of [['1', 'x@example.org'], ['2', 'y@example.org']]) {
    await sendMail(svc, { from, to: inbox.address, subject: `Re: Outside ${i}`, text: 'r', messageId: `<outside-r${i}@example.org>`, inReplyTo: '<outside-root@example.org>', references: ['<outside-root@example.org>'] });
  }
  const m = await messagesBySubject(inbox.id);
  assert.equal(m['Re: Outside 1'].thread_id, m['Re: Outside 2'].thread_id);
});

test('without references, a reply-prefixed subject from a participant joins the recent same-subject thread', async () => {
  const inbox = await newInbox();
  await sendMail(svc, { from: 'lee@example.org', to: inbox.address, cc: 'kim@example.org', subject: '[team] Lunch on Friday?', text: 'Who is in?' });
  // A client that drops In-Reply-To and References, and no Message-ID at all.
  await sendRaw(svc, `From: kim@example.org\r\nTo: ${inbox.address}, lee@example.org\r\nSubject: Re: [team] Lunch on Friday?\r\n\r\nMe!\r\n`, {
    from: 'kim@example.org',
    to: [inbox.address],
  });
  await sendRaw(svc, `From: lee@example.org\r\nTo: ${inbox.address}\r\nSubject: AW: Lunch on Friday?\r\n\r\nGreat.\r\n`, { from: 'lee@example.org', to: [inbox.address] });
  // Same subject but no reply prefix: a new conversation.
  await sendMail(svc, { from: 'lee@example.org', to: inbox.address, subject: 'Lunch on Friday?', text: 'Again next week?' });
  // Reply prefix but from someone who never took part.
  await sendMail(svc, { from: 'stranger@example.org', to: inbox.address, subject: 'Re: [team] Lunch on Friday?', text: 'spam' });

  const r = await svc.api.get(`/v1/inboxes/${inbox.id}/messages?limit=100`, agentKey);
  const byText = Object.fromEntries(r.body.data.map((m: any) => [m.preview, m.thread_id]));
  assert.equal(byText['Me!'], byText['Who is in?']);
  assert.equal(byText['Great.'], byText['Who is in?'], 'another prefix (AW:) and a dropped list tag still match');
  assert.notEqual(byText['Again next week?'], byText['Who is in?']);
  assert.notEqual(byText.spam, byText['Who is in?']);
});

test('concurrent replies to one message all land in its thread', async () => {
  const inbox = await newInbox();
  await Promise.all([
    sendMail(svc, { from: 'o@example.org', to: inbox.address, subject: 'Burst', text: 'root', messageId: '<burst-root@example.org>' }),
    ...Array.from({ length: 6 }, (_, i) =>
      sendMail(svc, { from: 'o@example.org', to: inbox.address, subject: `Re: Burst ${i}`, text: `reply ${i}`, messageId: `<burst-${i}@example.org>`, inReplyTo: '<burst-root@example.org>', references: ['<burst-root@example.org>'] }),
    ),
  ]);
  const r = await svc.api.get(`/v1/inboxes/${inbox.id}/messages?limit=100`, agentKey);
  assert.equal(r.body.data.length, 7);
  assert.equal(new Set(r.body.data.map((m: any) => m.thread_id)).size, 1);
  const thread = await svc.api.get(`/v1/inboxes/${inbox.id}/threads/${r.body.data[0].thread_id}`, agentKey);
  assert.equal(thread.body.message_count, 7);
  assert.equal(thread.body.last_message_id, r.body.data[0].id, 'the newest stored message is the last');
});
