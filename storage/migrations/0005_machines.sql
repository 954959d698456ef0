-- Persisted state machines (reviews, rules, categories, sign-ups, support cases): the snapshot,
-- its row version for optimistic concurrency, and every transition that led there.
CREATE TABLE machine_instances (
  org_id text NOT NULL,
  project_id text NOT NULL,
  kind text NOT NULL,
  id text NOT NULL,
  inbox_id text,
  agent_id text,
  state text NOT NULL,
  version integer NOT NULL,
  machine_version integer NOT NULL,
  snapshot jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, kind, id)
);
CREATE UNIQUE INDEX machine_instances_id ON machine_instances (kind, id);
CREATE INDEX machine_instances_state ON machine_instances (org_id, project_id, kind, state, created_at, id);
CREATE INDEX machine_instances_agent ON machine_instances (org_id, agent_id, kind, created_at, id);

CREATE TABLE machine_transitions (
  org_id text NOT NULL,
  kind text NOT NULL,
  id text NOT NULL,
  version integer NOT NULL,
  event jsonb NOT NULL,
  from_state text,
  to_state text NOT NULL,
  actions jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, kind, id, version)
);
