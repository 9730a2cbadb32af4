-- The most expensive calls of the period (ties: older first, then by id, so the list is stable).
-- $from / $to: UTC days, both included; NULL leaves that end open. $top: how many.
-- In two steps, so that only the prices of every call are read: the price of the $top-th costliest
-- call (a top-N heap over price_usd alone), then the top $top of the calls priced at least that
-- (the scan fetches their other columns only where a price passes), shaped last.
-- ORDER BY names c.* columns: the VARCHAR aliases below would otherwise sort as text.
WITH threshold AS (
  SELECT min(price_usd) AS price_usd
  FROM (
    SELECT price_usd
    FROM api_calls
    WHERE price_usd IS NOT NULL
      AND ($from::DATE IS NULL OR created_day >= $from::DATE) AND ($to::DATE IS NULL OR created_day <= $to::DATE)
    ORDER BY price_usd DESC
    LIMIT $top
  )
),
top AS (
  SELECT *
  FROM api_calls
  WHERE price_usd >= (SELECT price_usd FROM threshold)
    AND ($from::DATE IS NULL OR created_day >= $from::DATE) AND ($to::DATE IS NULL OR created_day <= $to::DATE)
  ORDER BY price_usd DESC, created_at, id
  LIMIT $top
)
SELECT
  c.id::VARCHAR AS id,
  strftime(timezone('UTC', c.created_at), '%Y-%m-%dT%H:%M:%S.%fZ') AS created_at,
  c.method,
  c.endpoint_template,
  c.status_code,
  c.email,
  c.price_usd::VARCHAR AS price_usd,
  c.completed_at IS NULL AS billing_pending
FROM top AS c
ORDER BY c.price_usd DESC, c.created_at, c.id;
