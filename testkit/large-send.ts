// The largest send body the service takes: five attachments of random bytes (so nothing
// compresses) in base64, about 33 MB of JSON for a message of 25 MiB. The memory test and the
// review bench send it side by side.
import crypto from 'node:crypto';
import { MAX_MESSAGE_BYTES } from '../actors/send.ts';

export function largestSendBody(): string {
  const part = Math.floor((MAX_MESSAGE_BYTES - 1024) / 5);
  return JSON.stringify({
    to: ['someone@example.com'],
    subject: 'Large',
    text: 'See attached.',
    intent: { summary: 'Send the quarterly archive' },
    attachments: Array.from({ length: 5 }, (_, i) => ({ filename: `part${i}.bin`, content: crypto.randomBytes(part).toString('base64') })),
  });
}
