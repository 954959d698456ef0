-- Claims: a person whose console identity carries the verified email of a self-signup becomes
-- owner of the org the agent created. A claimed sign-up is not offered again.
ALTER TABLE signups ADD COLUMN claimed_at timestamptz;
ALTER TABLE signups ADD COLUMN claimed_by text REFERENCES users (id);
CREATE INDEX signups_claimable ON signups (email) WHERE claimed_at IS NULL;

-- Invitations into an org: the token is shown once (and mailed) and stored only as a SHA-256
-- digest. Accepting binds the invitation to the user whose verified email it names.
CREATE TABLE invitations (
  org_id text NOT NULL REFERENCES orgs (id),
  id text NOT NULL,
  -- Normalized (trimmed, lower-cased), compared with the accepting user's verified email.
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'viewer', 'billing')),
  token_hash bytea NOT NULL,
  expires_at timestamptz NOT NULL,
  invited_by text NOT NULL,
  accepted_at timestamptz,
  accepted_by text REFERENCES users (id),
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id)
);
CREATE UNIQUE INDEX invitations_id ON invitations (id);
CREATE INDEX invitations_recent ON invitations (org_id, created_at DESC, id DESC);

-- System mail kept in the outbox that belongs to no inbox (an invitation goes out for an org).
ALTER TABLE outbound_outbox ALTER COLUMN inbox_id DROP NOT NULL;
