-- Spend per endpoint template in the period, from cost_per_day_endpoint (without a period it equals
-- cost_per_endpoint, in the same order). The first $top templates by cost come one per row
-- (rank 1..$top); the rest are summed into one row with rank NULL, so the rows add up to the total.
-- $from / $to: UTC days, both included; NULL leaves that end open.
WITH per_template AS (
  SELECT
    endpoint_template,
    sum(calls)::BIGINT AS calls,
    sum(priced_calls)::BIGINT AS priced_calls,
    sum(cost_usd)::DECIMAL(38, 6) AS cost_usd
  FROM cost_per_day_endpoint
  WHERE ($from::DATE IS NULL OR day >= $from::DATE) AND ($to::DATE IS NULL OR day <= $to::DATE)
  GROUP BY endpoint_template
),
ranked AS (
  SELECT *, row_number() OVER (ORDER BY cost_usd DESC, endpoint_template NULLS LAST) AS rank
  FROM per_template
)
SELECT
  rank,
  endpoint_template,
  1::BIGINT AS templates,
  calls,
  priced_calls,
  cost_usd::VARCHAR AS cost_usd
FROM ranked
WHERE rank <= $top
UNION ALL
SELECT
  NULL,
  NULL,
  count(*)::BIGINT,
  sum(calls)::BIGINT,
  sum(priced_calls)::BIGINT,
  sum(cost_usd)::DECIMAL(38, 6)::VARCHAR
FROM ranked
WHERE rank > $top
HAVING count(*) > 0
ORDER BY rank NULLS LAST;
