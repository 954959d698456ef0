-- Custom domains, their DKIM keys and DNS checks; inbound authentication verdicts and screening.
CREATE TABLE domains (
  org_id text NOT NULL,
  project_id text NOT NULL,
  id text NOT NULL,
  -- Lower-case, without a trailing dot.
  name text NOT NULL,
  -- pending: never verified; verified: every required record found; degraded: verified once, a
  -- required record has since gone (found by the daily re-verification or a manual verify).
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'verified', 'degraded')),
  verification_token text NOT NULL,
  dkim_selector text NOT NULL,
  dkim_public_key text NOT NULL,
  -- PKCS#8 PEM sealed with the service's encryption key (service/encryption.ts), like webhook secrets.
  dkim_private_key bytea NOT NULL,
  -- The result of the last check of each record: [{kind, status, found, detail}].
  checks jsonb NOT NULL DEFAULT '[]',
  checked_at timestamptz,
  verified_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, project_id) REFERENCES projects (org_id, id)
);
CREATE UNIQUE INDEX domains_project_name ON domains (org_id, project_id, name);
CREATE UNIQUE INDEX domains_id ON domains (id);
-- A name is verified by one tenant at a time: a second verification elsewhere is domain_unavailable.
CREATE UNIQUE INDEX domains_verified_name ON domains (name) WHERE status IN ('verified', 'degraded');
CREATE INDEX domains_recheck ON domains (checked_at) WHERE status IN ('verified', 'degraded');

-- SPF, DKIM, DMARC and ARC verdicts computed at ingest ({spf: {result, domain}, ...}); null on
-- messages stored before verdicts existed and on the sender's own SENT copies.
ALTER TABLE messages ADD COLUMN authentication jsonb;
-- {risk, reasons} when the screening heuristic flagged the message; null when it did not.
ALTER TABLE messages ADD COLUMN screening jsonb;
