-- One row per UTC day with calls in the period: cost_per_day's figures as they are, plus the
-- failed calls (status_code >= 400) of that day, from the calls' rollup (call_grains).
-- $from / $to: UTC days, both included; NULL = open.
WITH failures AS (
  SELECT day, sum(failed_calls)::BIGINT AS failed_calls
  FROM call_grains
  WHERE failed_calls > 0
    AND ($from::DATE IS NULL OR day >= $from::DATE) AND ($to::DATE IS NULL OR day <= $to::DATE)
  GROUP BY day
)
SELECT
  strftime(d.day, '%Y-%m-%d') AS day,
  d.calls::BIGINT AS calls,
  d.priced_calls::BIGINT AS priced_calls,
  d.pending_calls::BIGINT AS pending_calls,
  coalesce(f.failed_calls, 0)::BIGINT AS failed_calls,
  d.cost_usd::VARCHAR AS cost_usd
FROM cost_per_day AS d
LEFT JOIN failures AS f USING (day)
WHERE ($from::DATE IS NULL OR d.day >= $from::DATE) AND ($to::DATE IS NULL OR d.day <= $to::DATE)
ORDER BY d.day;
