-- Webhooks and their deliveries. The signing secret is kept encrypted (AES-256-GCM): it must be
-- read back to sign. After a rotation the previous secret keeps signing until previous_expires_at.
CREATE TABLE webhooks (
  org_id text NOT NULL,
  project_id text NOT NULL,
  id text NOT NULL,
  agent_id text NOT NULL,
  url text NOT NULL,
  events text[] NOT NULL,
  -- NULL: every inbox of the owning agent.
  inbox_id text,
  secret_sealed bytea NOT NULL,
  secret_prefix text NOT NULL,
  previous_secret_sealed bytea,
  previous_expires_at timestamptz,
  active boolean NOT NULL DEFAULT true,
  consec_failures integer NOT NULL DEFAULT 0,
  deactivated_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, project_id) REFERENCES projects (org_id, id)
);
CREATE INDEX webhooks_scope ON webhooks (org_id, project_id, agent_id, created_at, id);
-- The lookups every event about an inbox makes: webhooks naming the inbox, and those of its agent naming none.
CREATE INDEX webhooks_active_inbox ON webhooks (org_id, inbox_id) WHERE active AND inbox_id IS NOT NULL;
CREATE INDEX webhooks_active_agent ON webhooks (org_id, agent_id) WHERE active AND inbox_id IS NULL;

-- One delivery of one event to one webhook; a redelivery is a new row for the same event.
CREATE TABLE webhook_deliveries (
  org_id text NOT NULL,
  project_id text NOT NULL,
  id text NOT NULL,
  seq bigserial NOT NULL,
  webhook_id text NOT NULL,
  event_id bigint NOT NULL,
  event_type text NOT NULL,
  redelivery_of text,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  last_status_code integer,
  last_error text,
  next_attempt_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, webhook_id) REFERENCES webhooks (org_id, id) ON DELETE CASCADE
);
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (org_id, webhook_id, seq);

-- Every attempt, as it ended.
CREATE TABLE webhook_attempts (
  org_id text NOT NULL,
  delivery_id text NOT NULL,
  attempt integer NOT NULL,
  started_at timestamptz NOT NULL,
  duration_ms integer NOT NULL,
  status_code integer,
  error text,
  next_retry_at timestamptz,
  PRIMARY KEY (org_id, delivery_id, attempt),
  FOREIGN KEY (org_id, delivery_id) REFERENCES webhook_deliveries (org_id, id) ON DELETE CASCADE
);
