// A send to an outside address and to an inbox here whose org is over its storage: the relay takes
// the outside copy at once, the hosted copy is deferred as a 452. When the tries run out the send
// is not failed (its outside recipient has it): it ends sent, with its SENT copy, the relay never
// handed the message again, and the sender's inbox told which recipient it did not reach.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from '../../testkit/test.ts';
import { MAX_DEFERRALS } from '../../machines/policy/delivery-outcome.ts';
import { createTenant, startTestService } from '../../testkit/service.ts';
import { waitFor } from '../../testkit/wait.ts';
import { startRelay } from '../../testkit/relay.ts';
import { INTENT, agentWithInbox, setPolicy } from '../reviews/setup.ts';
import { scratchDir } from '../../testkit/scratch.ts';

const plansFile = path.join(scratchDir('plans'), 'plans.json');
fs.writeFileSync(plansFile, JSON.stringify({ free: { storage_bytes: 1 } }));

const relay = await startRelay('accept');
const svc = await startTestService({ env: { PLANS_FILE: plansFile, SMTP_URL: relay.url } });
after(() => relay.close());
const db = svc.services.db;
const attemptOf = async (reviewId: string) =>
  (await db.query('SELECT phase, tries, last_error FROM review_deliveries WHERE review_id = $1', [reviewId])).rows[0];

test('when the tries for a refused hosted recipient run out, a send the relay took ends sent and its sender is told who it missed', async () => {
  const receiverOrg = await createTenant(svc, { plan: 'free' });
  const receiver = await agentWithInbox(svc, receiverOrg);
  const senderOrg = await createTenant(svc, { plan: 'startup' });
  const agent = await agentWithInbox(svc, senderOrg);
  await setPolicy(agent, 'allow_direct');

  const r = await agent.send({ to: [receiver.address, 'dana@acme.example'], subject: 'Across orgs', text: 'Hello to both of you', intent: INTENT });
  assert.equal(r.status, 202, r.text);
  const id = r.body.review_id as string;
  // The relay also carries the over-quota notice to the receiving org's owners.
  const handedOver = () => relay.received.filter((m) => m.mail.from?.value[0]?.address === agent.address).map((m) => m.to);
  const first = await waitFor(async () => {
    const a = await attemptOf(id);
    return a?.last_error ? a : null;
  }, 'the hosted copy to be deferred');
  assert.equal(first.phase, 'sent', 'the relay has the outside copy: no retry may hand it over again');
  assert.match(first.last_error, new RegExp(`^452 4\\.2\\.2 ${receiver.address}: the mailbox storage of this account is full`));
  assert.deepEqual(handedOver(), [['dana@acme.example']]);
  assert.equal((await agent.review(id)).body.state, 'sending_auto');

  // As if the earlier tries had been made: the next refusal is the last one allowed.
  await db.query('UPDATE review_deliveries SET tries = $2 WHERE review_id = $1', [id, MAX_DEFERRALS - 1]);
  await agent.until(id, 'auto_sent', 30_000);
  assert.deepEqual(handedOver(), [['dana@acme.example']], 'the relay was handed the message once');
  const attempt = await attemptOf(id);
  assert.equal(attempt.phase, 'sent');
  assert.match(attempt.last_error, new RegExp(`^not delivered to ${receiver.address}: gave up after ${MAX_DEFERRALS} temporary failures: 452 4\\.2\\.2 `));

  const { rows: senderMail } = await db.query(`SELECT folder, subject, text FROM messages WHERE inbox_id = $1 ORDER BY seq`, [agent.inboxId]);
  assert.deepEqual(senderMail.map((m) => [m.folder, m.subject]), [['SENT', 'Across orgs'], ['INBOX', 'Undelivered: Across orgs']]);
  assert.match(senderMail[1].text, new RegExp(`reached its other recipients, but not ${receiver.address}\\.`));
  assert.match(senderMail[1].text, new RegExp(`review ${id}`));
  const { rows: receiverMail } = await db.query(`SELECT count(*)::int AS n FROM messages WHERE inbox_id = $1`, [receiver.inboxId]);
  assert.equal(receiverMail[0].n, 0, 'nothing stored for the receiver');

  const { rows: usage } = await db.query(
    `SELECT sum(p.sent_messages)::int AS sent, (SELECT reserved::int FROM usage_accounts WHERE org_id = $1) AS reserved FROM usage_periods p
      WHERE p.org_id = $1 AND p.period = to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM')`,
    [senderOrg.orgId],
  );
  assert.deepEqual(usage, [{ sent: 1, reserved: 0 }], 'the send is counted once and holds nothing');
});
