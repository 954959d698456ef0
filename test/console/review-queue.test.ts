// The review queue in a real Chromium, worked the way a person works it: sign in with a one-time
// link, watch a send arrive without reloading, and decide with the keyboard alone. The relay is a
// real SMTP server on loopback; what it receives is what the human decided.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { Page } from 'playwright-core';
import { createSignInLink } from '../../actors/console-sessions.ts';
import { launchBrowser, newVisitor, openPage, seriousA11yViolations, type PageLog } from '../helpers/browser.ts';
import { createTenant, startTestService } from '../helpers/service.ts';
import { waitFor } from '../helpers/wait.ts';
import { startRelay } from '../reviews/relay.ts';
import { INTENT, agentWithInbox } from '../reviews/setup.ts';

const browser = await launchBrowser();
const relay = await startRelay();
const svc = await startTestService({ env: { SMTP_URL: relay.url } });
after(() => relay.close());
const tenant = await createTenant(svc, { plan: 'enterprise' });
const agent = await agentWithInbox(svc, tenant);
const owner = await newVisitor(browser);
const { page, log } = await openPage(owner);

async function signInLink(email: string): Promise<string> {
  return (await createSignInLink(svc.services.db, svc.services.identity, { email, baseUrl: svc.url, now: new Date() })).url;
}

/** Queues a draft over the agent API; its subject is unique to the caller. */
async function queue(subject: string, text = 'Hello Dana,\nthe demo is on Tuesday at 10.\nBest'): Promise<string> {
  const r = await agent.send({ to: 'dana@acme.example', subject, text, intent: INTENT });
  assert.equal(r.status, 202, r.text);
  return r.body.review_id;
}

/** The queue row of a review, once the page shows it. */
const row = (p: Page, id: string) => p.locator(`tr[data-review="${id}"]`);
const received = (subject: string) => waitFor(() => relay.received.find((m) => m.mail.subject === subject), `the relay to receive "${subject}"`);
/** No console errors (CSP violations among them), exceptions or failed requests but those `expected`; the log starts afresh. */
function noPageErrors(l: PageLog, expected?: RegExp): void {
  const errors = l.errors.splice(0);
  assert.deepEqual(errors.filter((e) => !expected?.test(e)), [], 'nothing unexpected went wrong in the page');
}

/** Waits until the field has the keyboard: typed keys are text there, not commands. */
async function focused(p: Page, label: string): Promise<void> {
  const field = await p.getByLabel(label).elementHandle();
  await p.waitForFunction((el) => el === document.activeElement, field, { timeout: 10_000 });
}

/** Moves the selection to the review's row with j/k, as a person would, from the queue. */
async function select(p: Page, id: string): Promise<void> {
  if (await p.getByRole('heading', { name: 'Review queue' }).count() === 0) await p.keyboard.press('Escape');
  await row(p, id).waitFor();
  const ids = await p.locator('tr[data-review]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-review')));
  for (let i = 0; i < ids.length; i++) await p.keyboard.press('k');
  for (let i = 0; i < ids.indexOf(id); i++) await p.keyboard.press('j');
  assert.equal(await row(p, id).getAttribute('aria-current'), 'true');
}

test('a one-time sign-in link opens the queue and leaves no code in the address bar', async () => {
  const link = await signInLink(tenant.email);
  await page.goto(link);
  await page.getByRole('heading', { name: 'Review queue' }).waitFor();
  assert.equal(await page.getByText(tenant.email).count(), 1);
  assert.equal(new URL(page.url()).hash, '');
  const cookies = await owner.cookies(svc.url);
  assert.deepEqual(cookies.map((c) => [c.name, c.httpOnly, c.sameSite]), [['agent_inbox_session', true, 'Strict']]);
  // The same link a second time is spent: the page asks for a sign-in instead.
  const { page: second } = await openPage(await newVisitor(browser));
  await second.goto(link);
  await second.getByRole('heading', { name: 'Sign in to agent-inbox' }).waitFor();
  await second.getByRole('alert').getByText(/not valid/).waitFor();
  noPageErrors(log);
});

test('a send queued over the API appears in the open queue without a reload; the queue passes axe', async () => {
  const navigations: string[] = [];
  page.on('framenavigated', (f) => navigations.push(f.url()));
  const id = await queue('Live arrival');
  await row(page, id).waitFor();
  assert.match(await row(page, id).innerText(), /dana@acme\.example[\s\S]*Live arrival[\s\S]*Confirm the Tuesday demo/);
  assert.deepEqual(navigations, [], 'the page did not reload');
  assert.deepEqual(await seriousA11yViolations(page), []);
  await select(page, id);
  await page.keyboard.press('x');
  await agent.until(id, 'cancelled');
  noPageErrors(log);
});

test('a approves the selected review and the relay receives it', async () => {
  const id = await queue('Approve me');
  await select(page, id);
  await page.keyboard.press('a');
  const mail = await received('Approve me');
  assert.match(mail.mail.text!, /the demo is on Tuesday at 10/);
  await page.getByRole('status').getByText('Approved Approve me.').waitFor();
  await row(page, id).waitFor({ state: 'detached' });
  noPageErrors(log);
});

