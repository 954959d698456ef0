-- A replayed response can carry a secret shown once (a webhook's signing secret): stored responses
-- are sealed with the service's encryption key (AES-256-GCM). `body` remains for rows written
-- before this migration; they expire within a day.
ALTER TABLE idempotency_keys ADD COLUMN body_sealed bytea;
