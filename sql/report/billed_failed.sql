-- Failed async operations that were billed anyway (the billed_failed_operations view, read only
-- when it exists), created during the period, most expensive first. Always one row at least: the
-- totals, repeated on each operation row (id is NULL when there is none).
-- $from / $to: UTC days of created_at, both included; NULL leaves that end open. $top: how many.
WITH period AS (
  SELECT *
  FROM billed_failed_operations
  WHERE ($from::DATE IS NULL OR CAST(make_timestamp(epoch_us(created_at)) AS DATE) >= $from::DATE)
    AND ($to::DATE IS NULL OR CAST(make_timestamp(epoch_us(created_at)) AS DATE) <= $to::DATE)
),
totals AS (
  SELECT count(*)::BIGINT AS operations, coalesce(sum(price_usd), 0)::DECIMAL(38, 6) AS cost_usd
  FROM period
),
ranked AS (
  SELECT * FROM period ORDER BY price_usd DESC, created_at, id LIMIT $top
)
SELECT
  totals.operations,
  totals.cost_usd::VARCHAR AS cost_usd,
  ranked.id::VARCHAR AS id,
  ranked.operation_type::VARCHAR AS operation_type,
  ranked.error::VARCHAR AS error,
  ranked.price_usd::VARCHAR AS price_usd,
  strftime(timezone('UTC', ranked.created_at), '%Y-%m-%dT%H:%M:%S.%fZ') AS created_at
FROM totals
LEFT JOIN ranked ON true
ORDER BY ranked.price_usd DESC, ranked.created_at, ranked.id;
