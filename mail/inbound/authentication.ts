// SPF, DKIM, DMARC and ARC verdicts of an inbound message, by mailauth, computed while the
// message is parsed. The lookups are bounded: past INBOUND_AUTH_TIMEOUT_SECONDS every verdict not
// yet known is `temperror` and the message is stored anyway, so a slow or silent DNS server
// delays the reply to DATA by at most the bound and never loses mail.
import type { Config } from '../../service/config.ts';
import { cachingResolver, dnsResolver, type ResolveFn } from '../../service/dns.ts';

export type Verdict = { result: string; domain: string | null };
export type Authentication = {
  spf: Verdict;
  dkim: Verdict;
  dmarc: Verdict;
  arc: Verdict;
  /**
   * The From domain is vouched for: DMARC passes, or (for a domain without a DMARC record) a DKIM
   * signature of the From domain or a parent of it passes.
   */
  authenticated: boolean;
};

export type SmtpClient = { ip: string; helo: string | null; mail_from: string | null };

const domainOf = (address: string | null | undefined): string | null => {
  const at = address?.lastIndexOf('@') ?? -1;
  return at < 0 ? null : address!.slice(at + 1).toLowerCase().replace(/>$/, '') || null;
};

const aligned = (signer: string | null, from: string | null) => !!signer && !!from && (from === signer || from.endsWith(`.${signer}`));

/** Every verdict `temperror`: the bound passed or the verification itself failed. */
export function temporaryVerdicts(client: SmtpClient, fromDomain: string | null): Authentication {
  const t = (domain: string | null): Verdict => ({ result: 'temperror', domain });
  return { spf: t(domainOf(client.mail_from)), dkim: t(null), dmarc: t(fromDomain), arc: t(null), authenticated: false };
}

export function summarize(r: any, client: SmtpClient): Authentication {
  const results: any[] = r.dkim?.results ?? [];
  const best = results.find((x) => x.status?.result === 'pass') ?? results[0];
  const fromDomain = domainOf(r.dkim?.headerFrom?.[0]) ?? r.dmarc?.domain ?? null;
  const dkim: Verdict = { result: best?.status?.result ?? 'none', domain: best?.signingDomain ?? null };
  const dmarc: Verdict = { result: r.dmarc?.status?.result ?? 'none', domain: r.dmarc?.domain ?? fromDomain };
  const dkimAligned = results.some((x) => x.status?.result === 'pass' && aligned(x.signingDomain, fromDomain));
  return {
    spf: { result: r.spf?.status?.result ?? 'none', domain: r.spf?.domain ?? domainOf(client.mail_from) },
    dkim,
    dmarc,
    arc: { result: r.arc?.status?.result ?? 'none', domain: r.arc?.signature?.signingDomain ?? null },
    authenticated: dmarc.result === 'pass' || (dmarc.result === 'none' && dkimAligned),
  };
}

export type Verifier = (raw: Buffer, client: SmtpClient) => Promise<Authentication>;

// DKIM and ARC read the body only to check a signature over it; SPF and DMARC never do.
const SIGNATURE_HEADER = /^(?:dkim-signature|arc-seal|arc-message-signature|arc-authentication-results)[ \t]*:/im;

/**
 * What verification reads of a message: the whole of it when it carries a DKIM or ARC header,
 * else its header section alone, which gives the same verdicts without canonicalizing the body
 * byte by byte (most of the verification's time for a message with a large attachment).
 */
export function verifiedPart(raw: Buffer): Buffer {
  const crlf = raw.indexOf('\r\n\r\n');
  const lf = raw.indexOf('\n\n');
  const end = crlf >= 0 && (lf < 0 || crlf < lf) ? crlf + 4 : lf >= 0 ? lf + 2 : -1;
  if (end < 0) return raw;
  const head = raw.subarray(0, end);
  return SIGNATURE_HEADER.test(head.toString('latin1')) ? raw : head;
}

// mailauth takes a third of a second to load: only a process that receives mail pays for it.
let mailauth: Promise<typeof import('mailauth')> | undefined;
function loadMailauth(): Promise<typeof import('mailauth')> {
  mailauth ??= import('mailauth');
  return mailauth;
}

export function inboundVerifier(config: Pick<Config, 'dnsServers' | 'inboxDomain' | 'inboundAuthTimeoutSeconds'>, resolve?: ResolveFn): Verifier {
  const boundMs = config.inboundAuthTimeoutSeconds * 1000;
  // Each query may take at most the whole bound; a silent server then costs the bound, not more.
  const resolver = resolve ?? cachingResolver(dnsResolver(config, Math.max(50, Math.min(1_000, boundMs))));
  return async (raw, client) => {
    // Loaded before the bound starts, so the first mail's verdicts are not cut short by the load.
    const { authenticate } = await loadMailauth();
    let timer: NodeJS.Timeout | undefined;
    const fromDomain = () => domainOf(/^from:.*?<?([^\s<>]+@[^\s<>]+)>?\s*$/im.exec(raw.subarray(0, 64 * 1024).toString('latin1'))?.[1]);
    const bound = new Promise<Authentication>((resolveBound) => {
      timer = setTimeout(() => resolveBound(temporaryVerdicts(client, fromDomain())), boundMs);
    });
    const verify = authenticate(verifiedPart(raw), {
      ip: client.ip,
      helo: client.helo ?? undefined,
      sender: client.mail_from ?? '',
      mta: config.inboxDomain,
      resolver,
      // BIMI needs an HTTPS fetch of a logo, which nothing here shows.
      disableBimi: true,
    } as any).then(
      (r) => summarize(r, client),
      () => temporaryVerdicts(client, fromDomain()),
    );
    try {
      return await Promise.race([verify, bound]);
    } finally {
      clearTimeout(timer);
    }
  };
}
