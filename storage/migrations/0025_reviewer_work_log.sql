-- The log of work routed to reviewer agents over live links (`sse`, `websocket`): one row each
-- time a review is routed (or a chat line reaches) such a reviewer, written in the routing
-- transaction. The reviewer's stream and WebSocket replay it from a resume id and follow it
-- live; like the event log it is read in (tx, id) order, tx being the writing transaction's id,
-- so a row committed late is never behind a position already read.
CREATE TABLE reviewer_work_log (
  org_id text NOT NULL,
  id bigserial NOT NULL,
  tx xid8 NOT NULL DEFAULT pg_current_xact_id(),
  project_id text NOT NULL,
  reviewer_agent_id text NOT NULL,
  link_id text NOT NULL,
  transport text NOT NULL CHECK (transport IN ('sse', 'websocket')),
  review_id text NOT NULL,
  revision integer NOT NULL,
  reason text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id)
);
CREATE INDEX reviewer_work_log_position ON reviewer_work_log (org_id, reviewer_agent_id, transport, tx, id);
