-- Metering and quotas. The billing owner of all usage is the org.

-- What an org holds right now: recipients of queued sends not yet delivered (reservations, which
-- survive period boundaries until they are consumed or released) and bytes of stored mail.
-- Every send's reservation and every delivery locks this row, so the caps are checked one at a time.
CREATE TABLE usage_accounts (
  org_id text PRIMARY KEY REFERENCES orgs (id),
  reserved bigint NOT NULL DEFAULT 0 CHECK (reserved >= 0),
  storage_bytes bigint NOT NULL DEFAULT 0
);

-- Counters per UTC period: months ('YYYY-MM') and days ('YYYY-MM-DD'), written in the same
-- transaction as the message they count. closed_at: the period-boundary job closed it.
CREATE TABLE usage_periods (
  org_id text NOT NULL REFERENCES orgs (id),
  period text NOT NULL,
  sent_messages bigint NOT NULL DEFAULT 0,
  sent_recipients bigint NOT NULL DEFAULT 0,
  received_messages bigint NOT NULL DEFAULT 0,
  received_recipients bigint NOT NULL DEFAULT 0,
  storage_peak_bytes bigint NOT NULL DEFAULT 0,
  closed_at timestamptz,
  PRIMARY KEY (org_id, period)
);
CREATE INDEX usage_periods_open ON usage_periods (period) WHERE closed_at IS NULL;

-- An enrollment key's daily sending: pending reservations on the token, delivered recipients per UTC day.
ALTER TABLE enrollment_tokens ADD COLUMN send_reserved bigint NOT NULL DEFAULT 0 CHECK (send_reserved >= 0);
CREATE TABLE enrollment_token_sends (
  org_id text NOT NULL,
  token_id text NOT NULL,
  day date NOT NULL,
  recipients bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (org_id, token_id, day)
);

-- What a review holds against the caps until delivery consumes it or a cancel, reject or failure
-- releases it; 0 once settled, so settling twice changes nothing.
ALTER TABLE reviews ADD COLUMN reserved_recipients integer NOT NULL DEFAULT 0,
                    ADD COLUMN reserved_token_id text;

-- One over-quota notice (system mail and event) per org, day and kind.
CREATE TABLE quota_notices (
  org_id text NOT NULL REFERENCES orgs (id),
  day date NOT NULL,
  kind text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, day, kind)
);

-- Mail stored before metering counts toward storage.
INSERT INTO usage_accounts (org_id, storage_bytes)
SELECT org_id, sum(size) FROM messages GROUP BY org_id;
