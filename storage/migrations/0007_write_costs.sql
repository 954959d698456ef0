-- Cheaper writes and reads on the hot paths: receiving mail, counting requests, searching.

-- The raw message is kept as received, out of line and uncompressed: it is read whole and rarely
-- (downloads), and compressing it on every insert cost more CPU than any other step of storing mail.
ALTER TABLE message_sources ALTER COLUMN raw SET STORAGE EXTERNAL;

-- An extracted body equal to its source body is stored as NULL and read as coalesce(extracted, source).
COMMENT ON COLUMN messages.extracted_text IS 'NULL when equal to text';
COMMENT ON COLUMN messages.extracted_html IS 'NULL when equal to html';

-- Rate windows are counters for the current and previous minute: not worth a WAL flush on every
-- request. After a crash they start again from zero.
ALTER TABLE rate_limit_windows SET UNLOGGED;

-- The search vector stays in the row (compressed, or moved out of line, only as a last resort;
-- the bodies are moved first): search tests and ranks it for thousands of rows, and reading it
-- from the TOAST table cost several page reads a row.
ALTER TABLE messages ALTER COLUMN search SET STORAGE MAIN;
