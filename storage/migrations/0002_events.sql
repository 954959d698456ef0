-- The one append-only event log: the source of the live stream, webhooks and replays.
CREATE TABLE events (
  id bigserial NOT NULL,
  org_id text NOT NULL,
  project_id text NOT NULL,
  inbox_id text,
  agent_id text,
  type text NOT NULL,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id)
);
CREATE INDEX events_project ON events (org_id, project_id, id);
CREATE INDEX events_inbox ON events (org_id, inbox_id, id) WHERE inbox_id IS NOT NULL;
