-- One row per export run, written at start and updated at the end.
CREATE TABLE IF NOT EXISTS runs (
  run_id             VARCHAR PRIMARY KEY,
  started_at         TIMESTAMPTZ NOT NULL,
  finished_at        TIMESTAMPTZ,
  status             VARCHAR NOT NULL,
  scan_mode          VARCHAR,
  requests           BIGINT,
  pages              BIGINT,
  records_seen       BIGINT,
  records_new        BIGINT,
  records_updated    BIGINT,
  records_rejected   BIGINT,
  partitions_written BIGINT,
  retries            BIGINT,
  message            VARCHAR
);
COMMENT ON TABLE runs IS 'One row per export run: written at start (status running), updated at the end with the run''s counts.';
COMMENT ON COLUMN runs.run_id IS 'The run''s id, as in api_calls.first_seen_run_id, rejects.run_id and the logs.';
COMMENT ON COLUMN runs.started_at IS 'When the run started (UTC).';
COMMENT ON COLUMN runs.finished_at IS 'When the run ended (UTC); NULL for a run still going or killed.';
COMMENT ON COLUMN runs.status IS 'running, completed, partial (rejects, or stopped early), failed, interrupted, or crashed (the process ended without finishing: found by the next run).';
COMMENT ON COLUMN runs.scan_mode IS 'How the listing was scanned: full (from the beginning), incremental (from the lookback window) or resume (an interrupted scan''s checkpoint).';
COMMENT ON COLUMN runs.requests IS 'HTTP requests the run made to the API, retries included.';
COMMENT ON COLUMN runs.pages IS 'Pages of GET /user/api-calls the run read.';
COMMENT ON COLUMN runs.records_seen IS 'API call records the run read from the listing.';
COMMENT ON COLUMN runs.records_new IS 'Calls the run stored for the first time.';
COMMENT ON COLUMN runs.records_updated IS 'Stored calls the run replaced with a newer version (higher updated_at), re-reads included.';
COMMENT ON COLUMN runs.records_rejected IS 'API call records the run put in rejects.';
COMMENT ON COLUMN runs.partitions_written IS 'Parquet partition files the run rewrote.';
COMMENT ON COLUMN runs.retries IS 'Requests the run retried (429, 5xx, network errors).';
COMMENT ON COLUMN runs.message IS 'What stopped the run, then its warnings, separated by semicolons; NULL when there were none.';
