// The README's pictures of the console, made by the suite: a signed-in owner's review queue with
// drafts waiting, at a fixed viewport, written to docs/console.png; a review with its conversation;
// the queue at a phone's width; the queue in dark mode. Each run takes them afresh, but writes them
// over the committed ones in docs/ only when asked (UPDATE_SCREENSHOTS=1) or when one is missing:
// ages and random addresses differ from run to run, and a test run should leave no change to
// commit. Nothing compares pixels; the test checks each picture, new and committed, is a real
// screenshot of its page at its size, and that the README shows it.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { test } from '../../testkit/test.ts';
import { createSignInLink } from '../../actors/console-sessions.ts';
import { PROJECT_ROOT } from '../../service/config.ts';
import { launchBrowser, openPage } from '../../testkit/browser.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
import { agentWithInbox, deliverInbound } from '../reviews/setup.ts';
import { scratchDir } from '../../testkit/scratch.ts';

export const SCREENSHOT = 'docs/console.png';
/** The open review's machine view, the second picture. */
export const MACHINE_SCREENSHOT = 'docs/console-machine.png';
/** A review opened from the queue, with the conversation its reviewer had with the agent. */
export const REVIEW_SCREENSHOT = 'docs/console-review.png';
/** The queue at a phone's width, where reviewers approve from. */
export const PHONE_SCREENSHOT = 'docs/console-phone.png';
/** The queue with the system in dark mode. */
export const DARK_SCREENSHOT = 'docs/console-dark.png';
const VIEWPORT = { width: 1280, height: 560 };
const PHONE = { width: 375, height: 740 };

const UPDATE = process.env.UPDATE_SCREENSHOTS === '1';
const scratch = scratchDir('console-shots');

/** Where this run writes `file`: over the committed picture when asked or when there is none, else aside. */
async function target(file: string): Promise<string> {
  const committed = path.join(PROJECT_ROOT, file);
  const exists = await fs.access(committed).then(() => true, () => false);
  const out = UPDATE || !exists ? committed : path.join(scratch, file);
  await fs.mkdir(path.dirname(out), { recursive: true });
  return out;
}

/** The PNG's width and height (its IHDR chunk holds them), once its signature is checked. */
async function pngSize(at: string): Promise<[number, number]> {
  const png = await fs.readFile(at);
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], `${at} is a PNG`);
  return [png.readUInt32BE(16), png.readUInt32BE(20)];
}

/** Takes a picture to this run's place for it; checks it, and the committed one, are of `size`. */
async function shoot(file: string, take: (at: string) => Promise<unknown>, size: (wh: [number, number]) => void): Promise<void> {
  const at = await target(file);
  await take(at);
  size(await pngSize(at));
  size(await pngSize(path.join(PROJECT_ROOT, file)));
}

const browser = await launchBrowser();
const svc = await startTestService();
const tenant = await createTenant(svc, { email: 'reviewer@example.com', plan: 'enterprise' });
const agent = await agentWithInbox(svc, tenant, { display_name: 'Sales Bot' });

