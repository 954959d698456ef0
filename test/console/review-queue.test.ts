// The review queue in a real Chromium, worked the way a person works it: sign in with a one-time
// link, watch a send arrive without reloading, and decide with the keyboard alone: every form
// submits with Ctrl+Enter and discards with Escape. The relay is a real SMTP server on loopback;
// what it receives is what the human decided.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { newVisitor, openPage, seriousA11yViolations } from '../../testkit/browser.ts';
import { createTenant } from '../../testkit/service.ts';
import { feedbackOf, focused, noPageErrors, queue, received, row, select, signInLink, startKit } from './queue-kit.ts';

const k = await startKit();
const { page, log, svc, tenant, agent, relay, browser } = k;

test('a one-time sign-in link opens the queue and leaves no code in the address bar', async () => {
  assert.equal(await page.getByText(tenant.email).count(), 1);
  assert.equal(new URL(page.url()).hash, '');
  const cookies = await page.context().cookies(svc.url);
  assert.deepEqual(cookies.map((c) => [c.name, c.httpOnly, c.sameSite]), [['agent_inbox_session', true, 'Strict']]);
  // A spent link asks for a sign-in instead.
  const link = await signInLink(svc, tenant.email);
  const { page: first } = await openPage(await newVisitor(browser));
  await first.goto(link);
  await first.getByRole('heading', { name: 'Review queue' }).waitFor();
  const { page: second } = await openPage(await newVisitor(browser));
  await second.goto(link);
  await second.getByRole('heading', { name: 'Sign in to agent-inbox' }).waitFor();
  await second.getByRole('alert').getByText(/not valid/).waitFor();
  noPageErrors(log);
});

test('a send queued over the API appears in the open queue without a reload, whole in the preview pane; the page passes axe', async () => {
  const navigations: string[] = [];
  page.on('framenavigated', (f) => navigations.push(f.url()));
  const id = await queue(k, 'Live arrival');
  await row(page, id).waitFor();
  assert.match(await row(page, id).innerText(), /Live arrival[\s\S]*Confirm the Tuesday demo[\s\S]*dana@acme\.example/);
  await select(page, id);
  const pane = page.getByRole('region', { name: 'Selected review' });
  assert.match(await pane.innerText(), /To\s+dana@acme\.example[\s\S]*Intent\s+Confirm the Tuesday demo[\s\S]*the demo is on Tuesday at 10\./);
  assert.match(await row(page, id).locator('time').innerText(), /just now|min ago/);
  assert.ok(await row(page, id).locator('time').getAttribute('title'), 'the exact time on hover');
  assert.deepEqual(navigations, [], 'the page did not reload');
  assert.deepEqual(await seriousA11yViolations(page), []);
  noPageErrors(log);
});

test('a approves the review whole in the preview pane and the relay receives it', async () => {
  const id = await queue(k, 'Approve me');
  await select(page, id);
  await page.keyboard.press('a');
  const mail = await received(k, 'Approve me');
  assert.match(mail.mail.text!, /the demo is on Tuesday at 10/);
  await page.getByRole('status').getByText('Approved Approve me.').waitFor();
  await row(page, id).waitFor({ state: 'detached' });
  noPageErrors(log);
});

test('e, text, Ctrl+Enter shows the diff, Ctrl+Enter sends: the relay gets the edited text and the agent the diff', async () => {
  const id = await queue(k, 'Edit me');
  await select(page, id);
  await page.keyboard.press('e');
  await focused(page, 'Text');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\nP.S. Coffee is on us.');
  await page.keyboard.press('Control+Enter');
  const changes = page.getByRole('region', { name: 'Changes to send' });
  await changes.waitFor();
  assert.match(await changes.innerText(), /added:\s*P\.S\. Coffee is on us\./);
  // The next key is expected on the send: the keyboard is there.
  await page.waitForFunction(() => document.activeElement?.textContent?.startsWith('Send edit'));
  assert.equal(relay.received.some((m) => m.mail.subject === 'Edit me'), false, 'nothing is sent before the diff is confirmed');
  assert.deepEqual(await seriousA11yViolations(page), [], 'the edit form with its diff passes axe');
  await page.keyboard.press('Control+Enter');
  const mail = await received(k, 'Edit me');
  assert.match(mail.mail.text!, /the demo is on Tuesday at 10\.\nBest\nP\.S\. Coffee is on us\./);
  const edit = (await feedbackOf(k, id)).find((f: any) => f.kind === 'edit');
  assert.deepEqual(edit.diff.find((d: any) => d.field === 'text').lines.filter((l: any) => l.op !== ' '), [{ op: '+', line: 'P.S. Coffee is on us.' }]);
  await page.getByRole('status').getByText('Edited and sent Edit me.').waitFor();
  noPageErrors(log);
});

