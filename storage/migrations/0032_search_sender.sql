-- A search's `from` filter is a part of the sender's address or name. It was checked on the
-- messages row, so a full-text search with a `from` that most messages pass read one messages row
-- per matching message before it could keep the newest: a common word in a large inbox meant
-- thousands of lookups. The sender's text now sits beside the vector it is filtered with, lowered
-- once when the message is stored (a message's sender never changes).
ALTER TABLE message_search ADD COLUMN from_text text NOT NULL DEFAULT '';
UPDATE message_search s SET from_text = lower(coalesce(m.from_email, '') || ' ' || coalesce(m.from_name, ''))
  FROM messages m WHERE m.org_id = s.org_id AND m.inbox_id = s.inbox_id AND m.id = s.message_id;
ALTER TABLE message_search ALTER COLUMN from_text DROP DEFAULT;
