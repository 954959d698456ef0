// What the review console's browser tests share: a service with a real relay, a signed-in owner's
// page, an agent that queues drafts, and the moves a person makes (select with j/k, wait for the
// pane to show a revision).
import assert from 'node:assert/strict';
import { after } from '../../testkit/test.ts';
import type { Browser, Page } from 'playwright-core';
import { createSignInLink } from '../../actors/console-sessions.ts';
import { launchBrowser, newVisitor, openPage, type PageLog } from '../../testkit/browser.ts';
import { createTenant, startTestService, type Tenant, type TestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
import { startRelay, type Relay } from '../../testkit/relay.ts';
import { INTENT, agentWithInbox, type Agent } from '../reviews/setup.ts';

export type Kit = {
  browser: Browser;
  svc: TestService;
  relay: Relay;
  tenant: Tenant;
  agent: Agent;
  page: Page;
  log: PageLog;
};

/** A service, its relay, an owner signed in on a page at the queue. */
export async function startKit(): Promise<Kit> {
  const browser = await launchBrowser();
  const relay = await startRelay();
  const svc = await startTestService({ env: { SMTP_URL: relay.url } });
  after(() => relay.close());
  const tenant = await createTenant(svc, { plan: 'enterprise' });
  const agent = await agentWithInbox(svc, tenant);
  const { page, log } = await openPage(await newVisitor(browser));
  await page.goto(await signInLink(svc, tenant.email));
  await page.getByRole('heading', { name: 'Review queue' }).waitFor();
  return { browser, svc, relay, tenant, agent, page, log };
}

export async function signInLink(svc: TestService, email: string): Promise<string> {
  return (await createSignInLink(svc.services.db, svc.services.identity, { email, baseUrl: svc.url, now: new Date() })).url;
}

/** Queues a draft over the agent API; its subject is unique to the caller. */
export async function queue(k: Kit, subject: string, text = 'Hello Dana,\nthe demo is on Tuesday at 10.\nBest'): Promise<string> {
  const r = await k.agent.send({ to: 'dana@acme.example', subject, text, intent: INTENT });
  assert.equal(r.status, 202, r.text);
  return r.body.review_id;
}

/** The agent revises its draft to `text`, on the revision it names. */
export async function revise(k: Kit, id: string, parent: number, text: string): Promise<void> {
  const r = await k.svc.api.post(`/v1/reviews/${id}/revisions`, { parent_revision: parent, text }, k.agent.key);
  assert.equal(r.status, 200, r.text);
}

/** The queue row of a review, once the page shows it. */
export const row = (p: Page, id: string) => p.locator(`tr[data-review="${id}"]`);

/** Waits until the page draws the review at this revision (the object decisions are built from). */
export async function showsRevision(p: Page, id: string, revision: number): Promise<void> {
  await p.locator(`article[data-review-shown="${id}"][data-revision="${revision}"]`).waitFor();
}

export const received = (k: Kit, subject: string) =>
  waitFor(() => k.relay.received.find((m) => m.mail.subject === subject), `the relay to receive "${subject}"`);

/** No console errors (CSP violations among them), exceptions or failed requests but those `expected`; the log starts afresh. */
export function noPageErrors(l: PageLog, expected?: RegExp): void {
  const errors = l.errors.splice(0);
  assert.deepEqual(errors.filter((e) => !expected?.test(e)), [], 'nothing unexpected went wrong in the page');
}

/** Waits until the field has the keyboard: typed keys are text there, not commands. */
export async function focused(p: Page, label: string): Promise<void> {
  const field = await p.getByLabel(label).elementHandle();
  await p.waitForFunction((el) => el === document.activeElement, field, { timeout: 10_000 });
}

/** From wherever the page is, back to the queue with the review selected (j/k) and whole in the preview pane. */
export async function select(p: Page, id: string): Promise<void> {
  // Escape closes a form still open first (one just sent may not have closed yet), then goes back.
  const heading = p.getByRole('heading', { name: 'Review queue' });
  for (let tries = 0; (await heading.count()) === 0; tries++) {
    if (tries === 4) throw new Error('Escape did not bring the review queue back');
    await p.keyboard.press('Escape');
    await heading.waitFor({ timeout: 3_000 }).catch(() => {});
  }
  await row(p, id).waitFor();
  const ids = await p.locator('tr[data-review]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-review')));
  for (let i = 0; i < ids.length; i++) await p.keyboard.press('k');
  for (let i = 0; i < ids.indexOf(id); i++) await p.keyboard.press('j');
  assert.equal(await row(p, id).getAttribute('aria-current'), 'true');
  await p.locator(`.queue-preview article[data-review-shown="${id}"]`).waitFor();
}

/** The review as its agent reads it. */
export async function reviewNow(k: Kit, id: string): Promise<any> {
  return (await k.agent.review(id)).body;
}

/** The feedback entries of a review, oldest first. */
export async function feedbackOf(k: Kit, id: string): Promise<any[]> {
  return (await k.svc.api.get(`/v1/reviews/${id}/feedback`, k.agent.key)).body.data;
}
