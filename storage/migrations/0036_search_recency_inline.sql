-- The recency words and marks of 0035, written as plain expressions. A SQL function whose body has
-- a sub-select is run as a function of its own, planned again in every statement that calls it:
-- the insert storing a message paid that planning twice a message. A function that is not STRICT
-- (an ARRAY[...] is not strict) and whose body is one expression, with no sub-select and only
-- immutable parts (text || bigint is not one: hence ::text), is inlined into the calling statement
-- instead. The values are the same, one per scale of search_recency_scales(), so nothing stored
-- changes.
CREATE OR REPLACE FUNCTION search_recency_words(seq bigint) RETURNS tsvector
  LANGUAGE sql IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE AS $$
  SELECT array_to_tsvector(ARRAY['~8.' || (seq >> 8)::text, '~12.' || (seq >> 12)::text, '~16.' || (seq >> 16)::text, '~20.' || (seq >> 20)::text,
                                 '~24.' || (seq >> 24)::text, '~28.' || (seq >> 28)::text, '~32.' || (seq >> 32)::text]) $$;

CREATE OR REPLACE FUNCTION search_recency_marks(seq bigint) RETURNS int4[]
  LANGUAGE sql IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE AS $$
  SELECT ARRAY[search_recency_mark(0, seq >> 8), search_recency_mark(1, seq >> 12), search_recency_mark(2, seq >> 16),
               search_recency_mark(3, seq >> 20), search_recency_mark(4, seq >> 24), search_recency_mark(5, seq >> 28),
               search_recency_mark(6, seq >> 32)] $$;
