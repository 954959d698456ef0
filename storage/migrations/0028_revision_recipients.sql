-- Recipients a review's revisions added beyond those counted at its submission: each added one is
-- counted in the inbox's 24-hour recipient limit once, in the minute of the revision that added it.
ALTER TABLE reviews ADD COLUMN added_recipients integer NOT NULL DEFAULT 0;
