-- The Review Loop. A review's lifecycle is its machine snapshot (machine_instances, kind 'review');
-- these tables hold what lives beside it: how the send was asked for, feedback and chat, the durable
-- review event queue with its per-review cursors, delivery attempts, the local outbox, contact
-- lists, the suppression list and the account's review settings.

-- One row per review, written with its first transition; never changed afterwards.
CREATE TABLE reviews (
  org_id text NOT NULL,
  project_id text NOT NULL,
  id text NOT NULL,
  inbox_id text NOT NULL,
  agent_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('send', 'reply', 'forward')),
  -- The message replied to or forwarded.
  parent_message_id text,
  "references" text[] NOT NULL DEFAULT '{}',
  -- To plus cc at submission: what the rolling 24-hour recipient limit counts.
  recipient_count integer NOT NULL,
  deadline_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id)
);

-- Recipients of each inbox's sends per minute: the rolling 24-hour recipient limit sums at most
-- 1440 rows, however many sends there were. A cancelled review gives its recipients back.
CREATE TABLE recipient_usage (
  org_id text NOT NULL,
  inbox_id text NOT NULL,
  minute timestamptz NOT NULL,
  recipients integer NOT NULL,
  PRIMARY KEY (org_id, inbox_id, minute)
);

-- Files sent with a review; immutable, so they stay out of the snapshot that every transition rewrites.
CREATE TABLE review_attachments (
  org_id text NOT NULL,
  review_id text NOT NULL,
  position integer NOT NULL,
  filename text,
  content_type text NOT NULL,
  content_id text,
  inline boolean NOT NULL DEFAULT false,
  size integer NOT NULL,
  content bytea NOT NULL,
  PRIMARY KEY (org_id, review_id, position)
);

-- Reviewer decisions with their notes, edit diffs and chat, oldest first per review.
CREATE TABLE review_feedback (
  org_id text NOT NULL,
  project_id text NOT NULL,
  review_id text NOT NULL,
  seq integer NOT NULL,
  kind text NOT NULL CHECK (kind IN ('approve', 'edit', 'reject', 'hand_back', 'chat')),
  author text NOT NULL CHECK (author IN ('composer', 'human', 'reviewer_agent')),
  -- The console member's email, for human decisions.
  author_email text,
  revision integer NOT NULL,
  feedback text,
  message text,
  diff jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, review_id, seq)
);

-- The durable review event queue: per-review sequence, global order by id, unacked ones indexed.
CREATE TABLE review_events (
  org_id text NOT NULL,
  project_id text NOT NULL,
  review_id text NOT NULL,
  seq integer NOT NULL,
  id bigint GENERATED ALWAYS AS IDENTITY,
  agent_id text NOT NULL,
  inbox_id text NOT NULL,
  type text NOT NULL,
  state text NOT NULL,
  from_state text,
  category_id text,
  revision integer NOT NULL,
  effective_mode text NOT NULL,
  -- Members beyond the item's fixed ones (front_run_next: outcome, attempted_action, sent_message_id).
  extra jsonb NOT NULL DEFAULT '{}',
  acked boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, review_id, seq)
);
CREATE INDEX review_events_pending ON review_events (org_id, agent_id, id) WHERE NOT acked;

-- The composing agent's acknowledged position per review; only ever moves forward.
CREATE TABLE review_event_cursors (
  org_id text NOT NULL,
  agent_id text NOT NULL,
  review_id text NOT NULL,
  through_seq integer NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, agent_id, review_id)
);

-- One delivery per review revision, with the Message-ID fixed before the relay is contacted.
-- phase: connecting (nothing handed over yet), data (the message may have reached the relay),
-- deferred (a temporary refusal; may be retried), sent, failed.
CREATE TABLE review_deliveries (
  org_id text NOT NULL,
  project_id text NOT NULL,
  review_id text NOT NULL,
  revision integer NOT NULL,
  message_id text NOT NULL,
  phase text NOT NULL CHECK (phase IN ('connecting', 'data', 'deferred', 'sent', 'failed')),
  tries integer NOT NULL DEFAULT 0,
  route text,
  last_error text,
  relay_response text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, review_id, revision)
);
CREATE UNIQUE INDEX review_deliveries_message_id ON review_deliveries (message_id);

-- Mail for other domains kept here when no relay (SMTP_URL) is configured; operators read it.
CREATE TABLE outbound_outbox (
  org_id text NOT NULL,
  project_id text NOT NULL,
  id text NOT NULL,
  review_id text NOT NULL,
  inbox_id text NOT NULL,
  message_id text NOT NULL,
  envelope_from text NOT NULL,
  envelope_to text[] NOT NULL,
  subject text NOT NULL DEFAULT '',
  raw bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id)
);
CREATE UNIQUE INDEX outbound_outbox_message_id ON outbound_outbox (message_id);
CREATE INDEX outbound_outbox_recent ON outbound_outbox (created_at DESC, id DESC);

-- Per-inbox contact list: block entries, and allow entries that switch on allowlist mode.
CREATE TABLE contacts (
  org_id text NOT NULL,
  project_id text NOT NULL,
  inbox_id text NOT NULL,
  id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('allow', 'block')),
  pattern text NOT NULL,
  direction text NOT NULL DEFAULT 'send' CHECK (direction IN ('send', 'receive')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, id)
);
CREATE UNIQUE INDEX contacts_entry ON contacts (org_id, inbox_id, kind, direction, pattern);

-- Project-wide suppression list; origin 'unsubscribe' is the recipient's own opt-out.
CREATE TABLE suppressions (
  org_id text NOT NULL,
  project_id text NOT NULL,
  email text NOT NULL,
  origin text NOT NULL CHECK (origin IN ('agent', 'unsubscribe')),
  reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, project_id, email)
);

-- The account's risk dial; null means the built-in default. The account default review policy
-- stays in orgs.default_review_policy.
CREATE TABLE review_settings (
  org_id text PRIMARY KEY,
  min_confidence double precision,
  first_contact_gate boolean,
  drift_demote_after integer,
  canary_rate double precision,
  graduate_min_approvals integer,
  graduate_min_age_hours integer,
  auto_send_cap_per_day integer,
  updated_at timestamptz NOT NULL DEFAULT now()
);
