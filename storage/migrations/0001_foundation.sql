-- Tenancy, identities, credentials, idempotency and rate limits.
-- Every tenant table leads its primary key with org_id so it can be distributed by tenant.

CREATE TABLE orgs (
  id text PRIMARY KEY,
  name text NOT NULL,
  plan_tier text NOT NULL DEFAULT 'free',
  default_review_policy text NOT NULL DEFAULT 'require_review'
    CHECK (default_review_policy IN ('require_review', 'allow_direct')),
  settings jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE projects (
  org_id text NOT NULL REFERENCES orgs (id),
  id text NOT NULL,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id)
);
CREATE UNIQUE INDEX projects_id ON projects (id);

CREATE TABLE users (
  id text PRIMARY KEY,
  email text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- project_id NULL: the membership covers every project of the org.
CREATE TABLE memberships (
  org_id text NOT NULL REFERENCES orgs (id),
  user_id text NOT NULL REFERENCES users (id),
  project_id text,
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'viewer', 'billing')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX memberships_scope ON memberships (org_id, user_id, coalesce(project_id, ''));

CREATE TABLE agents (
  org_id text NOT NULL,
  project_id text NOT NULL,
  id text NOT NULL,
  handle text NOT NULL,
  display_name text,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  enrollment_token_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, project_id) REFERENCES projects (org_id, id)
);
CREATE UNIQUE INDEX agents_handle ON agents (org_id, project_id, handle);
CREATE INDEX agents_id ON agents (id);

CREATE TABLE inboxes (
  org_id text NOT NULL,
  project_id text NOT NULL,
  id text NOT NULL,
  agent_id text NOT NULL,
  address text NOT NULL,
  domain text NOT NULL,
  display_name text,
  review_policy text CHECK (review_policy IN ('require_review', 'allow_direct')),
  recipient_limit_24h integer NOT NULL DEFAULT 500,
  webhook_url text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, project_id) REFERENCES projects (org_id, id)
);
CREATE UNIQUE INDEX inboxes_address ON inboxes (address);
CREATE INDEX inboxes_project ON inboxes (org_id, project_id, created_at, id);
CREATE INDEX inboxes_id ON inboxes (id);

-- Agent keys: the raw key is shown once; only its SHA-256 is kept.
CREATE TABLE api_keys (
  org_id text NOT NULL,
  project_id text,
  id text NOT NULL,
  agent_id text NOT NULL,
  ceiling text NOT NULL CHECK (ceiling IN ('org', 'project', 'inbox')),
  inbox_id text,
  kind text NOT NULL DEFAULT 'agent' CHECK (kind IN ('agent', 'temporary')),
  prefix text NOT NULL,
  key_hash bytea NOT NULL,
  permissions text[] NOT NULL,
  expires_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id),
  CHECK ((ceiling = 'org') = (project_id IS NULL)),
  CHECK ((ceiling = 'inbox') = (inbox_id IS NOT NULL))
);
CREATE UNIQUE INDEX api_keys_id ON api_keys (id);
CREATE INDEX api_keys_agent ON api_keys (org_id, agent_id);

CREATE TABLE enrollment_tokens (
  org_id text NOT NULL,
  project_id text NOT NULL,
  id text NOT NULL,
  label text,
  secret_hash bytea NOT NULL,
  prefix text NOT NULL,
  scopes text[],
  allowed_domains text[],
  max_mailboxes integer,
  mailboxes_created integer NOT NULL DEFAULT 0,
  daily_send_limit integer,
  reusable boolean NOT NULL DEFAULT false,
  redemptions integer NOT NULL DEFAULT 0,
  expires_at timestamptz,
  revoked_at timestamptz,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, project_id) REFERENCES projects (org_id, id)
);
CREATE UNIQUE INDEX enrollment_tokens_id ON enrollment_tokens (id);

-- Idempotency records: scope names the tenant and agent (or the enrollment token).
CREATE TABLE idempotency_keys (
  org_id text NOT NULL,
  scope text NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  status integer,
  body jsonb,
  headers jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, scope, key)
);
CREATE INDEX idempotency_keys_age ON idempotency_keys (created_at);

-- Fixed one-minute windows per key; the limiter weighs the previous window to slide.
CREATE TABLE rate_limit_windows (
  key_id text NOT NULL,
  window_start bigint NOT NULL,
  hits integer NOT NULL,
  PRIMARY KEY (key_id, window_start)
);
