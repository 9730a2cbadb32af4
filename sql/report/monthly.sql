-- One row per UTC calendar month of the period, from its first month to its last, months without
-- calls included (as zeros): the sums of cost_per_day over the period's days of that month (so they
-- add up to the totals), plus the failed calls (status_code >= 400). first_day / last_day are the
-- month's days inside the period: the whole month unless --from / --to (or, for an open end, the
-- first / last day with calls) cut into it.
-- $from / $to: UTC days, both included; NULL leaves that end open (the first / last day with calls).
WITH days AS (
  SELECT *, CAST(date_trunc('month', day) AS DATE) AS month
  FROM cost_per_day
  WHERE ($from::DATE IS NULL OR day >= $from::DATE) AND ($to::DATE IS NULL OR day <= $to::DATE)
),
per_month AS (
  SELECT
    month,
    sum(calls)::BIGINT AS calls,
    sum(priced_calls)::BIGINT AS priced_calls,
    sum(pending_calls)::BIGINT AS pending_calls,
    sum(cost_usd)::DECIMAL(38, 6) AS cost_usd
  FROM days
  GROUP BY month
),
failures AS (
  SELECT month, sum(failed_calls)::BIGINT AS failed_calls
  FROM call_grains
  WHERE failed_calls > 0
    AND ($from::DATE IS NULL OR day >= $from::DATE) AND ($to::DATE IS NULL OR day <= $to::DATE)
  GROUP BY ALL
),
bounds AS (
  SELECT
    coalesce($from::DATE, (SELECT min(day) FROM days)) AS first_day,
    coalesce($to::DATE, (SELECT max(day) FROM days)) AS last_day
),
months AS (
  -- No bound and no call: generate_series of NULL is NULL, and unnest gives no month.
  SELECT CAST(unnest(generate_series(
    date_trunc('month', first_day)::TIMESTAMP,
    date_trunc('month', last_day)::TIMESTAMP,
    INTERVAL 1 MONTH
  )) AS DATE) AS month
  FROM bounds
)
SELECT
  strftime(m.month, '%Y-%m') AS month,
  strftime(greatest(m.month, b.first_day), '%Y-%m-%d') AS first_day,
  strftime(least(last_day(m.month), b.last_day), '%Y-%m-%d') AS last_day,
  coalesce(p.calls, 0)::BIGINT AS calls,
  coalesce(p.priced_calls, 0)::BIGINT AS priced_calls,
  coalesce(p.pending_calls, 0)::BIGINT AS pending_calls,
  coalesce(f.failed_calls, 0)::BIGINT AS failed_calls,
  coalesce(p.cost_usd, 0)::DECIMAL(38, 6)::VARCHAR AS cost_usd
FROM months AS m
CROSS JOIN bounds AS b
LEFT JOIN per_month AS p USING (month)
LEFT JOIN failures AS f USING (month)
ORDER BY m.month;
