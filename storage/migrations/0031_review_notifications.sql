-- Reaching the deciders of a project. Each member picks per project how review notifications reach
-- them: at once, gathered into a digest every N minutes, or not at all (no row: at once).
CREATE TABLE notification_preferences (
  org_id text NOT NULL,
  project_id text NOT NULL,
  user_id text NOT NULL REFERENCES users (id),
  mode text NOT NULL CHECK (mode IN ('instant', 'digest', 'off')),
  digest_minutes integer NOT NULL DEFAULT 60 CHECK (digest_minutes BETWEEN 5 AND 1440),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, project_id, user_id),
  FOREIGN KEY (org_id, project_id) REFERENCES projects (org_id, id)
);

-- One notification of one member about one review. The unique key is the job's: a notify job
-- that runs twice finds its row and sends nothing more. `pending` waits for the member's digest.
CREATE TABLE review_notifications (
  org_id text NOT NULL,
  project_id text NOT NULL,
  id text NOT NULL,
  review_id text NOT NULL,
  revision integer NOT NULL,
  user_id text NOT NULL,
  email text NOT NULL,
  reason text NOT NULL,
  dedupe_key text NOT NULL,
  delivery text NOT NULL CHECK (delivery IN ('instant', 'digest')),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'skipped', 'failed')),
  route text,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  PRIMARY KEY (org_id, id)
);
CREATE UNIQUE INDEX review_notifications_once ON review_notifications (org_id, review_id, user_id, dedupe_key);
CREATE INDEX review_notifications_digest ON review_notifications (org_id, project_id, user_id, created_at) WHERE status = 'pending';

-- A one-time decision link: bound to a review, the revision it was made for and the member it was
-- sent to. Only a digest of the token is kept; it expires with the review's deadline (7 days at most).
CREATE TABLE decision_links (
  org_id text NOT NULL,
  project_id text NOT NULL,
  id text NOT NULL,
  token_hash bytea NOT NULL,
  review_id text NOT NULL,
  revision integer NOT NULL,
  user_id text NOT NULL,
  email text NOT NULL,
  notification_id text,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  used_action text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id)
);
CREATE UNIQUE INDEX decision_links_id ON decision_links (id);

-- Who took each human decision and through which channel (console, mail link, mail reply).
CREATE TABLE review_decision_channels (
  org_id text NOT NULL,
  project_id text NOT NULL,
  review_id text NOT NULL,
  revision integer NOT NULL,
  action text NOT NULL,
  email text NOT NULL,
  via text NOT NULL CHECK (via IN ('console', 'mail_link', 'mail_reply')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX review_decision_channels_review ON review_decision_channels (org_id, review_id, created_at);

-- A project's chat-ops channel: an incoming-webhook URL (Slack-compatible JSON).
CREATE TABLE chatops_channels (
  org_id text NOT NULL,
  project_id text NOT NULL,
  webhook_url text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, project_id),
  FOREIGN KEY (org_id, project_id) REFERENCES projects (org_id, id)
);
