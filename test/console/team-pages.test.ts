// The pages a team needs, in a real Chromium: members and invitations (invite, resend, revoke,
// change a role, remove, and the API's refusal to lose the last owner), custom domains (the records
// to publish, a check against a DNS server on loopback, the status), and the plan with its usage
// meters. Each change made in the page is checked over the console plane's API; each page passes axe.
import assert from 'node:assert/strict';
import { after, test } from '../../testkit/test.ts';
import type { Page } from 'playwright-core';
import { createSignInLink } from '../../actors/console-sessions.ts';
import { launchBrowser, newVisitor, openPage, seriousA11yViolations, type PageLog } from '../../testkit/browser.ts';
import { publishRecords, startTestDns } from '../../testkit/dns.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
import { startRelay } from '../../testkit/relay.ts';
import { agentWithInbox, deliverInbound } from '../reviews/setup.ts';

const browser = await launchBrowser();
const relay = await startRelay();
after(() => relay.close());
const dns = await startTestDns();
const svc = await startTestService({ env: { SMTP_URL: relay.url, DNS_SERVERS: dns.server, MX_HOST: 'mx.agents.test' } });
const tenant = await createTenant(svc, { plan: 'developer' });
const agent = await agentWithInbox(svc, tenant);
const ORG = `/v1/admin/orgs/${tenant.orgId}`;
const A = `${ORG}/projects/${tenant.projectId}`;
const { page, log } = await openPage(await newVisitor(browser));
const { url } = await createSignInLink(svc.services.db, svc.services.identity, { email: tenant.email, baseUrl: svc.url, now: new Date() });
await page.goto(url);
await page.getByRole('heading', { name: 'Review queue' }).waitFor();

/** Opens a settings area from the bar and its navigation, as a person would. */
async function area(p: Page, name: string, heading: string): Promise<void> {
  await p.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Settings' }).click();
  await p.getByRole('navigation', { name: 'Settings' }).getByRole('button', { name: 'Review policy' }).click();
  await p.getByRole('navigation', { name: 'Settings' }).getByRole('button', { name }).click();
  await p.getByRole('heading', { name: heading, level: 2 }).waitFor();
}

function noPageErrors(l: PageLog, expected?: RegExp): void {
  const errors = l.errors.splice(0);
  assert.deepEqual(errors.filter((e) => !expected?.test(e)), [], 'nothing unexpected went wrong in the page');
}

const invitations = async () => (await svc.api.get(`${ORG}/invitations`, tenant.consoleToken)).body.items as any[];
const members = async () => (await svc.api.get(`${ORG}/members`, tenant.consoleToken)).body.items as any[];
const accept = async (token: string, email: string) => svc.api.post('/v1/admin/invitations/accept', { token }, await svc.services.identity.mint!(email));

test('members and invitations: invite with a role, resend with a fresh token, revoke, change a role, remove; the last owner stays', async () => {
  await area(page, 'Members and invitations', 'Members');
  assert.match(await page.locator(`tr[data-member="${tenant.email}"]`).innerText(), new RegExp(tenant.email.replace(/[.]/g, '\\.')));

  // Invite: the token is shown once, and mailed.
  const dana = `dana.${Date.now()}@acme.example`;
  await page.getByLabel('Email').fill(dana);
  await page.getByLabel('Role', { exact: true }).selectOption('admin');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  const first = await page.getByRole('textbox', { name: 'Invitation token' }).inputValue();
  assert.match(first, /^pk_invite_/);
  await page.getByRole('status').getByText(`Invited ${dana} as admin: the invitation was mailed.`).waitFor();
  await waitFor(() => relay.received.find((m) => m.to.includes(dana) && m.mail.text?.includes(first)), 'the invitation mail');
  assert.deepEqual((await invitations()).map((i) => [i.email, i.role, i.status]), [[dana, 'admin', 'pending']]);
  assert.equal(await page.locator('tr[data-invitation]').count(), 1);
  assert.deepEqual(await seriousA11yViolations(page), [], 'the shown token passes axe');
  await page.getByRole('button', { name: 'Done, hide it' }).click();
  assert.equal(await page.getByRole('textbox', { name: 'Invitation token' }).count(), 0, 'gone once dismissed');

  // Resend: a new token, mailed; the first no longer works.
  await page.getByRole('button', { name: `Resend to ${dana}` }).click();
  const second = await page.getByRole('textbox', { name: 'Invitation token' }).inputValue();
  assert.notEqual(second, first);
  await waitFor(() => relay.received.find((m) => m.to.includes(dana) && m.mail.text?.includes(second)), 'the second invitation mail');
  assert.equal((await accept(first, dana)).status, 404, 'the first token was replaced');
  await page.getByRole('button', { name: 'Done, hide it' }).click();

  // Revoke another.
  const lee = `lee.${Date.now()}@acme.example`;
  await page.getByLabel('Email').fill(lee);
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await page.getByRole('textbox', { name: 'Invitation token' }).waitFor();
  await page.getByRole('button', { name: 'Done, hide it' }).click();
  await page.getByRole('button', { name: `Revoke the invitation of ${lee}` }).click();
  await page.getByRole('status').getByText(`Revoked the invitation of ${lee}.`).waitFor();
  assert.equal((await invitations()).find((i) => i.email === lee).status, 'revoked');
  // The list is read again after the revoke: a revoked invitation has no resend button.
  await page.getByRole('button', { name: `Resend to ${lee}` }).waitFor({ state: 'detached', timeout: 10_000 });

  // Dana accepts; the owner makes her a viewer, then removes her.
  assert.equal((await accept(second, dana)).status, 200);
  await area(page, 'Members and invitations', 'Members');
  await page.getByLabel(`Role of ${dana}`).selectOption('viewer');
  await page.locator(`tr[data-member="${dana}"]`).getByRole('button', { name: 'Change role' }).click();
  await page.getByRole('status').getByText(`${dana} is now viewer.`).waitFor();
  assert.equal((await members()).find((m) => m.email === dana).role, 'viewer');
  assert.deepEqual(await seriousA11yViolations(page), [], 'the members page passes axe');
  await page.getByRole('button', { name: `Remove ${dana}`, exact: true }).click();
  await page.getByRole('group', { name: `Remove ${dana}?` }).getByRole('button', { name: 'Yes, remove' }).click();
  await page.getByRole('status').getByText(`Removed ${dana}.`).waitFor();
  assert.deepEqual((await members()).map((m) => m.email), [tenant.email]);

  // The last owner: the API refuses, and the page shows the refusal as it came.
  await page.getByLabel(`Role of ${tenant.email}`).selectOption('admin');
  await page.locator(`tr[data-member="${tenant.email}"]`).getByRole('button', { name: 'Change role' }).click();
  await page.getByRole('alert').getByText(/last owner/).waitFor();
  assert.match(await page.getByRole('alert').innerText(), /^conflict /);
  assert.equal((await members())[0].role, 'owner');
  noPageErrors(log, /\b409\b/);
});

