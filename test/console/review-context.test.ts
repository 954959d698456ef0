// What a reviewer needs beside a draft, in a real Chromium: a reply's conversation (the message
// being answered opened, its html in the mail viewer's sandboxed frame), To and Cc apart, the
// attachments, and the rules standing; and addresses that survive a reload, with back and forward.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { newId } from '../../storage/ids.ts';
import { insertMembership, upsertUser } from '../../storage/tenancy.ts';
import { seriousA11yViolations } from '../../testkit/browser.ts';
import { createTenant } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
import { INTENT, agentWithInbox, deliverInbound } from '../reviews/setup.ts';
import { noPageErrors, queue, select, showsRevision, startKit } from './queue-kit.ts';

const k = await startKit();
const { page, log, svc, agent } = k;

/** Dana writes in; the agent drafts a reply to her, with her colleague in Cc and a file attached. */
async function replyDraft(): Promise<{ id: string; threadId: string; messageId: string }> {
  await deliverInbound(svc, agent.address, {
    from: 'Dana <dana@acme.example>',
    subject: 'Refund for order 1182',
    text: 'Hello,\nthe blender arrived broken. Can I have my $50 back?\nDana',
    html: '<p>Hello,</p><p>the blender arrived <b>broken</b>.</p>',
  });
  const message = await waitFor(async () => (await svc.api.get(`/v1/inboxes/${agent.inboxId}/messages`, agent.key)).body.data[0], 'the mail to be stored');
  const r = await svc.api.post(
    `/v1/inboxes/${agent.inboxId}/reply`,
    {
      thread_id: message.thread_id,
      cc: ['lee@acme.example'],
      text: 'Hello Dana,\nwe refund $50.\nBest',
      intent: { summary: 'Refund Dana for the broken blender' },
      attachments: [{ filename: 'refund.txt', content_type: 'text/plain', content: Buffer.from('refund 50').toString('base64') }],
    },
    agent.key,
  );
  assert.equal(r.status, 202, r.text);
  return { id: r.body.review_id, threadId: message.thread_id, messageId: message.id };
}

test('a reply draft shows its conversation with the answered message open, To and Cc apart, its attachment and the rules standing', async () => {
  const { id } = await replyDraft();
  await select(page, id);
  await page.keyboard.press('Enter');
  await showsRevision(page, id, 1);
  const facts = page.locator('article.review dl.facts').first();
  assert.equal(await facts.locator('dt:text-is("To") + dd').innerText(), 'Dana <dana@acme.example>');
  assert.equal(await facts.locator('dt:text-is("Cc") + dd').innerText(), 'lee@acme.example');
  assert.match(await facts.locator('dt:text-is("Rules version") + dd').innerText(), /^0, current$/);
  assert.match(await page.locator('ul.attachments').innerText(), /refund\.txt \(text\/plain, 9 bytes\)/);
  const conversation = page.getByRole('region', { name: 'Conversation' });
  const answered = conversation.locator('details[open]');
  assert.match(await answered.locator('summary').innerText(), /Being answered: Dana <dana@acme\.example>, Refund for order 1182/);
  await answered.getByText('Can I have my $50 back?').waitFor();
  // The html in the same inert frame as the mail viewer's: sandboxed, no scripts.
  const frame = answered.locator('iframe.mail-html');
  assert.equal(await frame.getAttribute('sandbox'), 'allow-popups allow-popups-to-escape-sandbox');
  await answered.frameLocator('iframe.mail-html').getByText('broken').waitFor();
  assert.deepEqual(await seriousA11yViolations(page), [], 'the review page passes axe');
  noPageErrors(log);
});

test('a review and a message have addresses that survive a reload; back and forward work', async () => {
  const id = await queue(k, 'An address of its own');
  await select(page, id);
  await page.keyboard.press('Enter');
  await page.waitForURL(`${svc.url}/console/reviews/${id}`);
  await page.reload();
  await page.getByRole('heading', { name: 'An address of its own', level: 1 }).waitFor();
  await showsRevision(page, id, 1);
  await page.goBack();
  await page.getByRole('heading', { name: 'Review queue' }).waitFor();
  await page.goForward();
  await page.getByRole('heading', { name: 'An address of its own', level: 1 }).waitFor();
  // Escape goes back to the queue, as a link would.
  await page.keyboard.press('Escape');
  await page.waitForURL(`${svc.url}/console/`);

  // A message from the conversation: its own address in the mail viewer, after a reload too.
  const messages = (await svc.api.get(`/v1/inboxes/${agent.inboxId}/messages`, agent.key)).body.data;
  const m = messages.find((x: any) => x.subject === 'Refund for order 1182');
  await page.getByRole('button', { name: 'Mail', exact: true }).click();
  await page.getByRole('button', { name: 'Refund for order 1182' }).click();
  await page.waitForURL(`${svc.url}/console/mail/${agent.inboxId}/${m.id}`);
  await page.reload();
  await page.getByRole('heading', { name: 'Refund for order 1182' }).waitFor();
  await page.getByText('Can I have my $50 back?').waitFor();
  await page.goBack();
  await page.getByRole('heading', { name: 'Mail' }).waitFor();
  await page.goBack();
  await page.getByRole('heading', { name: 'Review queue' }).waitFor();
  noPageErrors(log);
});

test("a review's address opens in whichever of the member's projects has it", async () => {
  const other = await createTenant(svc, { plan: 'enterprise' });
  const user = await upsertUser(svc.services.db, newId('usr'), k.tenant.email);
  await insertMembership(svc.services.db, { org_id: other.orgId, user_id: user.id, project_id: null, role: 'owner' });
  const theirs = await agentWithInbox(svc, other);
  const sent = await theirs.send({ to: 'erin@globex.example', subject: 'In the other project', text: 'Hello Erin.', intent: INTENT });
  assert.equal(sent.status, 202, sent.text);
  // The page last showed the first project; the address alone brings the other one up.
  await page.goto(`${svc.url}/console/reviews/${sent.body.review_id}`);
  await page.getByRole('heading', { name: 'In the other project', level: 1 }).waitFor();
  assert.equal(await page.getByRole('combobox', { name: 'Project' }).inputValue(), `${other.orgId}/${other.projectId}`);
  // The first project was asked first and answered 404.
  noPageErrors(log, /404/);
});
