-- Apply the changed operations of a batch: the latest fetch wins. queue_ms and run_ms are derived here:
-- queued = created -> started, ran = started -> completed.
-- BY NAME: the staged operations carry every other column under its own name.
INSERT OR REPLACE INTO async_operations BY NAME
SELECT
  *,
  (epoch_us(started_at) - epoch_us(created_at)) / 1000.0 AS queue_ms,
  (epoch_us(completed_at) - epoch_us(started_at)) / 1000.0 AS run_ms,
  $run_id AS fetch_run_id
FROM changed_async_operations;
