-- Counters in slots. Every stored message counted its org's stored bytes on the one usage_accounts
-- row and its period counters on one row per period, and held those row locks until its commit: one
-- org's deliveries and inbound batches committed one at a time. Now each transaction adds to the
-- slot of its database session (backend pid mod 8), and readers sum the slots. Reservations stay on
-- usage_accounts.reserved, one row, so the send caps are still checked one send at a time.
ALTER TABLE usage_periods ADD COLUMN slot smallint NOT NULL DEFAULT 0;
ALTER TABLE usage_periods DROP CONSTRAINT usage_periods_pkey;
ALTER TABLE usage_periods ADD PRIMARY KEY (org_id, period, slot);

-- Stored bytes of an org: the sum of its slots (a slot may be negative: deletions give bytes back
-- in whichever slot the deleting session has).
CREATE TABLE usage_storage (
  org_id text NOT NULL REFERENCES orgs (id),
  slot smallint NOT NULL,
  bytes bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (org_id, slot)
);
INSERT INTO usage_storage (org_id, slot, bytes) SELECT org_id, 0, storage_bytes FROM usage_accounts WHERE storage_bytes <> 0;
ALTER TABLE usage_accounts DROP COLUMN storage_bytes;
