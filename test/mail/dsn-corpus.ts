// The DSN and ARF corpus (test/fixtures/mail/dsn): the shapes of RFC 3464 and RFC 5965 and of
// Postfix, Exim, qmail, Exchange and Gmail reports, written in our own words, with placeholders
// for what a test fills in (the return path, the recipient, the Message-ID of the sent mail).
import fs from 'node:fs';
import path from 'node:path';

const DIR = path.resolve(import.meta.dirname, '../fixtures/mail/dsn');

export type Fill = { RETURN_PATH: string; TO: string; SENDER: string; MESSAGE_ID: string; REVIEW_ID: string };

/** A fixture with its placeholders filled, CRLF line ends as on the wire. */
export function corpusMail(name: string, fill: Fill): Buffer {
  const text = fs.readFileSync(path.join(DIR, name), 'utf8').replace(/\{\{(\w+)\}\}/g, (_, k: keyof Fill) => fill[k]);
  return Buffer.from(text.replace(/\r?\n/g, '\r\n'));
}

/** What each report says about its one recipient. */
export const EXPECTED: Record<string, { format: string; kind: string; type: 'hard' | 'soft' | null; status: string | null }> = {
  'rfc3464-failed.eml': { format: 'dsn', kind: 'bounced', type: 'hard', status: '5.1.1' },
  'postfix-hard.eml': { format: 'dsn', kind: 'bounced', type: 'hard', status: '5.1.1' },
  'postfix-delayed.eml': { format: 'dsn', kind: 'delayed', type: 'soft', status: '4.4.1' },
  'exim-text.eml': { format: 'text', kind: 'bounced', type: 'hard', status: '5.1.1' },
  'qmail-text.eml': { format: 'text', kind: 'bounced', type: 'hard', status: '5.1.1' },
  'exchange.eml': { format: 'dsn', kind: 'bounced', type: 'hard', status: '5.1.10' },
  'gmail-unknown.eml': { format: 'dsn', kind: 'bounced', type: 'hard', status: '5.1.1' },
  'gmail-full.eml': { format: 'dsn', kind: 'bounced', type: 'soft', status: '5.2.2' },
  'arf-rfc5965.eml': { format: 'arf', kind: 'complained', type: null, status: null },
  'arf-headers-only.eml': { format: 'arf', kind: 'complained', type: null, status: null },
};
