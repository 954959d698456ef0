// The mail viewer's folders, headers and verdicts in a real Chromium: received and sent mail apart,
// a received mail's header block as it arrived, and its SPF, DKIM, DMARC and ARC verdicts as the
// service computed them against a DNS server on loopback: a signed mail passes, a spoofed one fails.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, test } from '../../testkit/test.ts';
import MailComposer from 'nodemailer/lib/mail-composer';
import { createSignInLink } from '../../actors/console-sessions.ts';
import { signDkim } from '../../mail/outbound/dkim.ts';
import { launchBrowser, newVisitor, openPage, seriousA11yViolations } from '../../testkit/browser.ts';
import { startTestDns } from '../../testkit/dns.ts';
import { sendRaw } from '../../testkit/mail.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
import { startRelay } from '../../testkit/relay.ts';
import { agentWithInbox, setPolicy } from '../reviews/setup.ts';

const browser = await launchBrowser();
const relay = await startRelay();
after(() => relay.close());
const dns = await startTestDns();
// Every lookup here is answered, so no mail waits for the bound: it is wide so that a loaded machine
// still finishes the signed mail's checks within it, as the verdicts below need.
const svc = await startTestService({ env: { SMTP_URL: relay.url, DNS_SERVERS: dns.server, INBOUND_AUTH_TIMEOUT_SECONDS: '10' } });
// signed.example: its DKIM key, an SPF record letting loopback send, DMARC p=reject; bank.example
// lets only 192.0.2.1 send for it.
const key = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = key.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
dns.txt('sel._domainkey.signed.example', `v=DKIM1; k=rsa; p=${key.publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`);
dns.txt('signed.example', 'v=spf1 ip4:127.0.0.1 -all');
dns.txt('_dmarc.signed.example', 'v=DMARC1; p=reject');
dns.txt('bank.example', 'v=spf1 ip4:192.0.2.1 -all');
dns.txt('_dmarc.bank.example', 'v=DMARC1; p=reject');

const tenant = await createTenant(svc, { plan: 'enterprise' });
const agent = await agentWithInbox(svc, tenant);
const { page, log } = await openPage(await newVisitor(browser));

async function compose(from: string, subject: string): Promise<Buffer> {
  const composer = new MailComposer({ from, to: agent.address, subject, text: `${subject}.`, messageId: `<${crypto.randomUUID()}@test>`, headers: { 'X-Trace': 'a long header value that folds onto a second line' } });
  const raw: Buffer = await new Promise((resolve, reject) => composer.compile().build((err, m) => (err ? reject(err) : resolve(m))));
  // Folded as a long header may be (RFC 5322 2.2.3); the viewer shows it unfolded.
  return Buffer.from(raw.toString('latin1').replace('X-Trace: a long header value that', 'X-Trace: a long header value\r\n that'), 'latin1');
}

async function stored(subject: string, folder = 'INBOX'): Promise<any> {
  return waitFor(async () => {
    const r = await svc.api.get(`${agent.A}/inboxes/${agent.inboxId}/messages?folder=${folder}&limit=50`, tenant.consoleToken);
    return r.body.data.find((m: any) => m.subject === subject) ?? null;
  }, `"${subject}" in ${folder}`);
}

// A signed mail, a spoofed one, and a send of the agent's own.
await sendRaw(svc, await signDkim(await compose('Alice <alice@signed.example>', 'Signed and sealed'), { domainName: 'signed.example', keySelector: 'sel', privateKey: pem }), { from: 'alice@signed.example', to: [agent.address] });
await sendRaw(svc, await compose('Bank <security@bank.example>', 'Verify your account'), { from: 'security@bank.example', to: [agent.address] });
await setPolicy(agent, 'allow_direct');
const sent = await agent.send({ to: 'dana@acme.example', subject: 'Sent by the agent', text: 'See you Tuesday.' });
assert.equal(sent.status, 202, sent.text);
await stored('Signed and sealed');
await stored('Verify your account');
await stored('Sent by the agent', 'SENT');

const { url } = await createSignInLink(svc.services.db, svc.services.identity, { email: tenant.email, baseUrl: svc.url, now: new Date() });
await page.goto(url);
await page.getByRole('heading', { name: 'Review queue' }).waitFor();
await page.getByRole('button', { name: 'Mail', exact: true }).click();
await page.getByRole('heading', { name: 'Mail' }).waitFor();

