// An agent on the SDK, start to finish: it enrolls, gets an inbox, waits for a verification code,
// then sends a mail through the Review Loop and follows the review until a human has decided.
//
//   ENROLLMENT_TOKEN=pk_enroll_... AGENT_INBOX_URL=http://127.0.0.1:8080 npx tsx examples/agent.ts
//
// ENROLLMENT_TOKEN comes from `npx agent-inbox bootstrap`. SEND_TO (default dana@example.com) is
// who the reviewed mail goes to.
import { AgentInbox, AgentInboxError } from '@agent-inbox/sdk';

const baseUrl = process.env.AGENT_INBOX_URL ?? 'http://127.0.0.1:8080';
const token = process.env.ENROLLMENT_TOKEN;
if (!token) throw new Error('set ENROLLMENT_TOKEN (from `npx agent-inbox bootstrap`)');
const to = process.env.SEND_TO ?? 'dana@example.com';

// 1. Trade the enrollment token for this agent's own key (the same handle is the same agent).
const enrolled = await new AgentInbox({ baseUrl }).redeemEnrollment({ token, agent_handle: process.env.AGENT_HANDLE ?? 'example-agent' });
const client = new AgentInbox({ baseUrl, apiKey: enrolled.agent_key });

// 2. An inbox of its own: sign up somewhere with this address.
const inbox = await client.createInbox({ display_name: 'Example agent' });
console.log(`inbox ${inbox.id} ${inbox.address}`);

// 3. Wait for the verification mail and take the code out of it.
const waited = await client.waitForEmail(inbox.id, { extract: 'code', timeout_seconds: 120 });
if (!waited.code) throw new Error('no verification code came in time');
console.log(`code ${waited.code}`);

// 4. Send through review. Under the default policy a send without an intent is refused with
//    `intent_required` and an example; say who, what and why, and send again.
const draft = { to, subject: 'Verified', text: `The sign-up is verified (code ${waited.code}).` };
async function send() {
  try {
    return await client.sendEmail(inbox.id, draft);
  } catch (err) {
    if (!(err instanceof AgentInboxError && err.code === 'intent_required')) throw err;
    console.log(`intent required, for example ${JSON.stringify(err.retryWith)}`);
    const intent = { summary: `Tell ${to} that the sign-up is verified` };
    // An idempotency key makes the send safe to retry (the SDK then retries it on network errors).
    return client.sendEmail(inbox.id, { ...draft, intent }, { idempotencyKey: `verified-${inbox.id}` });
  }
}
const queued = await send();
console.log(`queued ${queued.review_id} ${queued.outcome}`);

// 5. Follow the durable review event queue until the decision has played out. Each event is acked
//    as the loop moves on; the one it stops on is acked before leaving, so a next run does not
//    see it again.
const FINAL = ['review.sent', 'review.rejected', 'review.cancelled', 'review.failed'];
for await (const event of client.reviewEvents()) {
  if (event.review_id !== queued.review_id) continue;
  console.log(`event ${event.type}`);
  if (FINAL.includes(event.type)) {
    await client.ackReviewEvent(event);
    break;
  }
}
