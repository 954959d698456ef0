// The settings a human owns over who may do what, in a real Chromium: review policy, enrollment
// tokens, agents and their keys. Each change made in the page is checked through the API the
// agents use; each secret is shown once and never read back; another org's user sees none of it.
import assert from 'node:assert/strict';
import { after, test } from '../../testkit/test.ts';
import type { Page } from 'playwright-core';
import { createSignInLink } from '../../actors/console-sessions.ts';
import { launchBrowser, newVisitor, openPage, seriousA11yViolations, type PageLog } from '../../testkit/browser.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { startRelay } from '../../testkit/relay.ts';
import { INTENT, agentWithInbox } from '../reviews/setup.ts';

const browser = await launchBrowser();
const relay = await startRelay();
const svc = await startTestService({ env: { SMTP_URL: relay.url } });
after(() => relay.close());
const tenant = await createTenant(svc, { plan: 'enterprise' });
const agent = await agentWithInbox(svc, tenant, { handle: 'sales-bot' });
const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;
const owner = await newVisitor(browser);
const { page, log } = await openPage(owner);

async function signIn(p: Page, email: string): Promise<void> {
  const { url } = await createSignInLink(svc.services.db, svc.services.identity, { email, baseUrl: svc.url, now: new Date() });
  await p.goto(url);
  await p.getByRole('heading', { name: 'Review queue' }).waitFor();
}

/** Opens a settings area from the bar and its navigation, as a person would. */
async function area(p: Page, name: string, heading = name): Promise<void> {
  await p.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Settings' }).click();
  await p.getByRole('navigation', { name: 'Settings' }).getByRole('button', { name }).click();
  await p.getByRole('heading', { name: heading, level: 2 }).waitFor();
}

function noPageErrors(l: PageLog, expected?: RegExp): void {
  const errors = l.errors.splice(0);
  assert.deepEqual(errors.filter((e) => !expected?.test(e)), [], 'nothing unexpected went wrong in the page');
}

/** The secret the page shows once, read from its field, then hidden with "Done". */
async function takeSecret(p: Page, label: string): Promise<string> {
  const field = p.getByLabel(label, { exact: true });
  await field.waitFor();
  const value = await field.inputValue();
  assert.ok(value.length > 20, `${label} is shown`);
  await p.getByRole('button', { name: 'Done, hide it' }).click();
  await field.waitFor({ state: 'detached' });
  return value;
}

const send = (subject: string) => agent.send({ to: 'dana@acme.example', subject, text: 'Hello Dana.', intent: INTENT });

test('the inbox policy changed in the page decides whether a send waits for review; the account default too', async () => {
  await signIn(page, tenant.email);
  await area(page, 'Review policy');
  const row = page.locator(`tr[data-inbox="${agent.inboxId}"]`);
  await row.getByText('require_review (account default)').waitFor();
  assert.deepEqual(await seriousA11yViolations(page), [], 'the policy view passes axe');

  await page.getByLabel(`Review policy of ${agent.address}`).selectOption('allow_direct');
  await row.getByRole('button', { name: `Save the policy of ${agent.address}` }).click();
  await row.getByText('allow_direct (this inbox)').waitFor();
  const inbox = await svc.api.get(`${A}/inboxes?limit=100`, tenant.consoleToken);
  assert.deepEqual(inbox.body.data.find((i: any) => i.id === agent.inboxId).effective_review_policy, { policy: 'allow_direct', source: 'inbox_override' });
  const direct = await send('Goes out directly');
  assert.equal(direct.status, 202, direct.text);
  assert.equal(direct.body.outcome, 'released');
  await agent.until(direct.body.review_id, 'auto_sent');

  // Back to inheriting, with the account default set to allow_direct in the page as well.
  await page.getByLabel(`Review policy of ${agent.address}`).selectOption('');
  await row.getByRole('button', { name: `Save the policy of ${agent.address}` }).click();
  await row.getByText('require_review (account default)').waitFor();
  await page.getByLabel('Default review policy').selectOption('allow_direct');
  await page.getByRole('button', { name: 'Save account policy' }).click();
  await page.getByRole('status').getByText('Account policy saved').waitFor();
  await row.getByText('allow_direct (account default)').waitFor();
  assert.equal((await svc.api.get(`${A}/review-settings`, tenant.consoleToken)).body.default_review_policy, 'allow_direct');

  await page.getByLabel('Default review policy').selectOption('require_review');
  await page.getByRole('button', { name: 'Save account policy' }).click();
  await row.getByText('require_review (account default)').waitFor();
  const queued = await send('Waits for a human');
  assert.equal(queued.status, 202, queued.text);
  assert.equal(queued.body.outcome, 'queued_for_review');
  assert.equal((await agent.review(queued.body.review_id)).body.state, 'needs_review');
  noPageErrors(log);
});

