-- Queued drafts by category (backlog status, recheck broadcasts) are only ever read in the
-- queued states, so only queued drafts are in the index. It held every review, so each
-- auto-send's transitions and each decided draft kept writing to it; and on a young table whose
-- statistics were taken small, the planner could take it (org first) for the lookup of one
-- review by org and id, reading every review of the org to find one.
DROP INDEX machine_instances_category;
CREATE INDEX machine_instances_category ON machine_instances (org_id, ((snapshot->'context'->>'category_id')), state)
  WHERE kind = 'review' AND state IN ('needs_review', 'in_review', 'chatting');
