-- Keys the service generates for itself and every process on this database must share, such as the
-- one that turns event positions into opaque event ids (storage/opaque-ids.ts). Kept in the
-- database rather than DATA_DIR so a second API process, on any host, mints and reads the same ids.
CREATE TABLE service_keys (
  name text PRIMARY KEY,
  key bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
