// A verified self-signup for the console tests: signed up over HTTP, its code read from the mail
// the relay received, verified with the temporary key.
import assert from 'node:assert/strict';
import type { TestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
import type { Relay } from '../../testkit/relay.ts';

export type Verified = { email: string; agent_id: string; inbox_id: string; inbox_address: string; org_id: string; project_id: string; agent_key: string };

export async function signUpAndVerify(svc: TestService, relay: Relay, email: string, handle = 'scout'): Promise<Verified> {
  const before = relay.received.length;
  const r = await svc.api.post('/v1/agent/sign-up', { email, agent_handle: handle });
  assert.ok(r.status === 201 || r.status === 200, r.text);
  const code = await codeAtRelay(relay, email, before);
  const v = await svc.api.post('/v1/agent/verify', { code }, r.body.temporary_key);
  assert.equal(v.status, 200, v.text);
  return { email, agent_id: v.body.agent_id, inbox_id: v.body.inbox_id, inbox_address: v.body.inbox_address, org_id: v.body.org_id, project_id: v.body.project_id, agent_key: v.body.agent_key };
}

/** The code of the newest mail to `email` the relay received after the first `after` mails. */
export async function codeAtRelay(relay: Relay, email: string, after = 0): Promise<string> {
  const mail = await waitFor(() => relay.received.slice(after).filter((m) => m.to.includes(email.toLowerCase())).at(-1), `a code mail for ${email}`);
  const m = /verification code is (\d{6})/.exec(mail.mail.text ?? '');
  assert.ok(m, 'the mail carries a 6-digit code');
  return m[1]!;
}
