-- Support: feedback agents file with evidence, the support cases that follow it, their updates,
-- and each org's reporting policy. A case's status and version live in its machine instance
-- (kind `support_case`); these rows hold what the machine must not: text, clocks, ids.

-- Whether a human opted the org in to automatic (SDK-filed) feedback.
CREATE TABLE support_org_settings (
  org_id text PRIMARY KEY REFERENCES orgs (id),
  automatic_feedback boolean NOT NULL DEFAULT false,
  updated_by text,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE support_feedback (
  org_id text NOT NULL,
  project_id text NOT NULL,
  id text NOT NULL,
  agent_id text NOT NULL,
  client_id uuid NOT NULL,
  -- sha256 of the redacted evidence without client_id and submission_mode: the same evidence
  -- filed again raises repeat_count instead of making a new record.
  fingerprint text NOT NULL,
  evidence jsonb NOT NULL,
  repeat_count integer NOT NULL DEFAULT 1,
  redacted_fields jsonb NOT NULL,
  diagnostics jsonb NOT NULL,
  observed_runtime jsonb NOT NULL,
  api_build text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, project_id) REFERENCES projects (org_id, id)
);
CREATE UNIQUE INDEX support_feedback_id ON support_feedback (id);
CREATE UNIQUE INDEX support_feedback_client ON support_feedback (org_id, project_id, agent_id, client_id);
CREATE UNIQUE INDEX support_feedback_fingerprint ON support_feedback (org_id, project_id, agent_id, fingerprint);
CREATE INDEX support_feedback_list ON support_feedback (org_id, project_id, created_at DESC, id DESC);

CREATE TABLE support_cases (
  org_id text NOT NULL,
  project_id text NOT NULL,
  id text NOT NULL,
  -- A number people say aloud ("case 12"), unique across the deployment.
  number bigserial NOT NULL,
  feedback_id text NOT NULL,
  agent_id text NOT NULL,
  title text NOT NULL,
  impact text NOT NULL CHECK (impact IN ('blocked', 'workaround_available', 'recovered', 'unknown')),
  -- Where status changes are mailed (the reporting agent's inbox); null: nobody to mail.
  contact_email text,
  resolved_at timestamptz,
  resolution_kind text,
  resolution_summary text,
  customer_confirmed_at timestamptz,
  -- The newest machine version whose status change was mailed: a mail job that runs twice sends once.
  mailed_version integer NOT NULL DEFAULT 0,
  deleted_at timestamptz,
  deleted_by text,
  delete_client_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, project_id) REFERENCES projects (org_id, id)
);
CREATE UNIQUE INDEX support_cases_id ON support_cases (id);
CREATE INDEX support_cases_feedback ON support_cases (org_id, feedback_id);

CREATE TABLE support_case_updates (
  org_id text NOT NULL,
  case_id text NOT NULL,
  sequence bigint NOT NULL,
  id text NOT NULL,
  kind text NOT NULL,
  actor_kind text NOT NULL CHECK (actor_kind IN ('customer', 'staff')),
  -- Who wrote it: an agent id or a console email.
  actor text NOT NULL,
  body text NOT NULL,
  client_id uuid,
  observed_runtime jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, case_id, sequence)
);
CREATE UNIQUE INDEX support_case_updates_client ON support_case_updates (org_id, case_id, client_id);
