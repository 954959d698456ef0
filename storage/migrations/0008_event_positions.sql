-- The event log is read in the order of (tx, id): tx is the writing transaction's id. A reader
-- takes only events whose transaction is older than every transaction still running
-- (pg_snapshot_xmin), so nothing can later appear before what it has read, and writers need no
-- lock to keep ids in commit order. Events written before this migration share its tx and keep
-- their id order.
ALTER TABLE events ADD COLUMN tx xid8 NOT NULL DEFAULT pg_current_xact_id();
DROP INDEX events_project;
CREATE INDEX events_position ON events (org_id, tx, id);
CREATE INDEX events_project_position ON events (org_id, project_id, tx, id);
