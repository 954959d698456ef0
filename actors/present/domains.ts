import { recordsOf } from '../domains.ts';
import type { Config } from '../../service/config.ts';
import type { DomainWithUse } from '../../storage/domains.ts';

const iso = (d: Date | null) => (d === null ? null : new Date(d).toISOString());

/** A domain with the records to publish, each beside the result of its last check. */
export function presentDomain(config: Config, d: DomainWithUse) {
  return {
    id: d.id,
    domain: d.name,
    org_id: d.org_id,
    project_id: d.project_id,
    status: d.status,
    dkim_selector: d.dkim_selector,
    records: recordsOf(config, d).map((r) => {
      const check = d.checks.find((c) => c.kind === r.kind);
      return {
        kind: r.kind,
        type: r.type,
        host: r.host,
        value: r.value,
        ...(r.priority !== undefined ? { priority: r.priority } : {}),
        required: r.required,
        status: check?.status ?? 'pending',
        found: check?.found ?? [],
        detail: check?.detail ?? null,
      };
    }),
    inbox_count: d.inbox_count,
    checked_at: iso(d.checked_at),
    verified_at: iso(d.verified_at),
    created_at: iso(d.created_at),
  };
}
