// Custom domains: onboarding (a DKIM key generated and sealed, the records to publish answered),
// verification (each record looked up and judged), the daily re-verification of verified domains,
// offboarding, and purchase requests (no registrar in a self-hosted deployment).
import { planOf } from '../machines/policy/plans.ts';
import crypto from 'node:crypto';
import {
  expectedRecords,
  isServiceDomain,
  judgeRecord,
  normalizeDomainName,
  statusAfterCheck,
  type DnsRecord,
  type RecordCheck,
} from '../machines/policy/domain-records.ts';
import { checkQuota } from '../machines/policy/plans.ts';
import { Problem, badRequest, notFound, quotaExceeded } from '../machines/problems.ts';
import type { Config } from '../service/config.ts';
import { dnsResolver, lookupRecords, type ResolveFn } from '../service/dns.ts';
import { sealerFor } from '../service/encryption.ts';
import type { Logger } from '../service/logger.ts';
import { withTransaction, type Pool } from '../storage/db.ts';
import {
  countDomainsOfOrg,
  deleteDomain,
  domainsToRecheck,
  findDomain,
  inboxesOnDomain,
  insertDomain,
  listDomains,
  saveCheck,
  verifiedElsewhere,
  type DomainRow,
  type DomainWithUse,
} from '../storage/domains.ts';
import { newId, randomToken } from '../storage/ids.ts';
import { deleteInboxes, lockOrgForInboxes } from '../storage/inboxes.ts';

export type DomainDeps = { db: Pool; config: Config };
type Tenant = { org_id: string; project_id: string };

// A domain is re-verified once a day; the job runs hourly and takes those whose day has passed.
const RECHECK_AFTER_MS = 24 * 3600 * 1000;

export const recordsOf = (config: Config, d: DomainRow): DnsRecord[] =>
  expectedRecords({ name: d.name, token: d.verification_token, selector: d.dkim_selector, publicKey: d.dkim_public_key, mxHost: config.mxHost });

const unavailable = (name: string, detail: string) =>
  new Problem('domain_unavailable', { detail, errors: [{ field: 'domain', code: 'unavailable', detail: name }] });

/** A 2048-bit RSA key: the size RFC 8301 asks signers for, and one TXT record holds its public half. */
function dkimKeyPair(): { publicKey: string; privateKey: string } {
  const { publicKey, privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
  };
}

export async function onboardDomain(deps: DomainDeps, t: Tenant, rawName: string, now: Date): Promise<DomainWithUse> {
  const name = normalizeDomainName(rawName);
  if (!name) throw badRequest('domain', 'A fully qualified domain name, such as mail.example.com.', 'invalid_format');
  if (isServiceDomain(name, [deps.config.inboxDomain, deps.config.freeInboxDomain, deps.config.mxHost])) {
    throw unavailable(name, `${name} is the service's own domain and cannot be onboarded.`);
  }
  const keys = dkimKeyPair();
  const sealed = sealerFor(deps.config).seal(keys.privateKey);
  return withTransaction(deps.db, async (tx) => {
    const org = await lockOrgForInboxes(tx, t.org_id);
    if (!org) throw notFound('org');
    if (await verifiedElsewhere(tx, name, t.org_id, t.project_id)) {
      throw unavailable(name, `${name} is verified by another account; it can be onboarded here once they offboard it.`);
    }
    const limit = planOf(org.plan_tier, deps.config.plans).custom_domain_limit;
    const used = checkQuota(await countDomainsOfOrg(tx, t.org_id), limit);
    if (!used.allowed) {
      const detail = `The plan includes ${limit} custom domains and all are onboarded; offboard one or upgrade the plan.`;
      throw quotaExceeded(detail, {
        reason: 'custom_domain_limit_exceeded', used: used.used, delta: 1, limit, remaining: used.remaining, consumed: used.used, reserved: 0,
        upgrade_required: true,
      });
    }
    const row = await insertDomain(tx, {
      ...t,
      id: newId('dom'),
      name,
      verification_token: randomToken(32),
      dkim_selector: deps.config.dkimSelector,
      dkim_public_key: keys.publicKey,
      dkim_private_key: sealed,
    });
    if (!row) {
      throw new Problem('conflict', { detail: `${name} is already onboarded in this project.`, errors: [{ field: 'domain', code: 'taken' }] });
    }
    return { ...row, inbox_count: 0 };
  });
}

export const listProjectDomains = (deps: DomainDeps, t: Tenant) => listDomains(deps.db, t.org_id, t.project_id);

