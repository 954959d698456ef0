// The settings a human owns over where work goes, in a real Chromium: webhooks with their delivery
// log and redelivery (a real receiver on loopback), review links, categories with their rungs and
// writing rules. Each change made in the page is checked through the API; refusals are shown with
// their code, the field named and the facts of a 409; another org's user sees none of it.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import type { Page } from 'playwright-core';
import { createSignInLink } from '../../actors/console-sessions.ts';
import { launchBrowser, newVisitor, openPage, seriousA11yViolations, type PageLog } from '../../testkit/browser.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
import { addInbox, receiveMessage, startReceiver } from '../events/helpers.ts';

const browser = await launchBrowser();
const svc = await startTestService();
const tenant = await createTenant(svc, { plan: 'enterprise' });
const composer = await tenant.enroll('composer-bot');
const reviewer = await tenant.enroll('reviewer-bot');
const inbox = await addInbox(svc, tenant, composer.agentId);
const receiver = await startReceiver();
const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;
const { page, log } = await openPage(await newVisitor(browser));

async function signIn(p: Page, email: string): Promise<void> {
  const { url } = await createSignInLink(svc.services.db, svc.services.identity, { email, baseUrl: svc.url, now: new Date() });
  await p.goto(url);
  await p.getByRole('heading', { name: 'Review queue' }).waitFor();
}

async function area(p: Page, name: string): Promise<void> {
  await p.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Settings' }).click();
  await p.getByRole('navigation', { name: 'Settings' }).getByRole('button', { name }).click();
  await p.getByRole('heading', { name, level: 2 }).waitFor();
}

function noPageErrors(l: PageLog, expected?: RegExp): void {
  const errors = l.errors.splice(0);
  assert.deepEqual(errors.filter((e) => !expected?.test(e)), [], 'nothing unexpected went wrong in the page');
}

test('a webhook registered in the page shows its secret once; its delivery log redelivers to the receiver; it is moved, deactivated, reactivated and its secret rotated; delete removes it', async () => {
  await signIn(page, tenant.email);
  await area(page, 'Webhooks');
  await page.getByLabel('URL').fill(`${receiver.url}/hook`);
  await page.getByLabel('Owning agent').selectOption({ label: 'composer-bot' });
  await page.getByLabel('Inbox').selectOption({ label: inbox.address });
  await page.getByRole('button', { name: 'Register webhook' }).click();
  const field = page.getByLabel('Signing secret', { exact: true });
  await field.waitFor();
  const secret = await field.inputValue();
  assert.match(secret, /^whsec_/);
  assert.deepEqual(await seriousA11yViolations(page), [], 'the webhooks view, with a secret shown, passes axe');
  await page.getByRole('button', { name: 'Done, hide it' }).click();
  await field.waitFor({ state: 'detached' });
  assert.equal((await page.content()).includes(secret), false, 'the page no longer holds the secret');

  const listed = await svc.api.get(`${A}/webhooks`, tenant.consoleToken);
  assert.equal(listed.text.includes(secret), false, 'the API never reads the secret back');
  const hook = listed.body.items.find((w: any) => w.url === `${receiver.url}/hook`);
  assert.equal(hook.agent_id, composer.agentId);
  assert.equal(hook.inbox_id, inbox.id);

  await receiveMessage(svc, inbox);
  await waitFor(() => receiver.requests.length === 1, 'the first delivery');
  const item = page.locator(`li[data-webhook="${hook.id}"]`);
  await item.getByRole('button', { name: 'Delivery log' }).click();
  const logView = page.getByRole('region', { name: `Delivery log of ${receiver.url}/hook` });
  // The delivery is recorded as it ends; the log is read again until it shows the success.
  await waitFor(async () => {
    await logView.getByRole('button', { name: 'Refresh the log' }).click();
    return (await logView.locator('tr[data-delivery]').first().innerText().catch(() => '')).includes('succeeded');
  }, 'the delivery shown as succeeded');
  assert.match(await logView.locator('tr[data-delivery]').first().innerText(), /message\.received[\s\S]*200/);
  assert.deepEqual(await seriousA11yViolations(page), [], 'the delivery log passes axe');
  const original = await logView.locator('tr[data-delivery]').first().getAttribute('data-delivery');
  await logView.getByRole('button', { name: `Redeliver ${original}` }).click();
  await logView.getByRole('status').getByText(/^Queued whd_/).waitFor();
  await waitFor(() => receiver.requests.length === 2, 'the redelivery');
  assert.equal(receiver.requests[1]!.raw.toString('utf8'), receiver.requests[0]!.raw.toString('utf8'), 'the same event again');
  const deliveries = await svc.api.get(`${A}/webhooks/${hook.id}/deliveries`, tenant.consoleToken);
  assert.equal(deliveries.body.items[0].redelivery_of, original);

  // Moved to another URL, deactivated and reactivated, its secret rotated: each checked through the API.
  await item.getByRole('button', { name: `Change URL of the webhook to ${receiver.url}/hook` }).click();
  await item.getByLabel('New URL').fill(`${receiver.url}/moved`);
  await item.getByRole('button', { name: 'Save the URL' }).click();
  await page.getByRole('status').getByText(`Moved the webhook to ${receiver.url}/moved.`).waitFor();
  assert.equal((await svc.api.get(`${A}/webhooks/${hook.id}`, tenant.consoleToken)).body.url, `${receiver.url}/moved`);
  await item.getByRole('button', { name: `Deactivate the webhook to ${receiver.url}/moved` }).click();
  await item.getByRole('button', { name: `Reactivate the webhook to ${receiver.url}/moved` }).waitFor();
  assert.equal((await svc.api.get(`${A}/webhooks/${hook.id}`, tenant.consoleToken)).body.active, false);
  await item.getByRole('button', { name: `Reactivate the webhook to ${receiver.url}/moved` }).click();
  await item.getByRole('button', { name: `Deactivate the webhook to ${receiver.url}/moved` }).waitFor();
  assert.equal((await svc.api.get(`${A}/webhooks/${hook.id}`, tenant.consoleToken)).body.active, true);
  await item.getByRole('button', { name: `Rotate secret of the webhook to ${receiver.url}/moved` }).click();
  const rotated = page.getByLabel('New signing secret', { exact: true });
  await rotated.waitFor();
  const newSecret = await rotated.inputValue();
  assert.match(newSecret, /^whsec_/);
  assert.notEqual(newSecret, secret);
  const after = await svc.api.get(`${A}/webhooks/${hook.id}`, tenant.consoleToken);
  assert.deepEqual([after.body.secret_prefix, after.text.includes(newSecret)], [newSecret.slice(0, 10), false]);
  assert.deepEqual(await seriousA11yViolations(page), [], 'the webhooks view, with a rotated secret shown, passes axe');
  await page.getByRole('button', { name: 'Done, hide it' }).click();
  await rotated.waitFor({ state: 'detached' });

  await item.getByRole('button', { name: `Delete the webhook to ${receiver.url}/moved` }).click();
  await item.waitFor({ state: 'detached' });
  assert.equal((await svc.api.get(`${A}/webhooks/${hook.id}`, tenant.consoleToken)).status, 404);
  noPageErrors(log);
});

