-- An Idempotency-Key claim has an owner and a lease: the running request renews it; a retry after
-- it lapses (the process died mid-request) runs the request again instead of waiting a day.
-- Rows written before this migration have no lease and count as lapsed.
ALTER TABLE idempotency_keys ADD COLUMN owner text, ADD COLUMN lease_until timestamptz;

-- Inbound mail a sender retries after losing the connection between the final dot and the 250:
-- the same bytes with the same Message-ID to the same inbox within a day are the same delivery,
-- answered again without a second copy. Pruned after a day.
CREATE TABLE inbound_receipts (
  inbox_id text NOT NULL,
  message_key text NOT NULL,
  raw_sha256 bytea NOT NULL,
  message_id text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (inbox_id, message_key, raw_sha256)
);
CREATE INDEX inbound_receipts_age ON inbound_receipts (received_at);
