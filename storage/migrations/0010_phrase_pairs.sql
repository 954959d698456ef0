-- Full-text search moves to its own narrow table, and quoted phrases are looked up by their
-- adjacent word pairs.
--
-- In the messages row, a search vector kept inline (as 0007 chose, so reading it costs no TOAST
-- fetch) could alone pass the size at which PostgreSQL starts moving values out of line: it then
-- moved every other value over 24 bytes, identifiers and subject included, into the TOAST table,
-- and each listing or filter paid a fetch for them. Here the vector has a row to itself.
--
-- The full-text index knows which messages hold each word, not where: a phrase of two common words
-- that rarely stand together had every message holding both words read and checked. Each message
-- now also keeps the hashes of the pairs of lexemes at adjacent positions of its vector, indexed.

-- The search vector, computed once in the insert that stores it with its pairs.
CREATE FUNCTION message_search_vector(subject text, addresses text, body text) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('english'::regconfig, subject), 'A') ||
         setweight(to_tsvector('english'::regconfig, addresses), 'B') ||
         setweight(to_tsvector('english'::regconfig, body), 'D') $$;

-- Pairs are taken from the vector itself, so they agree with PostgreSQL's own phrase matching,
-- limits included (positions stop at 16383, and a lexeme keeps at most 256 of them). A pair's key
-- is a 31-bit hash of its lexemes' hashtext (what hash partitioning and hash indexes rest on, so
-- it does not change between server versions): a collision only makes a message a candidate,
-- since the phrase itself is still checked. Repeated pairs are left in; the index keeps one.
-- A set-returning SQL function that is not STRICT is inlined into the statement calling it, so
-- the insert that stores a message plans this once per connection, not once per message. Each
-- lexeme is hashed once, not once per position.
CREATE FUNCTION search_word_pair_keys(v tsvector) RETURNS SETOF int4
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  WITH lexemes AS MATERIALIZED (SELECT hashtext(lexeme) AS h, positions FROM unnest(v))
  SELECT ((a.h::int8 * 1000003 + b.h) & 2147483647)::int4
    FROM (SELECT h, unnest(positions) AS pos FROM lexemes) a
    JOIN (SELECT h, unnest(positions) - 1 AS pos FROM lexemes) b USING (pos) $$;

-- The pairs every message matching all these phrases has (NULL when there are none, as for a
-- single word or words parted by a stop word): each phrase parsed as websearch_to_tsquery does.
CREATE FUNCTION phrase_word_pairs(phrases text[]) RETURNS int4[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT array_agg(DISTINCT k)
    FROM unnest(phrases) p, search_word_pair_keys(to_tsvector('english'::regconfig, p)) k $$;

-- Whether having the phrases' pairs is having the phrases: so when each is two words side by side
-- (one pair). Three words have two pairs, which may stand apart.
CREATE FUNCTION phrase_pairs_exact(phrases text[]) RETURNS boolean
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(bool_and(coalesce(cardinality(x.positions) = 2 AND x.positions[2] = x.positions[1] + 1, false)), false)
    FROM unnest(phrases) p,
         LATERAL (SELECT array_agg(pos ORDER BY pos) AS positions
                    FROM unnest(to_tsvector('english'::regconfig, p)) t, unnest(t.positions) pos) x $$;

CREATE TABLE message_search (
  org_id text NOT NULL,
  inbox_id text NOT NULL,
  seq bigint NOT NULL,
  message_id text NOT NULL,
  search tsvector NOT NULL,
  pairs int4[] NOT NULL,
  PRIMARY KEY (org_id, inbox_id, seq)
);
-- Rows are kept whole up to a page: a search reads the vector and pairs of thousands of rows, and
-- compressing or moving them out of line cost more on every insert than the space saves. Larger
-- rows compress the vector and pairs, and move them out only as a last resort; identifiers, of
-- bounded length, stay in the row.
ALTER TABLE message_search SET (toast_tuple_target = 8160);
ALTER TABLE message_search ALTER COLUMN org_id SET STORAGE PLAIN, ALTER COLUMN inbox_id SET STORAGE PLAIN,
  ALTER COLUMN message_id SET STORAGE PLAIN, ALTER COLUMN search SET STORAGE MAIN, ALTER COLUMN pairs SET STORAGE MAIN;

INSERT INTO message_search (org_id, inbox_id, seq, message_id, search, pairs)
  SELECT org_id, inbox_id, seq, id, search, ARRAY(SELECT k FROM search_word_pair_keys(search) k) FROM messages;
ALTER TABLE messages DROP COLUMN search;

CREATE INDEX message_search_words ON message_search USING gin (search);
-- Searches walk message_search's key for the newest messages, filters or not; messages no longer
-- needs an index of its own for that.
DROP INDEX messages_recent;
CREATE INDEX message_search_pairs ON message_search USING gin (pairs);

-- Plans for searches need the new table's statistics from the start.
ANALYZE message_search;
