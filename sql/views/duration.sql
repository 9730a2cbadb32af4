-- The evidence for the unit of the undocumented `duration`: raw units per microsecond of
-- completed_at - started_at (the billing interval). About 1000 means nanoseconds, 1 microseconds,
-- 0.001 milliseconds, 0.000001 seconds. docs/duration.md reports it on the demo data.
-- Over the calls created in the last 7 days of the history: what the API sends now, which is what
-- each run checks, at a cost that does not grow with the history.
CREATE OR REPLACE VIEW duration_unit_evidence AS
WITH pairs AS (
  SELECT duration_raw::DOUBLE / (epoch_us(completed_at) - epoch_us(started_at)) AS raw_per_us
  FROM api_calls
  WHERE duration_raw > 0 AND completed_at > started_at
    AND created_at >= (SELECT max(created_at) FROM api_calls) - INTERVAL 7 DAY
),
summary AS (
  SELECT
    count(*) AS calls_compared,
    median(raw_per_us) AS median_raw_per_us,
    quantile_cont(raw_per_us, 0.05) AS p05_raw_per_us,
    quantile_cont(raw_per_us, 0.95) AS p95_raw_per_us
  FROM pairs
)
SELECT
  *,
  CASE
    WHEN median_raw_per_us BETWEEN 500 AND 2000 THEN 'ns'
    WHEN median_raw_per_us BETWEEN 0.5 AND 2 THEN 'us'
    WHEN median_raw_per_us BETWEEN 0.0005 AND 0.002 THEN 'ms'
    WHEN median_raw_per_us BETWEEN 0.0000005 AND 0.000002 THEN 's'
    ELSE 'unclear'
  END AS implied_unit
FROM summary;
COMMENT ON VIEW duration_unit_evidence IS 'The unit the undocumented duration implies: raw units per microsecond of completed_at - started_at, over calls created in the last 7 days of the history. See docs/duration.md.';
COMMENT ON COLUMN duration_unit_evidence.calls_compared IS 'Calls with a positive duration_raw and completed_at after started_at.';
COMMENT ON COLUMN duration_unit_evidence.median_raw_per_us IS 'The median of duration_raw per microsecond of billing: about 1000 means ns, 1 us, 0.001 ms, 0.000001 s.';
COMMENT ON COLUMN duration_unit_evidence.p05_raw_per_us IS 'The 5th percentile of duration_raw per microsecond of billing.';
COMMENT ON COLUMN duration_unit_evidence.p95_raw_per_us IS 'The 95th percentile of duration_raw per microsecond of billing.';
COMMENT ON COLUMN duration_unit_evidence.implied_unit IS 'The unit the median implies: ns, us, ms, s, or unclear.';
