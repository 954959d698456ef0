-- One-time sign-in links for the web console (development identity provider): the CLI stores a
-- code's hash, the page trades the code once for a session. Keyed by the code, not by a tenant:
-- a person signs in before choosing an org, and the session then reaches only their memberships.
CREATE TABLE console_sign_in_links (
  code_hash bytea PRIMARY KEY,
  email text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
-- Spent and expired links are swept by age.
CREATE INDEX console_sign_in_links_expires ON console_sign_in_links (expires_at);
