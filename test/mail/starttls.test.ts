// STARTTLS on the inbound SMTP server when SMTP_TLS_KEY and SMTP_TLS_CERT name a key pair.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { test } from '../../testkit/test.ts';
import { smtpTransport } from '../../testkit/mail.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { scratchDir } from '../../testkit/scratch.ts';

const dir = scratchDir('tls');
const key = path.join(dir, 'key.pem');
const cert = path.join(dir, 'cert.pem');
execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=agents.test'], {
  stdio: 'ignore',
});

const svc = await startTestService({ roles: ['api', 'smtp'], env: { SMTP_TLS_KEY: key, SMTP_TLS_CERT: cert } });
const tenant = await createTenant(svc);
const { agentKey } = await tenant.enroll('tls-reader');

test('with a key pair configured, STARTTLS is offered and mail sent over it is stored', async () => {
  const inbox = (await svc.api.post('/v1/inboxes', {}, agentKey)).body;
  const transport = smtpTransport(svc, { ignoreTLS: false, requireTLS: true, tls: { rejectUnauthorized: false } });
  try {
    // requireTLS: nodemailer sends nothing unless the STARTTLS upgrade succeeds.
    const info = await transport.sendMail({ from: 'tls@example.org', to: inbox.address, subject: 'Over TLS', text: 'secret' });
    assert.match(info.response, /^250 /);
  } finally {
    transport.close();
  }
  const list = await svc.api.get(`/v1/inboxes/${inbox.id}/messages`, agentKey);
  assert.equal(list.body.data.length, 1);
  assert.equal(list.body.data[0].subject, 'Over TLS');
});

test('without TLS the server refuses a client that requires it', async () => {
  const plain = await startTestService({ roles: ['smtp'] });
  const transport = smtpTransport(plain, { ignoreTLS: false, requireTLS: true, tls: { rejectUnauthorized: false } });
  try {
    await assert.rejects(transport.sendMail({ from: 'a@example.org', to: 'x@agents.test', subject: 'x', text: 'x' }), /STARTTLS/i);
  } finally {
    transport.close();
  }
});