test(`a signed-in review queue with drafts waiting, a review with its conversation, the queue at phone width and in dark mode are captured to docs/, which the README shows`, async () => {
  // The first draft answers Dana's mail, so its review shows the conversation; the second is new.
  await deliverInbound(svc, agent.address, {
    from: 'Dana <dana@acme.example>',
    subject: 'Demo on Tuesday at 10',
    text: 'Hello,\ncan we see the demo on Tuesday at 10, with the whole procurement team?\nDana',
  });
  const inbound = await waitFor(async () => (await svc.api.get(`/v1/inboxes/${agent.inboxId}/messages`, agent.key)).body.data[0], "Dana's mail to be stored");
  const reply = await svc.api.post(
    `/v1/inboxes/${agent.inboxId}/reply`,
    { thread_id: inbound.thread_id, text: 'Hello Dana,\nTuesday at 10 works; the demo room is booked for your team.\nBest', intent: { summary: 'Confirm the Tuesday demo with Dana at Acme' } },
    agent.key,
  );
  assert.equal(reply.status, 202, reply.text);
  const trial = await agent.send({ to: 'li@globex.example', subject: 'Your trial ends Friday', text: 'Hello,\nthe details are below.\nBest', intent: { summary: 'Remind Li that the trial ends and offer a call', meta: { urgency: 'high' } } });
  assert.equal(trial.status, 202, trial.text);
  const drafts = [{ subject: reply.body.review.draft.subject as string }, { subject: 'Your trial ends Friday' }];
  const ids: string[] = [reply.body.review_id, trial.body.review_id];
  // One a human has opened, so its machine has a path to show.
  assert.equal((await agent.decide(ids[0]!, { action: 'open' })).status, 200);
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1, colorScheme: 'light', locale: 'en-US', timezoneId: 'UTC' });
  context.setDefaultTimeout(10_000);
  const { page, log } = await openPage(context);
  const link = await createSignInLink(svc.services.db, svc.services.identity, { email: tenant.email, baseUrl: svc.url, now: new Date() });
  await page.goto(link.url);
  await page.getByRole('heading', { name: 'Review queue' }).waitFor();
  for (const d of drafts) await page.getByRole('button', { name: d.subject }).waitFor();

  await shoot(SCREENSHOT, (at) => page.screenshot({ path: at }), (wh) => assert.deepEqual(wh, [VIEWPORT.width, VIEWPORT.height]));
  assert.deepEqual(log.errors, []);

  // The first draft's machine: where it is, how it got there.
  await page.getByRole('button', { name: drafts[0]!.subject }).click();
  await page.getByRole('link', { name: /Open the review/ }).click();
  await page.getByRole('button', { name: 'Show the machine' }).click();
  const machine = page.getByRole('region', { name: /Machine: review, now in_review/ });
  await machine.getByRole('img').waitFor();
  await shoot(MACHINE_SCREENSHOT, (at) => machine.screenshot({ path: at }), ([w]) => assert.ok(w > 0 && w <= VIEWPORT.width));
  assert.deepEqual(log.errors, []);

  // The same draft with a conversation: the reviewer asked, the agent answered.
  assert.equal((await agent.decide(ids[0]!, { action: 'chat', message: 'Is Dana expecting the whole team, or just her?' })).status, 200);
  assert.equal((await svc.api.post(`/v1/reviews/${ids[0]}/chat`, { message: 'Dana asked for the whole procurement team; five people.' }, agent.key)).status, 200);
  await page.reload(); // the review's own address: the page comes back on it
  await page.getByText('Dana asked for the whole procurement team; five people.').first().waitFor();
  await shoot(REVIEW_SCREENSHOT, (at) => page.screenshot({ path: at, fullPage: true }), ([w, h]) => assert.ok(w === VIEWPORT.width && h >= VIEWPORT.height));
  assert.deepEqual(log.errors, []);

  // A phone's width, and dark mode: the queue as each shows it.
  for (const [file, options] of [
    [PHONE_SCREENSHOT, { viewport: PHONE, deviceScaleFactor: 1, isMobile: true, colorScheme: 'light' }],
    [DARK_SCREENSHOT, { viewport: VIEWPORT, deviceScaleFactor: 1, colorScheme: 'dark' }],
  ] as const) {
    const other = await browser.newContext({ ...options, locale: 'en-US', timezoneId: 'UTC' });
    other.setDefaultTimeout(10_000);
    const opened = await openPage(other);
    const again = await createSignInLink(svc.services.db, svc.services.identity, { email: tenant.email, baseUrl: svc.url, now: new Date() });
    await opened.page.goto(again.url);
    await opened.page.getByRole('heading', { name: 'Review queue' }).waitFor();
    for (const d of drafts) await opened.page.getByRole('button', { name: d.subject }).waitFor();
    await shoot(file, (at) => opened.page.screenshot({ path: at }), (wh) => assert.deepEqual(wh, [options.viewport.width, options.viewport.height]));
    assert.deepEqual(opened.log.errors, []);
    await other.close();
  }

  // The console's guide sits beside the pictures in docs/, so it names them without the folder.
  const guide = await fs.readFile(path.join(PROJECT_ROOT, 'docs', 'console.md'), 'utf8');
  for (const picture of [SCREENSHOT, MACHINE_SCREENSHOT, REVIEW_SCREENSHOT, PHONE_SCREENSHOT, DARK_SCREENSHOT]) {
    assert.match(guide, new RegExp(`!\\[[^\\]]+\\]\\(${path.basename(picture).replace('.', '\\.')}\\)`), `the console's guide shows ${picture}`);
  }
});
