// A send parked with an unknown outcome (the relay dropped the connection after DATA) is shown to
// the project's humans on the console, in a real Chromium against the real service and relay. It
// used to wait silently for an operator who knew to look.
import assert from 'node:assert/strict';
import { after, test } from '../../testkit/test.ts';
import { createSignInLink } from '../../actors/console-sessions.ts';
import { launchBrowser, newVisitor, openPage, seriousA11yViolations } from '../../testkit/browser.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
import { startRelay } from '../../testkit/relay.ts';
import { INTENT, agentWithInbox } from '../reviews/setup.ts';

const browser = await launchBrowser();
const relay = await startRelay('drop-after-data');
after(() => relay.close());
const svc = await startTestService({ env: { SMTP_URL: relay.url } });

test('the console tells the humans which sends await reconciliation and how an operator settles them', async () => {
  const tenant = await createTenant(svc, { plan: 'enterprise' });
  const agent = await agentWithInbox(svc, tenant);
  const sent = await agent.send({ to: 'dana@acme.example', subject: 'Lost in the relay', text: 'Hello', intent: INTENT });
  assert.equal(sent.status, 202, sent.text);
  const id = sent.body.review_id;
  assert.equal((await agent.decide(id, { action: 'approve' })).status, 200);
  await waitFor(async () => (await agent.review(id)).body.send_needs_reconciliation === true, 'the send to be parked');

  const owner = await newVisitor(browser);
  const { page, log } = await openPage(owner);
  const link = await createSignInLink(svc.services.db, svc.services.identity, { email: tenant.email, baseUrl: svc.url, now: new Date() });
  await page.goto(link.url);
  const notice = page.getByRole('status').filter({ has: page.getByRole('heading', { name: '1 send awaits reconciliation' }) });
  await notice.waitFor();
  const text = await notice.innerText();
  assert.match(text, new RegExp(id));
  assert.match(text, /dana@acme\.example/);
  assert.match(text, /Lost in the relay/);
  assert.match(text, /agent-inbox reconcile REVIEW_ID --delivered/);
  assert.deepEqual(await seriousA11yViolations(page), [], 'the notice passes axe');
  await notice.getByRole('button', { name: 'Open the review' }).click();
  await page.getByRole('heading', { name: 'Lost in the relay' }).waitFor();
  assert.deepEqual(log.errors.splice(0), []);
});
