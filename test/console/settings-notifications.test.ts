// The notifications settings area in a real Chromium: a member picks how review notices reach them
// in the project, and an owner names the chat-ops channel; each change is checked through the API.
import assert from 'node:assert/strict';
import { test } from '../../testkit/test.ts';
import { createSignInLink } from '../../actors/console-sessions.ts';
import { launchBrowser, newVisitor, openPage, seriousA11yViolations } from '../../testkit/browser.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';

const browser = await launchBrowser();
const svc = await startTestService();
const tenant = await createTenant(svc, { plan: 'enterprise' });
const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;

test('a member sets a digest every 30 minutes and an owner names the chat-ops webhook in the page; the API reads both back', async () => {
  const { page, log } = await openPage(await newVisitor(browser));
  const { url } = await createSignInLink(svc.services.db, svc.services.identity, { email: tenant.email, baseUrl: svc.url, now: new Date() });
  await page.goto(url);
  await page.getByRole('heading', { name: 'Review queue' }).waitFor();
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('button', { name: 'Notifications' }).click();
  await page.getByRole('heading', { name: 'Notifications', level: 2 }).waitFor();

  assert.equal(await page.getByLabel('How I am told').inputValue(), 'instant');
  await page.getByLabel('How I am told').selectOption('digest');
  await page.getByLabel('Digest every (minutes)').fill('30');
  await page.getByRole('button', { name: 'Save my notifications' }).click();
  await page.getByText('Saved: One digest mail every few minutes (every 30 minutes).').waitFor();
  const pref = await svc.api.get(`${A}/notification-preferences`, tenant.consoleToken);
  assert.deepEqual([pref.body.mode, pref.body.digest_minutes], ['digest', 30]);

  await page.getByLabel(/Incoming webhook URL/).fill('http://127.0.0.1:9/chat');
  await page.getByRole('button', { name: 'Save chat-ops channel' }).click();
  await page.getByText(/Chat-ops channel saved/).waitFor();
  assert.equal((await svc.api.get(`${A}/chatops`, tenant.consoleToken)).body.webhook_url, 'http://127.0.0.1:9/chat');
  assert.deepEqual(await seriousA11yViolations(page), [], 'the notifications view passes axe');

  await page.getByLabel(/Incoming webhook URL/).fill('');
  await page.getByRole('button', { name: 'Save chat-ops channel' }).click();
  await page.getByText('Chat-ops channel removed.').waitFor();
  assert.equal((await svc.api.get(`${A}/chatops`, tenant.consoleToken)).body.webhook_url, null);
  assert.deepEqual(log.errors, []);
});
