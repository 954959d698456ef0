-- Mailboxes: inbound messages with their raw MIME, attachments and threads, and full-text search.

-- Who created the inbox: an agent key counts against its enrollment token's lifetime allowance,
-- a console member does not.
ALTER TABLE inboxes ADD COLUMN created_by text NOT NULL DEFAULT 'agent' CHECK (created_by IN ('agent', 'console'));
ALTER TABLE inboxes ADD COLUMN enrollment_token_id text;
CREATE INDEX inboxes_agent ON inboxes (org_id, agent_id, created_at, id);

CREATE TABLE threads (
  org_id text NOT NULL,
  project_id text NOT NULL,
  inbox_id text NOT NULL,
  id text NOT NULL,
  subject text NOT NULL DEFAULT '',
  -- Reply prefixes and list tags removed, lower-cased: the fallback key for mail without references.
  normalized_subject text NOT NULL DEFAULT '',
  participants text[] NOT NULL DEFAULT '{}',
  message_count integer NOT NULL DEFAULT 0,
  last_message_id text,
  last_seq bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, inbox_id, id)
);
CREATE INDEX threads_recent ON threads (org_id, inbox_id, last_seq DESC, id DESC);
CREATE INDEX threads_subject ON threads (org_id, inbox_id, normalized_subject, updated_at DESC);

-- Every Message-ID a thread's messages carry or refer to (normalized `<id>`), so a reply finds its
-- thread even when the message it answers was never received here.
CREATE TABLE thread_keys (
  org_id text NOT NULL,
  project_id text NOT NULL,
  inbox_id text NOT NULL,
  message_key text NOT NULL,
  thread_id text NOT NULL,
  PRIMARY KEY (org_id, inbox_id, message_key)
);

CREATE TABLE messages (
  org_id text NOT NULL,
  project_id text NOT NULL,
  inbox_id text NOT NULL,
  id text NOT NULL,
  -- Insertion order: newest-first listings and paging cursors.
  seq bigint GENERATED ALWAYS AS IDENTITY,
  thread_id text NOT NULL,
  direction text NOT NULL DEFAULT 'inbound' CHECK (direction IN ('inbound', 'outbound')),
  folder text NOT NULL DEFAULT 'INBOX' CHECK (folder IN ('INBOX', 'SENT', 'DRAFTS', 'TRASH', 'SPAM')),
  seen boolean NOT NULL DEFAULT false,
  from_name text,
  from_email text,
  to_addrs jsonb NOT NULL DEFAULT '[]',
  cc_addrs jsonb NOT NULL DEFAULT '[]',
  reply_to jsonb NOT NULL DEFAULT '[]',
  raw_from text NOT NULL DEFAULT '',
  raw_to text NOT NULL DEFAULT '',
  subject text NOT NULL DEFAULT '',
  date timestamptz,
  date_header text,
  message_id text,
  in_reply_to text,
  "references" text[] NOT NULL DEFAULT '{}',
  text text,
  html text,
  extracted_text text,
  extracted_html text,
  -- Names and addresses of from, to, cc and reply-to, with each address also split at '@', so
  -- a search for a name, a local part or a domain finds the message.
  search_addresses text NOT NULL DEFAULT '',
  size integer NOT NULL,
  attachment_count integer NOT NULL DEFAULT 0,
  parse_error text,
  envelope_from text,
  review_id text,
  -- The statement clock rather than the transaction start, so a wait's `since` compares with
  -- the moment the row was written; whole milliseconds, as the API shows it, so a `since` copied
  -- from a message's received_at never matches that same message again.
  received_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
  -- Bodies are cut at 100,000 characters: to_tsvector refuses results over 1 MiB.
  search tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english'::regconfig, subject), 'A') ||
    setweight(to_tsvector('english'::regconfig, search_addresses), 'B') ||
    setweight(to_tsvector('english'::regconfig, left(coalesce(text, extracted_text, ''), 100000)), 'D')
  ) STORED,
  PRIMARY KEY (org_id, inbox_id, id)
);
CREATE INDEX messages_folder ON messages (org_id, inbox_id, folder, seq DESC);
-- Newest first across folders: search walks it for the newest matches of a common word.
CREATE INDEX messages_recent ON messages (org_id, inbox_id, seq);
CREATE INDEX messages_received ON messages (org_id, inbox_id, received_at);
CREATE INDEX messages_thread ON messages (org_id, inbox_id, thread_id, seq);
CREATE INDEX messages_search ON messages USING gin (search);

-- The message exactly as received (DATA), kept apart so listings never read it.
CREATE TABLE message_sources (
  org_id text NOT NULL,
  project_id text NOT NULL,
  inbox_id text NOT NULL,
  message_id text NOT NULL,
  raw bytea NOT NULL,
  PRIMARY KEY (org_id, inbox_id, message_id)
);

CREATE TABLE attachments (
  org_id text NOT NULL,
  project_id text NOT NULL,
  inbox_id text NOT NULL,
  message_id text NOT NULL,
  id text NOT NULL,
  part_index integer NOT NULL,
  filename text,
  content_type text NOT NULL,
  size integer NOT NULL,
  content_id text,
  inline boolean NOT NULL DEFAULT false,
  content bytea NOT NULL,
  PRIMARY KEY (org_id, inbox_id, message_id, id)
);
