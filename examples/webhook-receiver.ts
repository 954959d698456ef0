// A webhook receiver: it checks each delivery's signature on the raw body, then prints the event.
//
//   AGENT_INBOX_WEBHOOK_SECRET=whsec_... PORT=3000 npx tsx examples/webhook-receiver.ts
//
// Register its URL first (`POST /v1/webhooks` with {"url": ...}); the answer shows the secret once.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkWebhookSignature } from '@agent-inbox/sdk';

const secret = process.env.AGENT_INBOX_WEBHOOK_SECRET ?? '';
if (!secret) throw new Error('set AGENT_INBOX_WEBHOOK_SECRET to the whsec_... secret of the webhook');
const seen = new Set<string>(); // deliveries are at least once: handle each event id once

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', async () => {
    // Verify the exact bytes that were signed, before any JSON parsing.
    const raw = Buffer.concat(chunks);
    const check = await checkWebhookSignature(raw, String(req.headers['x-service-signature'] ?? ''), secret);
    if (!check.ok) {
      console.log(`refused a delivery: ${check.reason}`);
      res.writeHead(400).end();
      return;
    }
    const event = JSON.parse(raw.toString('utf8'));
    if (!seen.has(event.id)) {
      seen.add(event.id);
      const about = event.message ? `: "${event.message.subject}" from ${event.message.from}` : '';
      console.log(`${event.event} ${event.id}${about}`);
    }
    res.writeHead(204).end();
  });
});

server.listen(Number(process.env.PORT ?? 3000), () => {
  console.log(`listening on port ${(server.address() as AddressInfo).port}`);
});
