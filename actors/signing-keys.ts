// Which key signs a sender's mail: a custom domain's own (verified or degraded, opened from its
// sealed form), INBOX_DOMAIN's when DKIM_PRIVATE_KEY is set, or none.
import { signDkim } from '../mail/outbound/dkim.ts';
import type { Config } from '../service/config.ts';
import { sealerFor } from '../service/encryption.ts';
import type { Executor } from '../storage/db.ts';
import { signingKeyOf } from '../storage/domains.ts';

export async function signOutbound(db: Executor, config: Config, sender: { org_id: string; project_id: string; domain: string }, raw: Buffer): Promise<Buffer> {
  const domain = sender.domain.toLowerCase();
  if (domain === config.inboxDomain || domain === config.freeInboxDomain) {
    if (!config.dkimPrivateKey) return raw;
    return signDkim(raw, { domainName: domain, keySelector: config.dkimSelector, privateKey: config.dkimPrivateKey });
  }
  const key = await signingKeyOf(db, sender.org_id, sender.project_id, domain);
  if (!key) return raw;
  return signDkim(raw, { domainName: key.name, keySelector: key.dkim_selector, privateKey: sealerFor(config).open(key.dkim_private_key) });
}
