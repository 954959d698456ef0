// Where a draft stands against its project's rules: the high-water it is composed under.
import type { Executor } from '../../storage/db.ts';
import { highWater } from '../../storage/rules.ts';
import { BACKLOG_STALENESS_TOLERANCE } from '../categories.ts';

/** The rules high-water a draft of this project is composed under now: 0 before any writing rule, so every draft is current. */
export const currentRulesVersion = (db: Executor, r: { org_id: string; project_id: string }): Promise<number> => highWater(db, r.org_id, r.project_id);

/**
 * Where a draft stands against the project's rules now: composed under rules older than the
 * high-water by more than the backlog's tolerance is stale, as the backlog counts it (needs_redraft).
 */
export async function rulesStanding(db: Executor, r: { org_id: string; project_id: string }, rulesVersion: number) {
  const current = await currentRulesVersion(db, r);
  return { current_rules_version: current, rules_stale: rulesVersion < current - BACKLOG_STALENESS_TOLERANCE };
}
