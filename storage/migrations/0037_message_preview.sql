-- A message's preview: the first 200 characters of its text with each run of whitespace made one
-- space. Collapsing the whole text ran a regular expression over every character of every listed
-- message (about 0.35 ms for a text of 4 KB: 18 ms for a page of 50 such messages). The prefix of a
-- text collapses to a prefix of the whole text collapsed, so when the first 400 characters give
-- 200 or more, they are the answer; only a text whose start is mostly whitespace is read further.
-- `left` of a compressed text decompresses only the start it needs.
CREATE FUNCTION message_preview(t text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  head text := regexp_replace(left(t, 400), '\s+', ' ', 'g');
BEGIN
  IF length(head) >= 200 OR octet_length(t) <= 400 THEN
    RETURN left(head, 200);
  END IF;
  RETURN left(regexp_replace(t, '\s+', ' ', 'g'), 200);
END $$;
