-- The calls of a report period that are not invoiced, by class and reason (call_billing_class):
-- one row per class and reason with its calls and their cost, and the unexplained calls one by one
-- (most expensive first, at most $top), each row repeating its group's totals.
-- $from / $to: UTC days of created_at, both included; NULL leaves that end open.
-- The period is read by both parts rather than kept: kept, it would hold every call not invoiced;
-- the groups and the top few each read only what they need.
WITH period AS NOT MATERIALIZED (
  SELECT *
  FROM call_billing_class
  WHERE billing_class <> 'invoiced'
    AND ($from::DATE IS NULL OR CAST(make_timestamp(epoch_us(created_at)) AS DATE) >= $from::DATE)
    AND ($to::DATE IS NULL OR CAST(make_timestamp(epoch_us(created_at)) AS DATE) <= $to::DATE)
),
groups AS (
  SELECT billing_class, reason, count(*)::BIGINT AS calls, sum(price_usd)::DECIMAL(38, 6) AS cost_usd
  FROM period
  GROUP BY billing_class, reason
),
unexplained AS (
  SELECT * FROM period WHERE billing_class = 'unexplained' ORDER BY price_usd DESC, created_at, id LIMIT $top
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
