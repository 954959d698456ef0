// The README's picture of the console, made by the suite: a signed-in owner's review queue with
// drafts waiting, at a fixed viewport, written to docs/console.png. Each run makes it afresh, so
// nothing compares pixels; the test checks the picture is a real screenshot of that page and that
// the README shows it.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { createSignInLink } from '../../actors/console-sessions.ts';
import { PROJECT_ROOT } from '../../service/config.ts';
import { launchBrowser, openPage } from '../helpers/browser.ts';
import { createTenant, startTestService } from '../helpers/service.ts';
import { agentWithInbox } from '../reviews/setup.ts';

export const SCREENSHOT = 'docs/console.png';
/** The open review's machine view, the second picture. */
export const MACHINE_SCREENSHOT = 'docs/console-machine.png';
const VIEWPORT = { width: 1280, height: 560 };

const browser = await launchBrowser();
const svc = await startTestService();
const tenant = await createTenant(svc, { email: 'reviewer@example.com', plan: 'enterprise' });
const agent = await agentWithInbox(svc, tenant, { display_name: 'Sales Bot' });

test(`a signed-in review queue with drafts waiting is captured to ${SCREENSHOT}, which the README shows`, async () => {
  const drafts = [
    { to: 'dana@acme.example', subject: 'Demo on Tuesday at 10', intent: { summary: 'Confirm the Tuesday demo with Dana at Acme' } },
    { to: 'li@globex.example', subject: 'Your trial ends Friday', intent: { summary: 'Remind Li that the trial ends and offer a call', meta: { urgency: 'high' } } },
  ];
  const ids: string[] = [];
  for (const d of drafts) {
    const r = await agent.send({ ...d, text: 'Hello,\nthe details are below.\nBest' });
    assert.equal(r.status, 202, r.text);
    ids.push(r.body.review_id);
  }
  // One a human has opened, so its machine has a path to show.
  assert.equal((await agent.decide(ids[0]!, { action: 'open' })).status, 200);
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1, colorScheme: 'light', locale: 'en-US', timezoneId: 'UTC' });
  context.setDefaultTimeout(10_000);
  const { page, log } = await openPage(context);
  const link = await createSignInLink(svc.services.db, svc.services.identity, { email: tenant.email, baseUrl: svc.url, now: new Date() });
  await page.goto(link.url);
  await page.getByRole('heading', { name: 'Review queue' }).waitFor();
  for (const d of drafts) await page.getByRole('button', { name: d.subject }).waitFor();

  const file = path.join(PROJECT_ROOT, SCREENSHOT);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file });
  assert.deepEqual(log.errors, []);

  // A PNG of the viewport's size (its IHDR chunk holds width and height).
  const png = await fs.readFile(file);
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [VIEWPORT.width, VIEWPORT.height]);

  // The first draft's machine: where it is, how it got there.
  await page.getByRole('button', { name: drafts[0]!.subject }).click();
  await page.getByRole('link', { name: /Open the review/ }).click();
  await page.getByRole('button', { name: 'Show the machine' }).click();
  const machine = page.getByRole('region', { name: /Machine: review, now in_review/ });
  await machine.getByRole('img').waitFor();
  await machine.screenshot({ path: path.join(PROJECT_ROOT, MACHINE_SCREENSHOT) });
  const shot = await fs.readFile(path.join(PROJECT_ROOT, MACHINE_SCREENSHOT));
  assert.equal(shot.subarray(1, 4).toString(), 'PNG');
  assert.deepEqual(log.errors, []);

  const readme = await fs.readFile(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Console\n');
  assert.ok(start >= 0, 'the README has a Console section');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 5));
  for (const picture of [SCREENSHOT, MACHINE_SCREENSHOT]) {
    assert.match(section, new RegExp(`!\\[[^\\]]+\\]\\(${picture.replace('.', '\\.')}\\)`), `the Console section shows ${picture}`);
  }
});
