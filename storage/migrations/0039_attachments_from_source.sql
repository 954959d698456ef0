-- A received attachment's bytes are read from its message's raw source when it is downloaded
-- (the source parsed again, the part found by its part_index), not stored decoded beside it. The
-- decoded copy doubled what storing a mail with attachments wrote (a 200 KB mail wrote 400 KB of
-- WAL, 240 KB without it) for bytes that are read only when someone downloads them. Rows stored
-- before keep their bytes and are served from them.
ALTER TABLE attachments ALTER COLUMN content DROP NOT NULL;
COMMENT ON COLUMN attachments.content IS 'NULL: decoded from the message''s raw source (part_index) when read';
