-- Sender health counts an inbox's latest delivered reports, then only the bounces and complaints
-- among them. Its index led with (org, inbox, time) and every row's kind was read from the table,
-- then a lookup per send for its bounces: a thousand of each for a busy inbox, on every send.
-- With the kind in the index the delivered ones are read from it alone, and the bounces and
-- complaints (few) are found directly.
DROP INDEX delivery_reports_inbox;
CREATE INDEX delivery_reports_inbox ON delivery_reports (org_id, inbox_id, kind, created_at);
