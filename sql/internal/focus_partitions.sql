-- The FOCUS dataset's billing periods as last written under --out (src/destination/focusDataset.ts): a
-- period is rewritten only when its rows changed, and removed when it has none left.
CREATE TABLE IF NOT EXISTS internal.focus_partitions (
  billing_period VARCHAR PRIMARY KEY,
  row_count      BIGINT NOT NULL,
  digest         VARCHAR NOT NULL,
  written_at     TIMESTAMPTZ NOT NULL
);
COMMENT ON TABLE internal.focus_partitions IS 'Exporter bookkeeping: the billing periods of the FOCUS dataset (--focus) as last written, so that a run rewrites only those whose rows changed.';
COMMENT ON COLUMN internal.focus_partitions.billing_period IS 'The billing period, YYYY-MM: the partition focus/billing_period=YYYY-MM/.';
COMMENT ON COLUMN internal.focus_partitions.row_count IS 'Rows written for it.';
COMMENT ON COLUMN internal.focus_partitions.digest IS 'A digest of those rows (the sum of each row''s hash): a period whose digest differs is rewritten.';
COMMENT ON COLUMN internal.focus_partitions.written_at IS 'When its file was last written (UTC, the run''s clock).';
