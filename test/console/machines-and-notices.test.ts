// The console's machine view and its auto-send notifications, in a real Chromium against the
// real service and a real SMTP relay on loopback: a review's diagram marks where it is and how it
// got there, and a mail a graduated category sent on its own reaches the human without a reload.
import assert from 'node:assert/strict';
import { after, test } from '../../testkit/test.ts';
import { createSignInLink } from '../../actors/console-sessions.ts';
import { launchBrowser, newVisitor, openPage, seriousA11yViolations } from '../../testkit/browser.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
import { startRelay } from '../../testkit/relay.ts';
import { INTENT, agentWithInbox } from '../reviews/setup.ts';
import { focused } from './queue-kit.ts';

const browser = await launchBrowser();
const relay = await startRelay();
const svc = await startTestService({ env: { SMTP_URL: relay.url } });
after(() => relay.close());
const tenant = await createTenant(svc, { plan: 'enterprise' });
const A = `/v1/admin/orgs/${tenant.orgId}/projects/${tenant.projectId}`;
const agent = await agentWithInbox(svc, tenant);
const owner = await newVisitor(browser);
const { page, log } = await openPage(owner);
const link = await createSignInLink(svc.services.db, svc.services.identity, { email: tenant.email, baseUrl: svc.url, now: new Date() });
await page.goto(link.url);
await page.getByRole('heading', { name: 'Review queue' }).waitFor();

