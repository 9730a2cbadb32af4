-- The calls of a report period that are not invoiced, by class and reason (as call_billing_class):
-- one row per class and reason with its calls and their cost, and the unexplained calls one by one
-- (most expensive first, at most $top), each row repeating its group's totals.
-- $from / $to: UTC days of created_at, both included; NULL leaves that end open.
-- The groups come from the calls' rollup (call_grains); the unexplained calls are read from the
-- days the rollup has them on, so that a period without any reads no call.
WITH groups AS (
  SELECT billing_class, billing_reason AS reason, sum(calls)::BIGINT AS calls, sum(price_usd)::DECIMAL(38, 6) AS cost_usd
  FROM call_grains
  WHERE billing_class <> 'invoiced'
    AND ($from::DATE IS NULL OR day >= $from::DATE) AND ($to::DATE IS NULL OR day <= $to::DATE)
  GROUP BY billing_class, billing_reason
),
unexplained_days AS (
  SELECT DISTINCT day
  FROM call_grains
  WHERE billing_class = 'unexplained'
    AND ($from::DATE IS NULL OR day >= $from::DATE) AND ($to::DATE IS NULL OR day <= $to::DATE)
),
unexplained AS (
  SELECT id, created_at, price_usd, nullif(stripe_invoice_item_id, '') AS stripe_invoice_item_id,
    billing_invoice_id AS invoice_id
  FROM api_calls
  WHERE price_usd IS NOT NULL AND billing_class = 'unexplained'
    AND created_day IN (SELECT day FROM unexplained_days)
  ORDER BY price_usd DESC, created_at, id
  LIMIT $top
)
SELECT
  g.billing_class,
  g.reason,
  g.calls,
  g.cost_usd::VARCHAR AS cost_usd,
  u.id::VARCHAR AS id,
  strftime(timezone('UTC', u.created_at), '%Y-%m-%dT%H:%M:%S.%fZ') AS created_at,
  u.price_usd::VARCHAR AS price_usd,
  u.stripe_invoice_item_id,
  u.invoice_id
FROM groups AS g
LEFT JOIN unexplained AS u ON g.billing_class = 'unexplained'
ORDER BY g.billing_class, g.reason, u.price_usd DESC, u.created_at, u.id;
