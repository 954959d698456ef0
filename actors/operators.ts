// What operators read from the command line: machine snapshots, the machines' diagrams, the
// local outbox.
import { toMermaid } from '../machines/mermaid.ts';
import type { Executor } from '../storage/db.ts';
import { findOutbox, listOutbox } from '../storage/review-deliveries.ts';
import { reviewOrgOf } from '../storage/reviews.ts';
import { reviewKind } from './reviews.ts';
import { describeMachine, type MachineDescription, type MachineKind } from './run-machine.ts';

/** Every persisted machine kind, by the prefix of its ids. */
const KINDS: Array<{ prefix: string; def: MachineKind }> = [{ prefix: 'rr_', def: reviewKind }];

export async function machineSnapshot(db: Executor, id: string): Promise<MachineDescription | null> {
  const kind = KINDS.find((k) => id.startsWith(k.prefix));
  if (!kind) return null;
  const orgId = await reviewOrgOf(db, id);
  return orgId ? describeMachine(db, kind.def, orgId, id) : null;
}

/** The state diagram of each machine, generated from its definition (Mermaid). */
export function machineDiagrams(): string {
  return KINDS.map(({ def }) => `%% ${def.kind}\n${toMermaid(def.machine)}`).join('\n');
}

export { findOutbox, listOutbox };