test('an enrollment token issued in the page with the keyboard alone is shown once (focused), enrolls an agent over HTTP, and once revoked in the page is refused', async () => {
  await area(page, 'Enrollment tokens');
  // The keyboard alone: type the label, Tab past the expiry to the checkbox, Space, Enter to issue.
  await page.getByLabel('Label').focus();
  await page.keyboard.type('fleet');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Space');
  assert.equal(await page.getByLabel('Reusable (many agents may enroll with it)').isChecked(), true);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Enrollment token: shown this once' }).waitFor();
  const shown = await page.getByLabel('Enrollment token', { exact: true }).elementHandle();
  await page.waitForFunction((el) => el === document.activeElement, shown, { timeout: 10_000 });
  assert.deepEqual(await seriousA11yViolations(page), [], 'the enrollment view, with a secret shown, passes axe');
  const token = await page.getByLabel('Enrollment token', { exact: true }).inputValue();
  // Tab from the shown secret to Copy, then to "Done, hide it".
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.getByLabel('Enrollment token', { exact: true }).waitFor({ state: 'detached' });

  const enrolled = await svc.api.post('/v1/enroll', { token, agent_handle: 'fleet-one' });
  assert.equal(enrolled.status, 201, enrolled.text);
  assert.match(enrolled.body.agent_key, /^pk_agent_/);

  // Never again: not in the page, not in the API's list.
  assert.equal((await page.content()).includes(token), false, 'the page no longer holds the token');
  const listed = await svc.api.get(`${A}/enrollment-tokens`, tenant.consoleToken);
  assert.equal(listed.text.includes(token), false);
  const mine = listed.body.items.find((t: any) => t.label === 'fleet');
  assert.equal(token.startsWith(mine.prefix), true, 'the list names it by its prefix');

  await page.getByRole('button', { name: 'Revoke fleet' }).click();
  await page.locator(`tr[data-token="${mine.id}"]`).getByText(/^revoked/).waitFor();
  const refused = await svc.api.post('/v1/enroll', { token, agent_handle: 'fleet-two' });
  assert.equal(refused.status, 401, refused.text);
  assert.equal((await svc.api.get(`${A}/enrollment-tokens`, tenant.consoleToken)).body.items.find((t: any) => t.id === mine.id).revoked_at !== null, true);
  noPageErrors(log);
});

test("an agent's key issued in the page is shown once and works; revoked in the page it is refused", async () => {
  await area(page, 'Agents and keys');
  await page.getByRole('button', { name: 'sales-bot' }).click();
  const form = page.getByRole('form', { name: 'Issue a key for sales-bot' });
  await form.getByLabel('mailbox:read').check();
  await form.getByRole('button', { name: 'Issue key' }).click();
  const key = await takeSecret(page, 'Agent key');
  const me = await svc.api.get('/v1/auth/me', key);
  assert.equal(me.status, 200, me.text);
  assert.equal(me.body.agent_id, agent.agentId);
  assert.deepEqual(me.body.permissions, ['mailbox:read']);
  assert.deepEqual(await seriousA11yViolations(page), [], 'the agents view passes axe');

  assert.equal((await page.content()).includes(key), false, 'the page no longer holds the key');
  const keys = await svc.api.get(`${A}/agents/${agent.agentId}/keys`, tenant.consoleToken);
  assert.equal(keys.text.includes(key), false);
  const issued = keys.body.items.find((k: any) => key.startsWith(k.prefix) && k.permissions.join() === 'mailbox:read');
  await page.getByRole('button', { name: `Revoke key ${issued.prefix}` }).click();
  await page.locator(`tr[data-key="${issued.id}"]`).getByText(/^revoked/).waitFor();
  assert.equal((await svc.api.get('/v1/auth/me', key)).status, 401);
  assert.equal((await svc.api.get('/v1/auth/me', agent.key)).status, 200, 'the agent\'s other key still works');
  noPageErrors(log);
});

test("another org's console user sees none of these settings, and this org's paths are 404 in their page", async () => {
  const stranger = await createTenant(svc);
  const { page: theirs, log: theirLog } = await openPage(await newVisitor(browser));
  await signIn(theirs, stranger.email);
  await area(theirs, 'Review policy');
  await theirs.getByText('No inboxes yet.').waitFor();
  await area(theirs, 'Enrollment tokens');
  assert.equal(await theirs.getByText('fleet').count(), 0);
  await area(theirs, 'Agents and keys');
  await theirs.getByText('No agents yet', { exact: false }).waitFor();
  assert.equal(await theirs.getByText('sales-bot').count(), 0);
  const statuses = await theirs.evaluate(
    async (paths) => Promise.all(paths.map(async ([method, p]) => (await fetch(p!, { method })).status)),
    [['GET', `${A}/inboxes`], ['GET', `${A}/review-settings`], ['GET', `${A}/enrollment-tokens`], ['GET', `${A}/agents`], ['GET', `${A}/agents/${agent.agentId}/keys`], ['POST', `${A}/enrollment-tokens`]],
  );
  assert.deepEqual(statuses, [404, 404, 404, 404, 404, 404]);
  noPageErrors(theirLog, /404/);
});
