-- Reviewer agents. A review link names the reviewer agent of a scope (one inbox, or the whole
-- project when inbox_id is null; an inbox link overrides the project-wide one) and how work reaches
-- it. The HMAC secret is kept encrypted (AES-256-GCM) like webhook secrets: it must be read back to sign.
CREATE TABLE review_links (
  org_id text NOT NULL,
  project_id text NOT NULL,
  id text NOT NULL,
  inbox_id text,
  reviewer_agent_id text NOT NULL,
  transport text NOT NULL CHECK (transport IN ('webhook', 'sse', 'websocket')),
  webhook_url text,
  secret_sealed bytea,
  escalate_after_s integer NOT NULL,
  max_hops integer NOT NULL,
  review_deadline_s integer NOT NULL,
  active boolean NOT NULL DEFAULT true,
  consec_failures integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, project_id) REFERENCES projects (org_id, id),
  CHECK (transport <> 'webhook' OR webhook_url IS NOT NULL)
);
-- One link per scope: the empty string stands for the project-wide scope.
CREATE UNIQUE INDEX review_links_scope ON review_links (org_id, project_id, coalesce(inbox_id, ''));

-- Which reviewer agent a review is routed to now, through which link, and since when (the
-- reviewer queue's order). Written by the routing effect in the transition's transaction; removed
-- when the review is routed to the human.
CREATE TABLE review_assignments (
  org_id text NOT NULL,
  project_id text NOT NULL,
  review_id text NOT NULL,
  link_id text NOT NULL,
  reviewer_agent_id text NOT NULL,
  routed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, review_id)
);
CREATE INDEX review_assignments_reviewer ON review_assignments (org_id, reviewer_agent_id, routed_at, review_id);

-- One push of a work item to a webhook link, and each of its attempts.
CREATE TABLE review_link_deliveries (
  org_id text NOT NULL,
  project_id text NOT NULL,
  id text NOT NULL,
  link_id text NOT NULL,
  review_id text NOT NULL,
  revision integer NOT NULL,
  reason text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed', 'skipped')),
  attempts integer NOT NULL DEFAULT 0,
  last_status_code integer,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, link_id) REFERENCES review_links (org_id, id) ON DELETE CASCADE
);
CREATE INDEX review_link_deliveries_link ON review_link_deliveries (org_id, link_id, created_at);

CREATE TABLE review_link_attempts (
  org_id text NOT NULL,
  delivery_id text NOT NULL,
  attempt integer NOT NULL,
  started_at timestamptz NOT NULL,
  duration_ms integer NOT NULL,
  status_code integer,
  error text,
  next_retry_at timestamptz,
  PRIMARY KEY (org_id, delivery_id, attempt),
  FOREIGN KEY (org_id, delivery_id) REFERENCES review_link_deliveries (org_id, id) ON DELETE CASCADE
);