test('r, feedback, Ctrl+Enter rejects with feedback that reaches the agent', async () => {
  const id = await queue(k, 'Reject me');
  await select(page, id);
  await page.keyboard.press('r');
  await focused(page, 'Feedback for the agent');
  await page.keyboard.type('Too early; wait for Dana to confirm the room.');
  await page.keyboard.press('Control+Enter');
  const review = await agent.until(id, 'rejected');
  assert.equal(review.feedback, 'Too early; wait for Dana to confirm the room.');
  assert.equal(relay.received.some((m) => m.mail.subject === 'Reject me'), false);
  noPageErrors(log);
});

test('? lists the keys; c chats with Ctrl+Enter; Escape discards a form; x asks before it cancels', async () => {
  const id = await queue(k, 'Talk first');
  await select(page, id);
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard' });
  await help.waitFor();
  assert.deepEqual(await help.locator('kbd').allInnerTexts(), ['j', 'k', 'Enter', 'a', 'e', 'r', 'c', 'x', 'Ctrl+Enter', 'Escape', '?']);
  await page.keyboard.press('Escape');
  await help.waitFor({ state: 'detached' });
  // Escape in a form throws it away and gives the keyboard back to the review.
  await page.keyboard.press('r');
  await focused(page, 'Feedback for the agent');
  await page.keyboard.type('not this');
  await page.keyboard.press('Escape');
  await page.getByLabel('Feedback for the agent').waitFor({ state: 'detached' });
  await page.keyboard.press('c');
  await focused(page, 'Message to the agent');
  await page.keyboard.type('Is Dana the right contact, or her assistant?');
  await page.keyboard.press('Control+Enter');
  await agent.until(id, 'chatting');
  assert.equal((await feedbackOf(k, id)).at(-1).message, 'Is Dana the right contact, or her assistant?');
  await page.locator('dd').filter({ hasText: 'chatting' }).waitFor(); // the open review is read again
  // x asks first; Escape keeps the review, x and Ctrl+Enter cancel it.
  await page.keyboard.press('x');
  await focused(page, 'Why cancel (optional)');
  await page.keyboard.press('Escape');
  await page.getByLabel('Why cancel (optional)').waitFor({ state: 'detached' });
  assert.equal((await agent.review(id)).body.state, 'chatting', 'nothing was cancelled');
  await page.keyboard.press('x');
  await focused(page, 'Why cancel (optional)');
  await page.keyboard.type('Dana left Acme.');
  await page.keyboard.press('Control+Enter');
  await agent.until(id, 'cancelled');
  await row(page, id).waitFor({ state: 'detached' });
  noPageErrors(log);
});

test('a console user of another org sees nothing of this one: no reviews, no events, 404 on its API', async () => {
  const stranger = await createTenant(svc);
  const { page: theirs, log: theirLog } = await openPage(await newVisitor(browser));
  await theirs.goto(await signInLink(svc, stranger.email));
  await theirs.getByText('Nothing waits for review.').waitFor();
  const id = await queue(k, 'Not for strangers');
  await row(page, id).waitFor(); // the owner's page has it, so the event was published
  assert.equal(await theirs.getByText('Not for strangers').count(), 0);
  const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;
  const statuses = await theirs.evaluate(
    async (paths) => Promise.all(paths.map(async (p) => (await fetch(p)).status)),
    [`${A}/reviews`, `${A}/reviews/${id}`, `${A}/events/stream`],
  );
  assert.deepEqual(statuses, [404, 404, 404]);
  // Its own deep link to a review of this org says so, and shows nothing of it.
  await theirs.goto(`${svc.url}/console/reviews/${id}`);
  await theirs.getByRole('alert').getByText('No such review in this project.').waitFor();
  noPageErrors(theirLog, /404/);
});