test('a review link refused by the API shows its code and the field; once the reviewer may act, the link made in the page routes the inbox\'s sends to it', async () => {
  await area(page, 'Review links');
  await page.getByLabel('Reviewer agent', { exact: true }).selectOption({ label: 'reviewer-bot' });
  await page.getByLabel('Reviews of').selectOption({ label: inbox.address });
  await page.getByRole('button', { name: 'Link reviewer' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'bad_request' });
  await refusal.waitFor();
  assert.match(await refusal.innerText(), /Field reviewer_agent_id/);
  assert.deepEqual(await seriousA11yViolations(page), [], 'the review links view, with a refusal shown, passes axe');
  assert.equal((await svc.api.get(`${A}/review-links`, tenant.consoleToken)).body.data.length, 0, 'nothing was linked');

  const key = await svc.api.post(`${A}/agents/${reviewer.agentId}/keys`, { permissions: ['review:act'] }, tenant.consoleToken);
  assert.equal(key.status, 201, key.text);
  await page.getByRole('button', { name: 'Link reviewer' }).click();
  const row = page.locator('tr[data-link]');
  await row.getByText('reviewer-bot').waitFor();
  const links = await svc.api.get(`${A}/review-links`, tenant.consoleToken);
  assert.deepEqual(links.body.data.map((l: any) => [l.inbox_address, l.reviewer_agent_id, l.transport, l.active]), [[inbox.address, reviewer.agentId, 'sse', true]]);
  const sent = await svc.api.post(`/v1/inboxes/${inbox.id}/send`, { to: 'dana@acme.example', subject: 'Routed', text: 'Hello.', intent: { summary: 'Say hello to Dana' } }, composer.agentKey);
  assert.equal(sent.status, 202, sent.text);
  const routed = await svc.api.get(`/v1/reviews/${sent.body.review_id}`, composer.agentKey);
  assert.equal(routed.body.route, 'reviewer_agent', 'the send goes to the linked reviewer, not the human');

  await row.getByRole('button', { name: 'Pause' }).click();
  await row.getByText('paused').waitFor();
  assert.equal((await svc.api.get(`${A}/review-links`, tenant.consoleToken)).body.data[0].active, false);
  await row.getByRole('button', { name: 'Remove' }).click();
  await page.getByText('No review links: every review goes to the human queue.').waitFor();
  assert.equal((await svc.api.get(`${A}/review-links`, tenant.consoleToken)).body.data.length, 0);
  noPageErrors(log, /400/);
});

