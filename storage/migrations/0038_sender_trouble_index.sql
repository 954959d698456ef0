-- A send's verdict first asks whether its inbox had a bounce or a complaint since it was last
-- cleared; most never had one. While delivery reports pile up faster than statistics follow them
-- (a busy deployment's first hours), the planner answered that from another index, reading every
-- report of the org at each send: about a thousand buffers a send on the review bench. An index
-- of the bounces and complaints alone holds just what the question asks, and is the cheapest
-- answer whatever the statistics say.
CREATE INDEX delivery_reports_trouble ON delivery_reports (org_id, inbox_id, created_at) WHERE kind IN ('bounced', 'complained');