const folders = page.getByRole('navigation', { name: 'Folders' });
/** Opens a message of the inbox from its list, wherever the viewer stands. */
async function openReceived(subject: string): Promise<void> {
  const back = page.getByRole('button', { name: 'Back to the messages' });
  if (await back.count()) await back.click();
  await folders.getByRole('button', { name: 'Inbox' }).click();
  await page.getByRole('button', { name: subject }).click();
  await page.getByRole('heading', { name: subject }).waitFor();
}
const subjects = () => page.locator('table.queue tbody button.link').allInnerTexts();

test('received and sent mail are listed apart, each folder its own', async () => {
  await page.getByRole('button', { name: 'Signed and sealed' }).waitFor();
  assert.equal(await folders.getByRole('button', { name: 'Inbox' }).getAttribute('aria-pressed'), 'true');
  assert.deepEqual((await subjects()).sort(), ['Signed and sealed', 'Verify your account']);
  await folders.getByRole('button', { name: 'Sent' }).click();
  await page.getByRole('button', { name: 'Sent by the agent' }).waitFor();
  assert.deepEqual(await subjects(), ['Sent by the agent']);
  assert.equal(await page.getByRole('columnheader', { name: 'To' }).count(), 1, 'sent mail is listed by recipient');
  assert.match(await page.locator('table.queue tbody tr').first().innerText(), /dana@acme\.example/);
  assert.deepEqual(await seriousA11yViolations(page), [], 'the folder list passes axe');

  // The sent mail has no verdicts: it never arrived over SMTP.
  await page.getByRole('button', { name: 'Sent by the agent' }).click();
  await page.getByRole('heading', { name: 'Sent by the agent' }).waitFor();
  await page.getByText('A sent message has no verdicts.').waitFor();
  await page.getByRole('button', { name: 'Back to the messages' }).click();
  await folders.getByRole('button', { name: 'Inbox' }).click();
  await page.getByRole('button', { name: 'Signed and sealed' }).waitFor();
  assert.deepEqual(log.errors.splice(0), []);
});

test('a signed mail shows SPF, DKIM and DMARC passing and its header block, unfolded, as it arrived', async () => {
  await openReceived('Signed and sealed');
  const auth = page.getByRole('region', { name: 'Authentication' });
  await auth.getByText('The sender is authenticated').waitFor();
  const verdict = (k: string) => auth.locator(`dd[data-verdict="${k}"]`).innerText();
  assert.equal(await verdict('spf'), 'pass signed.example');
  assert.equal(await verdict('dkim'), 'pass signed.example');
  assert.equal(await verdict('dmarc'), 'pass signed.example');
  assert.match(await verdict('arc'), /^none/);

  await page.getByRole('button', { name: 'Show the headers' }).click();
  const headers = page.getByRole('table', { name: /headers/ });
  await headers.waitFor();
  const rows = await headers.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [tr.querySelector('th')!.textContent, tr.querySelector('td')!.textContent]));
  const names = rows.map(([k]) => k!.toLowerCase());
  for (const h of ['dkim-signature', 'from', 'subject', 'message-id', 'x-trace']) assert.ok(names.includes(h), `${h} in ${names.join(', ')}`);
  assert.equal(rows.find(([k]) => k === 'X-Trace')![1], 'a long header value that folds onto a second line');
  assert.ok(names.indexOf('dkim-signature') < names.indexOf('from'), 'in the order they arrived, the signature prepended first');
  assert.deepEqual(await seriousA11yViolations(page), [], 'the message with its headers and verdicts passes axe');
  await page.getByRole('button', { name: 'Hide the headers' }).click();
  assert.equal(await page.getByRole('table', { name: /headers/ }).count(), 0);
  await page.getByRole('button', { name: 'Back to the messages' }).click();
  assert.deepEqual(log.errors.splice(0), []);
});

test('a mail from a domain that did not send it shows SPF and DMARC failing and the sender not authenticated', async () => {
  await openReceived('Verify your account');
  const auth = page.getByRole('region', { name: 'Authentication' });
  await auth.getByText('The sender is not authenticated.').waitFor();
  const api = (await svc.api.get(`${agent.A}/inboxes/${agent.inboxId}/messages/${(await stored('Verify your account')).id}`, tenant.consoleToken)).body;
  assert.equal(api.authentication.spf.result, 'fail');
  assert.equal(api.authentication.dmarc.result, 'fail');
  assert.match(await auth.locator('dd[data-verdict="spf"]').innerText(), /^fail bank\.example/);
  assert.match(await auth.locator('dd[data-verdict="dmarc"]').innerText(), /^fail bank\.example/);
  await auth.getByText(/Screened as high risk: .*dmarc_fail/).waitFor();
  assert.deepEqual(await seriousA11yViolations(page), [], 'a failing verdict passes axe');
  assert.deepEqual(log.errors.splice(0), []);
});
