-- No header length may make a message unstorable. A btree entry holds at most about 2.7 KB (after
-- compression), and threads_subject indexed the normalized subject itself: a Subject of a few KB
-- of text that does not compress failed the insert (`index row size ... exceeds btree maximum`),
-- and the message was refused with 451 on every retry until the sender bounced it. The index now
-- holds the subject's md5; the lookup compares the hash, then the subject itself.
DROP INDEX threads_subject;
CREATE INDEX threads_subject ON threads (org_id, inbox_id, md5(normalized_subject), updated_at DESC);
