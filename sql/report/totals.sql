-- Totals of a report period: the sums of cost_per_day over its UTC days (so they equal the view),
-- plus what the view does not carry: failures (status_code >= 400) and the first and last call,
-- from the calls' rollup (call_grains).
-- $from / $to: UTC days, both included; NULL leaves that end open.
WITH days AS (
  SELECT
    coalesce(sum(calls), 0)::BIGINT AS calls,
    coalesce(sum(priced_calls), 0)::BIGINT AS priced_calls,
    coalesce(sum(pending_calls), 0)::BIGINT AS pending_calls,
    coalesce(sum(cost_usd), 0)::DECIMAL(38, 6) AS cost_usd,
    count(*)::BIGINT AS days_with_calls,
    min(day) AS first_day,
    max(day) AS last_day
  FROM cost_per_day
  WHERE ($from::DATE IS NULL OR day >= $from::DATE) AND ($to::DATE IS NULL OR day <= $to::DATE)
),
calls AS (
  SELECT
    coalesce(sum(failed_calls), 0)::BIGINT AS failed_calls,
    min(first_call_at) AS first_call_at,
    max(last_call_at) AS last_call_at
  FROM call_grains
  WHERE ($from::DATE IS NULL OR day >= $from::DATE) AND ($to::DATE IS NULL OR day <= $to::DATE)
)
SELECT
  days.calls,
  days.priced_calls,
  days.pending_calls,
  calls.failed_calls,
  days.cost_usd::VARCHAR AS cost_usd,
  days.days_with_calls,
  strftime(days.first_day, '%Y-%m-%d') AS first_day,
  strftime(days.last_day, '%Y-%m-%d') AS last_day,
  strftime(timezone('UTC', calls.first_call_at), '%Y-%m-%dT%H:%M:%S.%fZ') AS first_call_at,
  strftime(timezone('UTC', calls.last_call_at), '%Y-%m-%dT%H:%M:%S.%fZ') AS last_call_at
FROM days, calls;