test("a review's machine view marks its current state, highlights the transitions taken and lists them", async () => {
  const sent = await agent.send({ to: 'dana@acme.example', subject: 'Draw my machine', text: 'Hello', intent: INTENT });
  assert.equal(sent.status, 202, sent.text);
  const id = sent.body.review_id;
  assert.equal((await agent.decide(id, { action: 'open' })).status, 200);
  // Selected in the queue, then opened on its own page, where the machine is.
  await page.locator(`tr[data-review="${id}"]`).getByRole('button').click();
  await page.getByRole('link', { name: /Open the review/ }).click();
  await page.getByRole('heading', { name: 'Draw my machine', level: 1 }).waitFor();
  await page.getByRole('button', { name: 'Show the machine' }).click();
  const view = page.getByRole('region', { name: /Machine: review, now in_review/ });
  await view.waitFor();
  const diagram = view.getByRole('img', { name: /State diagram of review .*now in in_review; 2 transition/ });
  await diagram.waitFor();
  // Every state of the definition is drawn; only the current one is marked.
  const states = await view.locator('g.state').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-state')));
  assert.deepEqual(states.sort(), ['approved', 'auto_sent', 'cancelled', 'chatting', 'edited', 'failed', 'in_review', 'needs_review', 'new', 'rejected', 'sending_auto', 'sent']);
  assert.deepEqual(await view.locator('g.state.current').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-state'))), ['in_review']);
  assert.match(await view.locator('g.state.current text').textContent() ?? '', /▶ in_review/);
  const taken = await view.locator('path.edge.taken').evaluateAll((ps) => ps.map((p) => `${p.getAttribute('data-from')}>${p.getAttribute('data-to')}`));
  assert.deepEqual(taken.sort(), ['needs_review>in_review', 'new>needs_review']);
  assert.ok(await view.locator('path.edge:not(.taken)').count() > 20, 'the untaken edges are drawn too');
  // The same history as a table.
  const rows = await view.getByRole('table', { name: 'Transitions that led to in_review' }).locator('tbody tr').allInnerTexts();
  assert.deepEqual(rows.map((r) => r.split('\t').slice(0, 4)), [['1', 'submit', '(start: new)', 'needs_review'], ['2', 'open', 'needs_review', 'in_review']]);
  assert.match(await view.innerText(), /Legal now: approve, edit, reject, chat, revise, cancel/);
  assert.deepEqual(await seriousA11yViolations(page), [], 'the machine view passes axe');
  assert.deepEqual(log.errors.splice(0), []);
  // x asks first: Ctrl+Enter confirms once the question has the focus.
  await page.keyboard.press('x');
  await focused(page, 'Why cancel (optional)');
  await page.keyboard.press('Control+Enter');
  await agent.until(id, 'cancelled');
  await page.getByRole('heading', { name: 'Review queue' }).waitFor();
});

test('a mail sent on its own in an auto_notify category shows up as a notification without a reload; mark seen clears it for good', async () => {
  const navigations: string[] = [];
  // A page load, not a move between the page's own addresses.
  page.on('load', () => navigations.push(page.url()));
  // A small test dial: graduation needs nothing, and a first mail to a recipient may go on its own.
  const dial = await svc.api.patch(`${A}/review-settings`, { graduate_min_approvals: 0, graduate_min_age_hours: 0, first_contact_gate: false }, tenant.consoleToken);
  assert.equal(dial.status, 200, dial.text);
  const cat = await svc.api.post(`${A}/categories`, { name: 'Demo confirmations' }, tenant.consoleToken);
  assert.equal(cat.status, 201, cat.text);
  const up = await svc.api.post(`${A}/categories/${cat.body.id}/graduate`, {}, tenant.consoleToken);
  assert.equal(up.body.rung, 'auto_notify', up.text);
  const badge = page.getByRole('button', { name: /^Auto-sent/ });
  assert.match(await badge.innerText(), /0/);

  const sent = await agent.send({ to: 'erin@acme.example', subject: 'Demo is confirmed', text: 'See you Tuesday.', intent: INTENT, category_id: cat.body.id });
  assert.equal(sent.status, 202, sent.text);
  assert.equal(sent.body.outcome, 'released');
  await agent.until(sent.body.review_id, 'auto_sent');
  await waitFor(() => relay.received.find((m) => m.mail.subject === 'Demo is confirmed'), 'the relay to receive the auto-send');
  await page.getByRole('button', { name: /Auto-sent 1 not yet seen/ }).waitFor();
  await badge.click();
  const list = page.getByRole('region', { name: 'Sent on their own' });
  assert.match(await list.innerText(), /Sent on its own in category Demo confirmations: to erin@acme\.example, “Demo is confirmed”/);
  assert.deepEqual(await seriousA11yViolations(page), [], 'the notification list passes axe');
  await list.getByRole('button', { name: 'Open the review' }).click();
  await page.getByRole('heading', { name: 'Demo is confirmed' }).waitFor();
  await page.locator('dd').filter({ hasText: 'auto_sent' }).waitFor();
  assert.deepEqual(navigations, [], 'the page did not reload');

  await badge.click();
  await list.getByRole('button', { name: 'Mark all seen' }).click();
  await page.getByRole('button', { name: /Auto-sent 0 not yet seen/ }).waitFor();
  // Seen stays seen after a reload; what arrives later is new, and one sent while away is replayed.
  await page.reload();
  await page.getByRole('button', { name: /Auto-sent 0 not yet seen/ }).waitFor();
  await page.close();
  const away = await agent.send({ to: 'erin@acme.example', subject: 'Sent while away', text: 'Room 4.', intent: INTENT, category_id: cat.body.id });
  await agent.until(away.body.review_id, 'auto_sent');
  const { page: back, log: backLog } = await openPage(owner);
  await back.goto(`${svc.url}/console/`);
  await back.getByRole('button', { name: /Auto-sent 1 not yet seen/ }).waitFor();
  await back.getByRole('button', { name: /^Auto-sent/ }).click();
  const again = await back.getByRole('region', { name: 'Sent on their own' }).innerText();
  assert.match(again, /Sent while away/);
  assert.doesNotMatch(again, /Demo is confirmed/);
  assert.deepEqual(log.errors.concat(backLog.errors), []);
});

test('another org cannot read this machine: 404 in its page', async () => {
  const stranger = await createTenant(svc);
  const id = (await agent.send({ to: 'dana@acme.example', subject: 'Private', text: 'x', intent: INTENT })).body.review_id;
  const { page: theirs } = await openPage(await newVisitor(browser));
  await theirs.goto((await createSignInLink(svc.services.db, svc.services.identity, { email: stranger.email, baseUrl: svc.url, now: new Date() })).url);
  await theirs.getByText('Nothing waits for review.').waitFor();
  const S = `/v1/admin/orgs/${stranger.orgId}/projects/${stranger.projectId}`;
  const statuses = await theirs.evaluate(async (paths) => Promise.all(paths.map(async (p) => (await fetch(p)).status)), [`${S}/machines/review/${id}`, `${A}/machines/review/${id}`]);
  assert.deepEqual(statuses, [404, 404]);
});
