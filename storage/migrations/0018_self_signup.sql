-- Self-signup: an agent with no key signs up with an email address, verifies a mailed code with a
-- temporary key, and gets its durable key. The lifecycle itself is a machine instance (kind
-- `signup`); this row holds what the machine must not: the code's hash, the keys, the clock.
CREATE TABLE signups (
  org_id text NOT NULL,
  project_id text NOT NULL,
  id text NOT NULL,
  -- Normalized (trimmed, lower-cased): a re-signup with the same address finds this row.
  email text NOT NULL,
  agent_id text NOT NULL,
  inbox_id text NOT NULL,
  temporary_key_id text NOT NULL,
  code_hash bytea NOT NULL,
  code_expires_at timestamptz NOT NULL,
  durable_key_id text,
  -- The answer of the verification that succeeded, sealed (it holds the durable key): a replay
  -- of that same verification gets it again.
  verified_response bytea,
  verified_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, project_id) REFERENCES projects (org_id, id)
);
CREATE UNIQUE INDEX signups_id ON signups (id);
CREATE UNIQUE INDEX signups_temporary_key ON signups (temporary_key_id);
-- At most one unverified sign-up per address: a re-signup rotates it instead of starting another.
CREATE UNIQUE INDEX signups_open_email ON signups (email) WHERE verified_at IS NULL;

-- Each sign-up request, for the per-address and per-client-address limits.
CREATE TABLE signup_requests (
  email text NOT NULL,
  client_ip text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX signup_requests_email ON signup_requests (email, created_at);
CREATE INDEX signup_requests_ip ON signup_requests (client_ip, created_at);

-- Operator-set switches that outlive a restart and hold for every process (the signup gate).
-- A switch with no row takes its default from the configuration (SIGNUP_ENABLED).
CREATE TABLE service_settings (
  name text PRIMARY KEY,
  value jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- A self-signup inbox is pending until its code is verified.
ALTER TABLE inboxes ADD COLUMN status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'pending'));

-- System mail (sign-up codes) kept in the outbox belongs to no review.
ALTER TABLE outbound_outbox ALTER COLUMN review_id DROP NOT NULL;
