-- Categories. A category's rung and its runs of approvals and drift are its machine snapshot
-- (machine_instances, kind 'category'); this row holds what a human names and sets.
CREATE TABLE categories (
  org_id text NOT NULL,
  project_id text NOT NULL,
  id text NOT NULL,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  scope text NOT NULL CHECK (scope IN ('org_shared', 'agent_private')),
  -- The agent an agent_private category belongs to; null for org_shared.
  agent_id text,
  -- Per-category risk dial override (a subset of the dial's fields); null inherits the account dial.
  risk jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id),
  CHECK ((scope = 'agent_private') = (agent_id IS NOT NULL))
);
CREATE INDEX categories_project ON categories (org_id, project_id, created_at, id);

-- Auto-sends per customer (org) per UTC day, in slots: the daily auto-send cap is split over the
-- slots and counted in the send transaction, each slot under its own share, so concurrent senders
-- on any process never pass the cap and do not all queue on one row lock.
CREATE TABLE auto_send_counters (
  org_id text NOT NULL,
  day date NOT NULL,
  slot integer NOT NULL,
  sent integer NOT NULL DEFAULT 0,
  -- Would-be auto-sends queued for review because the cap was reached.
  held integer NOT NULL DEFAULT 0,
  PRIMARY KEY (org_id, day, slot)
);

-- Queued drafts by category (backlog status, recheck broadcasts).
CREATE INDEX machine_instances_category ON machine_instances (org_id, ((snapshot->'context'->>'category_id')), state)
  WHERE kind = 'review';
