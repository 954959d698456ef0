-- Where in the stream of messages a message stands, kept with its search words and its word pairs,
-- so that each index alone answers "this word (or pair) among the newest messages". A search takes
-- the newest matches; a word in one message of a hundred has thousands of matches in a large inbox,
-- and reading each of them to find the newest cost more than all the rest of the search. With
-- these, a search first asks the index for the matches in a recent span of the inbox, and goes
-- further back only while it has found too few (storage/messages.ts, searchMessages).
--
-- A message's seq is kept at seven scales, as the bucket of 2^8, 2^12, ... 2^32 seqs it falls in.
CREATE FUNCTION search_recency_scales() RETURNS int[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT ARRAY[8, 12, 16, 20, 24, 28, 32] $$;

-- In the vector, as words: `~8.3898` is the message in seqs 3898 * 256 to 3899 * 256 - 1. The text
-- search parser never makes a word with `~`, so no word of a message or a query is one of these.
CREATE FUNCTION search_recency_words(seq bigint) RETURNS tsvector
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT array_to_tsvector(ARRAY(SELECT '~' || s || '.' || (seq >> s) FROM unnest(search_recency_scales()) s)) $$;

-- In the pairs, as negative numbers (a pair's key is never negative): scale k (from 0) and bucket b
-- are -(1 + k * 2^28 + b mod 2^28). Buckets 2^28 apart share a number; a message found by it in the
-- wrong span is dropped by its seq.
CREATE FUNCTION search_recency_mark(k bigint, b bigint) RETURNS int4
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT (-(1 + k * 268435456 + (b & 268435455)))::int4 $$;

CREATE FUNCTION search_recency_marks(seq bigint) RETURNS int4[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT ARRAY(SELECT search_recency_mark(x.k - 1, seq >> x.s) FROM unnest(search_recency_scales()) WITH ORDINALITY AS x(s, k)) $$;

-- The buckets covering the seqs after `above` up to `upto` (above < upto): at the finest scale that
-- needs at most 16, so the cover is little larger than the span; a span too long for 16 of the
-- largest (2^36 seqs) takes as many of those as it needs.
CREATE FUNCTION search_recency_buckets(above bigint, upto bigint) RETURNS TABLE (k bigint, s int, b bigint)
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT l.k - 1, l.s, b
    FROM (SELECT x.s, x.k, (upto >> x.s) - ((above + 1) >> x.s) < 16 AS fits
            FROM unnest(search_recency_scales()) WITH ORDINALITY AS x(s, k)
           ORDER BY 3 DESC, x.s * CASE WHEN (upto >> x.s) - ((above + 1) >> x.s) < 16 THEN 1 ELSE -1 END
           LIMIT 1) l,
         generate_series((above + 1) >> l.s, upto >> l.s) b $$;

-- The cover as a query of the words index (any of its recency words) and of the pairs index (any
-- of its marks, with &&).
CREATE FUNCTION search_recency_cover(above bigint, upto bigint) RETURNS tsquery
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT string_agg(quote_literal('~' || c.s || '.' || c.b), ' | ')::tsquery FROM search_recency_buckets(above, upto) c $$;

CREATE FUNCTION search_recency_pair_cover(above bigint, upto bigint) RETURNS int4[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT array_agg(search_recency_mark(c.k, c.b)) FROM search_recency_buckets(above, upto) c $$;

-- Messages stored from here on carry their words and marks. Those stored before are not rewritten,
-- which would hold a large database's start for minutes: spans of the stream before this seq are
-- read as before, without them.
CREATE TABLE search_recency_since (seq bigint NOT NULL);
INSERT INTO search_recency_since SELECT coalesce(max(seq), 0) FROM message_search;
