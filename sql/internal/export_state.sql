-- The checkpoint: one row. Committed in the same transaction as the rows it covers.
-- Page tokens are sealed (AES-256-GCM with the export's secret key), never stored in the clear.
CREATE TABLE IF NOT EXISTS internal.export_state (
  singleton          BOOLEAN PRIMARY KEY DEFAULT true CHECK (singleton),
  user_id            UUID,
  -- Where an interrupted scan continues; NULL once a scan has reached the end.
  resume_token       VARCHAR,
  resume_run_id      VARCHAR,
  high_water_created TIMESTAMPTZ,
  last_complete_scan TIMESTAMPTZ,
  -- Settings the stored data depends on: duration_ms is derived with this unit, and the Parquet
  -- dataset is laid out by this partitioning.
  duration_unit      VARCHAR,
  partitioning       VARCHAR
);
-- Which secret key the stored hashes and page tokens are made with (src/load/warehouseKey.ts):
-- written with every batch, so that it never disagrees with what the batch committed.
ALTER TABLE internal.export_state ADD COLUMN IF NOT EXISTS secret_key_check VARCHAR;
-- The invoices the stored billing classes were made with (src/load/callClasses.ts): when they
-- change, every month is classified again.
ALTER TABLE internal.export_state ADD COLUMN IF NOT EXISTS classified_invoices VARCHAR;
COMMENT ON TABLE internal.export_state IS 'Exporter bookkeeping: the checkpoint, one row, committed in the same transaction as the rows it covers.';
COMMENT ON COLUMN internal.export_state.singleton IS 'Always true: keeps the table at one row.';
COMMENT ON COLUMN internal.export_state.user_id IS 'The user whose calls this database holds; a token of another user is refused.';
COMMENT ON COLUMN internal.export_state.resume_token IS 'Where an interrupted scan continues: a page token sealed with AES-256-GCM under the export''s secret key; NULL once a scan has reached the end.';
COMMENT ON COLUMN internal.export_state.resume_run_id IS 'The run that wrote resume_token.';
COMMENT ON COLUMN internal.export_state.high_water_created IS 'The highest created_at stored (UTC): the lookback window of a nightly run ends here.';
COMMENT ON COLUMN internal.export_state.last_complete_scan IS 'When a scan last reached the end of the listing (UTC).';
COMMENT ON COLUMN internal.export_state.duration_unit IS 'The unit of api_calls.duration_raw that duration_ms was derived with: ns, us, ms or s (--duration-unit).';
COMMENT ON COLUMN internal.export_state.partitioning IS 'How the Parquet dataset is partitioned: month or day (--partition).';
COMMENT ON COLUMN internal.export_state.secret_key_check IS 'HMAC-SHA256 of a fixed text under the export''s secret key, written with every batch: which key the hashed columns and sealed page tokens are made with. It reveals nothing of the key. A run with another key is refused unless --new-secret-key. NULL in a database made before it.';
COMMENT ON COLUMN internal.export_state.classified_invoices IS 'A digest of invoices and invoice_lines (their run ids left out) as the stored billing classes last saw them: when it differs, every month''s calls are classified again. NULL before the first classification.';
