-- The status poller claims the due documents of an envelope by writing this lease on the envelope row, one row per
-- envelope and poll, instead of moving every document's next_check_at (a row version and an entry in each of the
-- documents' indexes per document; bench/RESULTS.md §6, 2026-11-27, third entry).
ALTER TABLE "envelopes" ADD COLUMN "poll_lease_until" timestamp with time zone;