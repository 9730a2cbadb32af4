-- Parquet partitions whose rows changed and are not yet rewritten. Set in the data's transaction,
-- cleared after the partition file is swapped in: a crash in between is repaired by the next run.
CREATE TABLE IF NOT EXISTS internal.parquet_dirty (
  dataset   VARCHAR NOT NULL,
  partition VARCHAR NOT NULL,
  PRIMARY KEY (dataset, partition)
);
COMMENT ON TABLE internal.parquet_dirty IS 'Exporter bookkeeping: Parquet partitions whose rows changed and are not yet rewritten; cleared once the partition file is swapped in.';
COMMENT ON COLUMN internal.parquet_dirty.dataset IS 'The Parquet dataset: api_calls or async_operations.';
COMMENT ON COLUMN internal.parquet_dirty.partition IS 'The partition: the UTC month (or day, with --partition day) of created_at, as in the dataset''s folder names.';
