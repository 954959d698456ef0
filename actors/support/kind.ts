// The support case as a persisted machine (kind `support_case`) and its effect: a status change
// is announced as an event and mailed through a job.
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { Problem } from '../../machines/problems.ts';
import {
  SUPPORT_CASE_MACHINE_VERSION,
  allowedSupportCaseVerbs,
  supportCaseMachine,
  type SupportCaseActionParams,
  type SupportCaseEvent,
  type SupportCaseSnapshot,
} from '../../machines/support-case.ts';
import { publishEvent } from '../events.ts';
import { JOBS } from '../jobs.ts';
import type { EffectContext, MachineAction, MachineKind } from '../run-machine.ts';

async function performCaseAction(action: MachineAction, ctx: EffectContext): Promise<void> {
  if (action.type !== 'announceStatus') return;
  const { status } = action.params as SupportCaseActionParams['announceStatus'];
  const row = ctx.row;
  await publishEvent(ctx.tx, ctx.queue, {
    org_id: row.org_id,
    project_id: row.project_id,
    type: 'support_case.status_changed',
    payload: { case_id: row.id, status, from_status: ctx.previousState === 'new' ? null : ctx.previousState, version: row.version },
  });
  // A job, not a send inside this transaction: a relay that is down must not undo the status change.
  // It carries the status announced: by the time it runs, the case may have moved on.
  await ctx.enqueue(JOBS.supportCaseMail.name, { org_id: row.org_id, case_id: row.id, version: row.version, status });
}

export const supportCaseKind: MachineKind = {
  kind: 'support_case',
  machine: supportCaseMachine,
  version: SUPPORT_CASE_MACHINE_VERSION,
  perform: performCaseAction,
  allowed: (s) => allowedSupportCaseVerbs(s as SupportCaseSnapshot, Date.now()),
  reject: (s: AnyMachineSnapshot, event: EventObject) => {
    if ((s.value as string) === 'deleted') return caseDeleted();
    return s.can(event) ? null : new Problem('conflict', { detail: `${event.type} is not possible while the case is ${String(s.value)}.` });
  },
};

/** A typed machine event, passed to the runner (which takes any event). */
export const caseEvent = (e: SupportCaseEvent): EventObject => e;

export const caseDeleted = () =>
  new Problem('support_record_deleted', { detail: 'This support case was deleted.', extra: { reason: 'deleted', next_action: 'File new feedback if the problem is still there.' } });
