// What operators read from the command line: machine snapshots, the machines' diagrams, the
// local outbox.
import { toMermaid } from '../machines/mermaid.ts';
import type { Executor } from '../storage/db.ts';
import { findOutbox, listOutbox, parkedDeliveries } from '../storage/review-deliveries.ts';
import { reviewOrgOf } from '../storage/reviews.ts';
import type { ReviewContext } from '../machines/review-request.ts';
import { machineOrgOf } from '../storage/machines.ts';
import { armedTimers, type ArmedTimer } from '../storage/review-links.ts';
import { JOBS } from './jobs.ts';
import { reviewKind } from './reviews/kind.ts';
import { signupKind } from './signup.ts';
import { ruleKind } from './rules.ts';
import { supportCaseKind } from './support/kind.ts';
import { categoryKind } from './categories.ts';
import { describeMachine, type MachineDescription, type MachineKind } from './run-machine.ts';

/** Every persisted machine kind, by the prefix of its ids. */
const KINDS: Array<{ prefix: string; def: MachineKind; orgOf(db: Executor, id: string): Promise<string | null> }> = [
  { prefix: 'rr_', def: reviewKind, orgOf: reviewOrgOf },
  { prefix: 'sgn_', def: signupKind, orgOf: (db, id) => machineOrgOf(db, 'signup', id) },
  { prefix: 'rule_', def: ruleKind, orgOf: (db, id) => machineOrgOf(db, 'rule', id) },
  { prefix: 'sc_', def: supportCaseKind, orgOf: (db, id) => machineOrgOf(db, 'support_case', id) },
  { prefix: 'cat_', def: categoryKind, orgOf: (db, id) => machineOrgOf(db, 'category', id) },
];

export type ReviewRouting = {
  route: string;
  hops: number;
  max_hops: number;
  reviewer_agent_id: string | null;
  /** Escalation and deadline jobs still waiting to fire (a stale one is refused when it does). */
  timers: ArmedTimer[];
};

export async function machineSnapshot(db: Executor, id: string): Promise<(MachineDescription & Partial<ReviewRouting>) | null> {
  const kind = KINDS.find((k) => id.startsWith(k.prefix));
  if (!kind) return null;
  const orgId = await kind.orgOf(db, id);
  const found = orgId ? await describeMachine(db, kind.def, orgId, id) : null;
  if (!found || kind.def !== reviewKind) return found;
  // Who has the review and what will wake it, at a glance beside the snapshot.
  const c = (found.snapshot as { context: ReviewContext }).context;
  return {
    ...found,
    route: c.route,
    hops: c.hops,
    max_hops: c.max_hops,
    reviewer_agent_id: c.reviewer?.agent_id ?? null,
    timers: await armedTimers(db, id, [JOBS.reviewEscalation.name, JOBS.reviewDeadline.name]),
  };
}

/** The state diagram of each machine, generated from its definition (Mermaid). */
export function machineDiagrams(): string {
  return KINDS.map(({ def }) => `%% ${def.kind}\n${toMermaid(def.machine)}`).join('\n');
}

export { findOutbox, listOutbox, parkedDeliveries };
