-- Writing rules. Each row is one immutable revision; its status is its machine snapshot
-- (machine_instances, kind 'rule', project_id '' for an org-layer rule). An edit is a new row in
-- the same lineage with rev + 1.
CREATE TABLE rules (
  org_id text NOT NULL,
  -- '' for an org-layer rule, inherited by every project of the org.
  project_id text NOT NULL,
  id text NOT NULL,
  lineage_id text NOT NULL,
  rev integer NOT NULL,
  rule_layer text NOT NULL CHECK (rule_layer IN ('org', 'project')),
  scope text NOT NULL CHECK (scope IN ('general', 'category')),
  category_id text,
  scope_agent_id text,
  rule_text text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('soft', 'hard')),
  priority integer NOT NULL,
  supersedes_id text,
  author_kind text NOT NULL CHECK (author_kind IN ('agent', 'human')),
  -- The agent that proposed it, or the console member who wrote it.
  author_agent_id text,
  author_email text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id),
  UNIQUE (org_id, lineage_id, rev),
  CHECK ((scope = 'category') = (category_id IS NOT NULL)),
  CHECK ((rule_layer = 'org') = (project_id = ''))
);
CREATE UNIQUE INDEX rules_id ON rules (id);

-- The rules high-water per project: raised by every change to an active rule that applies there.
-- Drafts record the value they were composed under.
CREATE TABLE rules_high_water (
  org_id text NOT NULL,
  project_id text NOT NULL,
  version integer NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, project_id)
);

-- Every human change to a rule, with the revision before and after; an undo restores `before`
-- as a new revision and marks the row undone (once).
CREATE TABLE rule_audit (
  org_id text NOT NULL,
  project_id text NOT NULL,
  id text NOT NULL,
  lineage_id text NOT NULL,
  action text NOT NULL CHECK (action IN ('create', 'revise', 'activate', 'retire', 'undo')),
  before jsonb,
  after jsonb NOT NULL,
  actor_email text,
  undone_at timestamptz,
  undone_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id)
);
CREATE INDEX rule_audit_recent ON rule_audit (org_id, project_id, created_at DESC, id DESC);

-- Broadcast items on the durable review event queue (review.rule_changed): one item per affected
-- draft, all of one change sharing its broadcast_id, acknowledged by that id.
ALTER TABLE review_events ADD COLUMN broadcast_id text;
CREATE INDEX review_events_broadcast ON review_events (org_id, agent_id, broadcast_id) WHERE broadcast_id IS NOT NULL AND NOT acked;