test('domains: adding one lists the records to publish; once published, a check makes it verified', async () => {
  await area(page, 'Domains', 'Custom domains');
  await page.getByText('No custom domains yet.').waitFor();
  const name = `mail${Date.now().toString(36)}.example.org`;
  await page.getByLabel('Domain', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Add domain' }).click();
  const card = page.locator(`li[data-domain="${name}"]`);
  await card.getByRole('table', { name: `Records to publish for ${name}` }).waitFor();
  const api = (await svc.api.get(`${A}/domains/${name}`, tenant.consoleToken)).body;
  assert.equal(api.status, 'pending');
  // Each record the API asks for is on the page, host and value as they are to be published.
  for (const r of api.records) {
    const row = card.locator(`tr[data-record="${r.kind}"]`);
    const text = await row.innerText();
    assert.ok(text.includes(r.host) && text.includes(r.value), `${r.kind}: ${text}`);
  }
  assert.match(await card.getByRole('heading', { level: 3 }).innerText(), /pending/);
  assert.deepEqual(await seriousA11yViolations(page), [], 'the domains page passes axe');

  publishRecords(dns, api);
  await card.getByRole('button', { name: `Check now: the records of ${name}` }).click();
  await page.getByRole('status').getByText(`${name} checked: verified.`).waitFor();
  await page.locator(`li[data-domain="${name}"] h3`).getByText('verified').waitFor();
  assert.equal((await svc.api.get(`${A}/domains/${name}`, tenant.consoleToken)).body.status, 'verified');
  assert.equal(await page.locator(`li[data-domain="${name}"] tr[data-record="mx"] .pill`).innerText(), 'pass');

  // A name the API refuses: its problem, shown whole.
  await page.getByLabel('Domain', { exact: true }).fill('not a domain');
  await page.getByRole('button', { name: 'Add domain' }).click();
  await page.getByRole('alert').waitFor();
  noPageErrors(log, /\b400\b/);
});

test('plan and usage: meters show the billing summary against the plan, and a plan change is made over the API', async () => {
  await deliverInbound(svc, agent.address, { from: 'dana@acme.example', subject: 'Counted', text: 'One copy received.' });
  await waitFor(async () => (await svc.api.get(`${ORG}/billing`, tenant.consoleToken)).body.usage.total_messages > 0, 'the mail to be counted');
  const summary = (await svc.api.get(`${ORG}/billing`, tenant.consoleToken)).body;
  await area(page, 'Plan and usage', 'Plan and usage');
  const meter = (name: string) => page.getByRole('meter', { name });
  await meter('Messages this month').waitFor();
  assert.equal(await meter('Messages this month').getAttribute('aria-valuenow'), String(summary.usage.total_messages));
  assert.equal(await meter('Messages this month').getAttribute('aria-valuemax'), String(summary.entitlements.included_messages_monthly));
  assert.equal(await meter('Inboxes').getAttribute('aria-valuetext'), `1 of ${summary.entitlements.inbox_limit}`);
  assert.equal(await meter('Stored mail').getAttribute('aria-valuenow'), String(summary.usage.storage_used_bytes));
  assert.equal(await page.locator('tr[data-plan="developer"]').getByText('Current plan').count(), 1);
  assert.deepEqual(await seriousA11yViolations(page), [], 'the plan page passes axe');

  await page.getByRole('button', { name: 'Switch to Startup' }).click();
  await page.locator('tr[data-plan="startup"]').getByText('Current plan').waitFor();
  assert.equal((await svc.api.get(`${ORG}/billing`, tenant.consoleToken)).body.plan_tier, 'startup');
  assert.equal(await meter('Inboxes').getAttribute('aria-valuemax'), String(summary.plans.find((p: any) => p.tier === 'startup').inbox_limit));
  noPageErrors(log);
});
