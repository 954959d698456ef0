-- Deleted inboxes. The inbox row and its mail go; a tombstone keeps the id, so an inbox id is never
-- given out again and stays 404 on every route. The address is not kept: a new inbox may take it.
CREATE TABLE inbox_tombstones (
  org_id text NOT NULL,
  project_id text NOT NULL,
  id text NOT NULL,
  address text NOT NULL,
  deleted_by text NOT NULL,
  deleted_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id)
);
CREATE INDEX inbox_tombstones_id ON inbox_tombstones (id);

-- A message belongs to a live inbox. The key check is what makes a deletion and a delivery
-- racing for one inbox exclusive: a delivery that got past RCPT before the deletion committed
-- either commits first (and is deleted with the inbox) or fails after it and is answered with a
-- temporary error, so the sender retries and then meets the 550 of an unknown address.
ALTER TABLE messages ADD CONSTRAINT messages_inbox FOREIGN KEY (org_id, inbox_id) REFERENCES inboxes (org_id, id);

-- The reviews of one inbox, read when it is deleted (its live reviews are cancelled).
CREATE INDEX machine_instances_inbox ON machine_instances (org_id, inbox_id, kind) WHERE inbox_id IS NOT NULL;