export async function getDomain(deps: DomainDeps, t: Tenant, nameOrId: string): Promise<DomainWithUse> {
  const d = await findDomain(deps.db, t.org_id, t.project_id, nameOrId);
  if (!d) throw notFound('domain');
  return d;
}

/** Looks every record up; the lookups run together, so a check costs one DNS round trip (or the timeout). */
export async function checkRecords(resolve: ResolveFn, records: DnsRecord[]): Promise<RecordCheck[]> {
  return Promise.all(records.map(async (r) => judgeRecord(r, await lookupRecords(resolve, r.host, r.type))));
}

/** Verifies a domain now: each record's result is stored, and the status that follows. */
export async function verifyDomain(deps: DomainDeps, t: Tenant, nameOrId: string, now: Date): Promise<DomainWithUse> {
  const found = await getDomain(deps, t, nameOrId);
  const checks = await checkRecords(dnsResolver(deps.config), recordsOf(deps.config, found));
  return withTransaction(deps.db, async (tx) => {
    const d = await findDomain(tx, t.org_id, t.project_id, found.id, true);
    if (!d) throw notFound('domain');
    const status = statusAfterCheck(d.status, recordsOf(deps.config, d), checks);
    if (status !== 'pending' && d.status === 'pending' && (await verifiedElsewhere(tx, d.name, t.org_id, t.project_id))) {
      throw unavailable(d.name, `${d.name} is verified by another account.`);
    }
    try {
      const saved = await saveCheck(tx, { org_id: d.org_id, id: d.id, status, checks, at: now });
      return { ...saved, inbox_count: d.inbox_count };
    } catch (err) {
      // Two accounts verifying one name at the same moment: the unique index lets one through.
      if ((err as { code?: string }).code === '23505') throw unavailable(d.name, `${d.name} is verified by another account.`);
      throw err;
    }
  });
}

/**
 * Offboards a domain. While inboxes use it the answer is 409 naming them, unless the caller asks
 * for them (their mail, threads and contacts) to be deleted too, in the same transaction.
 */
export async function offboardDomain(deps: DomainDeps, t: Tenant, nameOrId: string, deleteTheInboxes: boolean): Promise<void> {
  await withTransaction(deps.db, async (tx) => {
    const d = await findDomain(tx, t.org_id, t.project_id, nameOrId, true);
    if (!d) throw notFound('domain');
    const inboxes = await inboxesOnDomain(tx, t.org_id, t.project_id, d.name);
    if (inboxes.length > 0 && !deleteTheInboxes) {
      throw new Problem('conflict', {
        detail: `${inboxes.length} inboxes use ${d.name}; delete them first, or pass delete_inboxes=true to delete them with the domain.`,
        errors: [{ field: 'delete_inboxes', code: 'inboxes_in_use', detail: inboxes.join(',') }],
        extra: { inbox_count: inboxes.length },
      });
    }
    await deleteInboxes(tx, t.org_id, inboxes);
    await deleteDomain(tx, t.org_id, d.id);
  });
}

/** No registrar is wired into a self-hosted deployment: a purchase request is permanently unavailable. */
export function requestDomainPurchase(): never {
  throw new Problem('not_configured', {
    detail: 'This deployment has no domain registrar. Register the domain with any registrar, then onboard it (POST /v1/domains).',
  });
}

/**
 * The daily re-verification: each verified or degraded domain whose last check is a day old is
 * looked up again; a required record gone degrades it, records back verify it again.
 */
export async function recheckDomains(deps: DomainDeps & { log: Logger }, now: Date): Promise<{ checked: number; degraded: number }> {
  const resolve = dnsResolver(deps.config);
  let checked = 0;
  let degraded = 0;
  for (;;) {
    const batch = await domainsToRecheck(deps.db, new Date(now.getTime() - RECHECK_AFTER_MS + 60_000), 50);
    if (batch.length === 0) break;
    for (const d of batch) {
      const checks = await checkRecords(resolve, recordsOf(deps.config, d));
      const status = statusAfterCheck(d.status, recordsOf(deps.config, d), checks);
      await saveCheck(deps.db, { org_id: d.org_id, id: d.id, status, checks, at: now });
      checked++;
      if (status === 'degraded') {
        degraded++;
        deps.log.warn({ domain: d.name, org_id: d.org_id, failing: checks.filter((c) => c.status !== 'pass').map((c) => c.kind) }, 'a verified domain lost a required DNS record');
      }
    }
  }
  return { checked, degraded };
}
