// Outbound DKIM: mail from a verified custom domain is signed with its own key, mail from
// INBOX_DOMAIN with DKIM_PRIVATE_KEY; the relay sink verifies each signature with mailauth against
// the records published on a DNS server on loopback.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, test } from '../../testkit/test.ts';
import { authenticate } from 'mailauth';
import { dnsResolver } from '../../service/dns.ts';
import { publishRecords, startTestDns } from '../../testkit/dns.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
import { startRelay } from '../../testkit/relay.ts';

const dns = await startTestDns();
const relay = await startRelay();
after(() => relay.close());
const serviceKey = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const servicePem = serviceKey.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
dns.txt('svc2026._domainkey.agents.test', `v=DKIM1; k=rsa; p=${serviceKey.publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`);
const svc = await startTestService({
  env: { DNS_SERVERS: dns.server, MX_HOST: 'mx.agents.test', SMTP_URL: relay.url, DKIM_PRIVATE_KEY: servicePem, DKIM_SELECTOR: 'svc2026' },
});
const resolver = dnsResolver({ dnsServers: [dns.server] });

async function verifyAtSink(raw: Buffer) {
  const { dkim } = await authenticate(raw, { ip: '127.0.0.1', helo: 'relay.test', sender: 'x@agents.test', mta: 'sink.test', resolver, disableArc: true } as any);
  return dkim.results.map((r: any) => ({ domain: r.signingDomain, selector: r.selector, result: r.status.result }));
}

async function directSend(key: string, inboxId: string, subject: string) {
  const r = await svc.api.post(`/v1/inboxes/${inboxId}/send`, { to: ['reader@example.net'], subject, text: 'signed, I hope' }, key);
  assert.equal(r.status, 202, r.text);
  assert.equal(r.body.outcome, 'released');
  return waitFor(() => relay.received.find((m) => m.mail.subject === subject), `"${subject}" at the relay`);
}

test('a send from a verified custom domain is DKIM-signed with its key and verifies at the relay; a tampered copy fails', async () => {
  const t = await createTenant(svc, { plan: 'startup' });
  const A = `/v1/admin/orgs/${t.orgId}/projects/${t.projectId}`;
  const name = `signed${Date.now().toString(36)}.example.org`;
  const d = await svc.api.post(`${A}/domains`, { domain: name }, t.consoleToken);
  publishRecords(dns, d.body);
  assert.equal((await svc.api.post(`${A}/domains/${name}/verify`, {}, t.consoleToken)).body.status, 'verified');
  const { agentKey } = await t.enroll();
  const inbox = await svc.api.post('/v1/inboxes', { domain: name, username: 'signer' }, agentKey);
  assert.equal(inbox.status, 201, inbox.text);
  await svc.api.patch(`${A}/inboxes/${inbox.body.id}`, { review_policy: 'allow_direct' }, t.consoleToken);

  const got = await directSend(agentKey, inbox.body.id, 'from a custom domain');
  // The return path is on the inbox's own domain, whose MX brings its bounces here.
  assert.match(got.from, new RegExp(`^bounce\\+rr_[0-9a-z]{20}\\.[0-9a-f]{16}@${name.replaceAll('.', '\\.')}$`));
  assert.deepEqual(await verifyAtSink(got.raw), [{ domain: name, selector: 'svc2026', result: 'pass' }]);

  const tampered = Buffer.from(got.raw.toString('latin1').replace('Subject: from a custom domain', 'Subject: from a forged domain'), 'latin1');
  assert.notDeepEqual(tampered, got.raw);
  assert.equal((await verifyAtSink(tampered))[0]!.result, 'fail');
});

test('a send from INBOX_DOMAIN is signed with DKIM_PRIVATE_KEY under DKIM_SELECTOR', async () => {
  const t = await createTenant(svc, { plan: 'startup' });
  const { agentKey } = await t.enroll();
  const inbox = await svc.api.post('/v1/inboxes', { username: `plain${Date.now().toString(36)}` }, agentKey);
  await svc.api.patch(`/v1/admin/orgs/${t.orgId}/projects/${t.projectId}/inboxes/${inbox.body.id}`, { review_policy: 'allow_direct' }, t.consoleToken);
  const got = await directSend(agentKey, inbox.body.id, 'from the service domain');
  assert.deepEqual(await verifyAtSink(got.raw), [{ domain: 'agents.test', selector: 'svc2026', result: 'pass' }]);
});