test('categories: graduating an unearned rung shows the 409 with what is missing and the legal verbs; pin and unpin reach the API', async () => {
  await area(page, 'Categories');
  await page.getByLabel('Name').fill('Scheduling');
  await page.getByLabel('Description').fill('Meeting times and rooms');
  await page.getByRole('button', { name: 'Create category' }).click();
  const row = page.locator('tr[data-category]').filter({ hasText: 'Scheduling' });
  await row.waitFor();
  const id = await row.getAttribute('data-category');
  assert.match(await row.innerText(), /supervised[\s\S]*\b0\b[\s\S]*\b0\b/);
  await row.getByRole('button', { name: 'Machine' }).click();
  const machine = row.locator('section.machine-view');
  await machine.waitFor();
  assert.match(await machine.getByRole('heading').innerText(), /Machine: category, now supervised/);
  assert.equal(await machine.locator('svg').count(), 1, "the category's diagram is drawn");
  await row.getByRole('button', { name: 'Hide the machine' }).click();
  await machine.waitFor({ state: 'detached' });

  await row.getByRole('button', { name: 'Graduate' }).click();
  const refusal = row.getByRole('alert');
  await refusal.waitFor();
  const shown = await refusal.innerText();
  assert.match(shown, /maturity_gate_unmet/);
  assert.match(shown, /Field clean_approvals/);
  assert.match(shown, /Legal now: .*pin/);
  assert.deepEqual(await seriousA11yViolations(page), [], 'the categories view, with a 409 shown, passes axe');
  assert.equal((await svc.api.get(`${A}/categories`, tenant.consoleToken)).body.data.find((c: any) => c.id === id).rung, 'supervised');

  await row.getByRole('button', { name: 'Pin', exact: true }).click();
  await row.getByText('supervised (pinned)').waitFor();
  assert.equal((await svc.api.get(`${A}/categories`, tenant.consoleToken)).body.data.find((c: any) => c.id === id).pinned, true);
  await row.getByRole('button', { name: 'Graduate' }).click();
  await row.getByRole('alert').filter({ hasText: 'graduation_locked' }).waitFor();
  await row.getByRole('button', { name: 'Unpin' }).click();
  await row.getByRole('button', { name: 'Pin', exact: true }).waitFor();
  assert.equal((await svc.api.get(`${A}/categories`, tenant.consoleToken)).body.data.find((c: any) => c.id === id).pinned, false);
  noPageErrors(log, /409/);
});

test('a rule written and edited in the page raises the rules version, keeps its earlier revision and reaches the agents', async () => {
  await area(page, 'Writing rules');
  const version = async () => Number(await page.locator('[data-rules-version]').innerText());
  const before = await version();
  await page.getByLabel('New rule text').fill('Sign off with "Best, Dana".');
  await page.getByRole('button', { name: 'Write rule' }).click();
  const lineage = page.locator('li[data-lineage]').filter({ hasText: 'Best, Dana' });
  await lineage.waitFor();
  await waitFor(async () => (await version()) === before + 1, 'the rules version raised');
  await lineage.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('Revised rule text').fill('Sign off with "Kind regards, Dana".');
  await page.getByRole('button', { name: 'Save revision' }).click();
  const revised = page.locator('li[data-lineage]').filter({ hasText: 'Kind regards, Dana' });
  await revised.getByText(/rev 2, active/).waitFor();
  await revised.getByText('Earlier revisions (1)').click();
  await revised.getByText(/rev 1, superseded/).waitFor();
  assert.equal(await version(), before + 2);
  assert.deepEqual(await seriousA11yViolations(page), [], 'the rules view passes axe');

  const rules = await svc.api.get('/v1/rules', composer.agentKey);
  assert.equal(rules.status, 200, rules.text);
  assert.equal(rules.body.rules_version, before + 2);
  assert.ok(rules.body.data.some((r: any) => r.rule_text === 'Sign off with "Kind regards, Dana".'));
  assert.equal(rules.body.data.some((r: any) => r.rule_text === 'Sign off with "Best, Dana".'), false, 'the superseded revision no longer applies');
  noPageErrors(log);
});

test("another org's console user sees none of this project's webhooks, links, categories or rules, and its paths are 404", async () => {
  const stranger = await createTenant(svc);
  const { page: theirs, log: theirLog } = await openPage(await newVisitor(browser));
  await signIn(theirs, stranger.email);
  await area(theirs, 'Webhooks');
  await theirs.getByText('No webhooks yet.').waitFor();
  await area(theirs, 'Review links');
  await theirs.getByText('No review links', { exact: false }).waitFor();
  await area(theirs, 'Categories');
  await theirs.getByText('No categories yet.').waitFor();
  await area(theirs, 'Writing rules');
  await theirs.getByText('No rules yet.').waitFor();
  const statuses = await theirs.evaluate(
    async (paths) => Promise.all(paths.map(async (p) => (await fetch(p)).status)),
    [`${A}/webhooks`, `${A}/review-links`, `${A}/categories`, `${A}/rules`],
  );
  assert.deepEqual(statuses, [404, 404, 404, 404]);
  noPageErrors(theirLog, /404/);
});
