// Realistic messages of a given size: multipart/alternative text and html, and above 32 KB a
// PDF-like attachment. Each message gets its own Message-ID, as real traffic does, and one of
// BODIES different texts: stored mail that repeated one text would compress and index as real
// mail does not.
import crypto from 'node:crypto';
import { prng, prose, vocabulary } from './_words.ts';

const BODIES = 64;

/** A function from (n, recipient) to the raw bytes of message n, about `bytes` long. */
export function bodyOf(bytes: number, tag: string): (n: number, to: string) => Buffer {
  const attach = bytes > 32 * 1024;
  const textBytes = attach ? 2048 : Math.floor(bytes * 0.4);
  const htmlBytes = attach ? 3072 : Math.floor(bytes * 0.5);
  const words = vocabulary(5000, prng(3));
  const bodies = Array.from({ length: BODIES }, (_, i) => ({
    text: prose(textBytes, 2 * i + 1, words),
    html: `<html><body><p>${prose(htmlBytes - 40, 2 * i + 2, words).replace(/\r\n/g, '</p>\r\n<p>')}</p></body></html>`,
  }));
  const attachment = attach
    ? crypto.randomBytes(Math.floor(((bytes - 6 * 1024) * 3) / 4)).toString('base64').replace(/.{76}/g, '$&\r\n')
    : '';
  return (n, to) => {
    const { text, html } = bodies[n % BODIES]!;
    const head = [
      'From: "Load Sender" <load@sender.example>',
      `To: ${to}`,
      `Subject: Status report ${n} about the weekly release`,
      `Date: ${new Date().toUTCString()}`,
      `Message-ID: <${tag}-${n}-${crypto.randomUUID()}@sender.example>`,
      'MIME-Version: 1.0',
    ];
    const alt = [
      '--alt',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: 8bit',
      '',
      text,
      '--alt',
      'Content-Type: text/html; charset=utf-8',
      'Content-Transfer-Encoding: 8bit',
      '',
      html,
      '--alt--',
    ];
    const lines = attach
      ? [
          ...head,
          'Content-Type: multipart/mixed; boundary="mix"',
          '',
          '--mix',
          'Content-Type: multipart/alternative; boundary="alt"',
          '',
          ...alt,
          '--mix',
          'Content-Type: application/pdf; name="report.pdf"',
          'Content-Disposition: attachment; filename="report.pdf"',
          'Content-Transfer-Encoding: base64',
          '',
          attachment,
          '--mix--',
          '',
        ]
      : [...head, 'Content-Type: multipart/alternative; boundary="alt"', '', ...alt, ''];
    return Buffer.from(lines.join('\r\n'));
  };
}
