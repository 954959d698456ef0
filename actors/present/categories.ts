// The shape of a category record in responses and events.
import { rungOf } from '../../machines/category.ts';
import type { CategoryRow } from '../../storage/categories.ts';

/** The category record of decisions.md. */
export function categoryView(c: CategoryRow) {
  const ctx = c.snapshot.context;
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    scope: c.scope,
    agent_id: c.agent_id,
    rung: rungOf(c.state),
    pinned: c.state === 'pinned',
    clean_approvals: ctx.clean_approvals,
    drift_count: ctx.drift_count,
    risk: c.risk,
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
  };
}
export type CategoryView = ReturnType<typeof categoryView>;
