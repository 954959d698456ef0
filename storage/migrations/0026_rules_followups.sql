-- born_stale is answered at most once per review and rules high-water (contract, the 409
-- taxonomy): the high-water at which a review's redraft last met born_stale. A redraft at the same
-- high-water is then accepted and stamped with it, so an agent's retry never loops.
CREATE TABLE review_born_stale (
  org_id text NOT NULL,
  review_id text NOT NULL,
  rules_version integer NOT NULL,
  answered_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, review_id)
);

-- A rule proposed from a human's edit of a draft (POST A/reviews/{id}/propose-rule) names that review.
ALTER TABLE rules ADD COLUMN source_review_id text;
