-- What became of a sent mail, per recipient: taken by the relay or a hosted inbox (`delivered`),
-- bounced (hard or soft), complained about, or delayed. One row a report: a send's history is
-- its rows in order, and the latest per recipient is its delivery status.
CREATE TABLE delivery_reports (
  org_id text NOT NULL,
  project_id text NOT NULL,
  id text NOT NULL,
  inbox_id text NOT NULL,
  review_id text NOT NULL,
  -- The sender's SENT copy, once there is one (a relay deferral comes before it).
  message_id text,
  recipient text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('delivered', 'bounced', 'complained', 'delayed')),
  type text CHECK (type IN ('hard', 'soft')),
  status text,
  diagnostic text,
  -- The DSN or ARF report as it arrived; null for the relay's or a hosted inbox's own answer.
  raw bytea,
  -- SHA-256 of `raw`: a report the sending MTA delivers again (it missed our 250) is recorded once.
  raw_sha256 bytea,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (org_id, id)
);
CREATE INDEX delivery_reports_review ON delivery_reports (org_id, review_id, created_at);
CREATE INDEX delivery_reports_raw ON delivery_reports (org_id, review_id, raw_sha256) WHERE raw_sha256 IS NOT NULL;
CREATE INDEX delivery_reports_inbox ON delivery_reports (org_id, inbox_id, created_at DESC);
CREATE INDEX delivery_reports_recipient ON delivery_reports (org_id, project_id, recipient, created_at DESC);

-- Suppressions the service adds by itself from bounces and complaints.
ALTER TABLE suppressions DROP CONSTRAINT suppressions_origin_check;
ALTER TABLE suppressions ADD CONSTRAINT suppressions_origin_check CHECK (origin IN ('agent', 'unsubscribe', 'delivery'));

-- Inbound mail that says it was sent automatically (RFC 3834 and its common stand-ins): how it said so.
ALTER TABLE messages ADD COLUMN auto_submitted text;

-- A human cleared the inbox's sender health: rates count only sends after this.
ALTER TABLE inboxes ADD COLUMN sender_health_cleared_at timestamptz;
