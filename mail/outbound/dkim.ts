// DKIM signing of outbound mail with nodemailer's signer (relaxed/relaxed, rsa-sha256). Signing is
// deterministic, so a retried delivery sends the same bytes it composed the first time.
import DKIM from 'nodemailer/lib/dkim';

export type DkimKey = { domainName: string; keySelector: string; privateKey: string };

export async function signDkim(raw: Buffer, key: DkimKey): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const signed = new DKIM(key).sign(raw);
  for await (const chunk of signed) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
