-- Stored calls still pending billing that runs re-read one by one (GET /user/api-calls/{id})
-- because they are older than the lookback window: when each was last asked and how often, so that
-- a call waits longer after each ask (select_pending_rereads.sql) and the per-run cap rotates
-- through the due ones instead of asking the same oldest ones every night, and whether the API
-- answered 404 (then the row is kept as stored and not asked again).
CREATE TABLE IF NOT EXISTS internal.pending_rereads (
  id            UUID PRIMARY KEY,
  last_asked_at TIMESTAMPTZ NOT NULL,
  asks          INTEGER NOT NULL,
  not_found     BOOLEAN NOT NULL
);
COMMENT ON TABLE internal.pending_rereads IS 'Exporter bookkeeping: stored calls pending billing from before the lookback window, re-read one by one (GET /user/api-calls/{id}).';
COMMENT ON COLUMN internal.pending_rereads.id IS 'The call (api_calls.id).';
COMMENT ON COLUMN internal.pending_rereads.last_asked_at IS 'When a run last asked the API for it (UTC, the run''s clock). It is due again 2^(asks - 1) days later (at most 16, less 12 hours), or on the first run at least a day after a month starts; the due ones asked longest ago come first.';
COMMENT ON COLUMN internal.pending_rereads.asks IS 'How many times runs have asked for it: the wait before the next ask doubles with each (1, 2, 4, 8, then 16 days).';
COMMENT ON COLUMN internal.pending_rereads.not_found IS 'True when the API answered 404: the stored row is kept as it is and not asked again.';