test('e edits in place, shows the diff before sending; the relay gets the edited text and the agent the diff', async () => {
  const id = await queue('Edit me');
  await select(page, id);
  await page.keyboard.press('e');
  await focused(page, 'Text');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\nP.S. Coffee is on us.');
  // Keyboard alone: Tab to "Show changes", Enter; the diff is shown before anything is sent.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  const changes = page.getByRole('region', { name: 'Changes to send' });
  await changes.waitFor();
  assert.match(await changes.innerText(), /added:\s*P\.S\. Coffee is on us\./);
  assert.equal(relay.received.some((m) => m.mail.subject === 'Edit me'), false, 'nothing is sent before the diff is confirmed');
  assert.deepEqual(await seriousA11yViolations(page), [], 'the review view passes axe');
  await changes.getByRole('button', { name: 'Send edit' }).focus();
  await page.keyboard.press('Enter');
  const mail = await received('Edit me');
  assert.match(mail.mail.text!, /the demo is on Tuesday at 10\.\nBest\nP\.S\. Coffee is on us\./);
  const feedback = await svc.api.get(`/v1/reviews/${id}/feedback`, agent.key);
  const edit = feedback.body.data.find((f: any) => f.kind === 'edit');
  assert.deepEqual(edit.diff.find((d: any) => d.field === 'text').lines.filter((l: any) => l.op !== ' '), [{ op: '+', line: 'P.S. Coffee is on us.' }]);
  noPageErrors(log);
});

test('r rejects with feedback that reaches the agent', async () => {
  const id = await queue('Reject me');
  await select(page, id);
  await page.keyboard.press('r');
  await focused(page, 'Feedback for the agent');
  await page.keyboard.type('Too early; wait for Dana to confirm the room.');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  const review = await agent.until(id, 'rejected');
  assert.equal(review.feedback, 'Too early; wait for Dana to confirm the room.');
  assert.equal(relay.received.some((m) => m.mail.subject === 'Reject me'), false);
  noPageErrors(log);
});

test('? lists the keys; c chats with the agent, Esc goes back, x cancels', async () => {
  const id = await queue('Talk first');
  await select(page, id);
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard' });
  await help.waitFor();
  const listed = await help.locator('kbd').allInnerTexts();
  assert.deepEqual(listed, ['j', 'k', 'Enter', 'a', 'e', 'r', 'c', 'x', 'Escape', '?']);
  await page.keyboard.press('Escape');
  await help.waitFor({ state: 'detached' });
  await page.keyboard.press('c');
  await focused(page, 'Message to the agent');
  await page.keyboard.type('Is Dana the right contact, or her assistant?');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await agent.until(id, 'chatting');
  const feedback = await svc.api.get(`/v1/reviews/${id}/feedback`, agent.key);
  assert.equal(feedback.body.data.at(-1).message, 'Is Dana the right contact, or her assistant?');
  await page.locator('dd').filter({ hasText: 'chatting' }).waitFor(); // the open review is read again
  await page.keyboard.press('x');
  await agent.until(id, 'cancelled');
  await page.getByRole('heading', { name: 'Review queue' }).waitFor();
  noPageErrors(log);
});

test('a decision on a review that moved on shows the 409 facts and the legal verbs, and one of them completes it', async () => {
  const id = await queue('Moving target');
  await select(page, id);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Moving target' }).waitFor();
  // The agent revises while the human reads revision 1.
  const revised = await svc.api.post(`/v1/reviews/${id}/revisions`, { parent_revision: 1, text: 'Revised: the demo moves to Wednesday.' }, agent.key);
  assert.equal(revised.status, 200, revised.text);
  await page.keyboard.press('a');
  const alert = page.getByRole('alert').filter({ hasText: 'This review moved on' });
  await alert.waitFor();
  const shown = await alert.innerText();
  assert.match(shown, /approve was not applied/);
  assert.match(shown, /stale/);
  assert.match(shown, /revision 2/);
  assert.match(shown, /Legal now: .*approve/);
  assert.equal(relay.received.some((m) => m.mail.subject === 'Moving target'), false, 'the stale approval sent nothing');
  await alert.getByRole('button', { name: 'approve' }).click();
  const mail = await received('Moving target');
  assert.match(mail.mail.text!, /Revised: the demo moves to Wednesday\./);
  noPageErrors(log, /409/);
});

test('a console user of another org sees nothing of this one: no reviews, no events, 404 on its API', async () => {
  const stranger = await createTenant(svc);
  const { page: theirs, log: theirLog } = await openPage(await newVisitor(browser));
  await theirs.goto(await signInLink(stranger.email));
  await theirs.getByText('Nothing waits for review.').waitFor();
  const id = await queue('Not for strangers');
  await row(page, id).waitFor(); // the owner's page has it, so the event was published
  assert.equal(await theirs.getByText('Not for strangers').count(), 0);
  const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;
  const statuses = await theirs.evaluate(
    async (paths) => Promise.all(paths.map(async (p) => (await fetch(p)).status)),
    [`${A}/reviews`, `${A}/reviews/${id}`, `${A}/events/stream`],
  );
  assert.deepEqual(statuses, [404, 404, 404]);
  noPageErrors(theirLog, /404/);
});
