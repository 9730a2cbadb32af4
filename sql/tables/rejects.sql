-- Records that failed validation or loading: kept with the reason, never dropped.
CREATE TABLE IF NOT EXISTS rejects (
  run_id      VARCHAR NOT NULL,
  rejected_at TIMESTAMPTZ NOT NULL,
  record_id   VARCHAR,
  reason      VARCHAR NOT NULL,
  raw_json    VARCHAR NOT NULL
);
COMMENT ON TABLE rejects IS 'Records that could not be loaded (API calls, async operations, credits balances), kept with the reason instead of dropped; a run with rejects exits with code 4.';
COMMENT ON COLUMN rejects.run_id IS 'The run (runs.run_id) that rejected the record.';
COMMENT ON COLUMN rejects.rejected_at IS 'When the record was rejected (UTC).';
COMMENT ON COLUMN rejects.record_id IS 'The id of the rejected record when it has one that can be read; NULL otherwise.';
COMMENT ON COLUMN rejects.reason IS 'Why it was rejected: the field and what was wrong with it, or DuckDB''s error.';
COMMENT ON COLUMN rejects.raw_json IS 'The record as received, JSON text (an operation''s output files replaced by their sizes).';
