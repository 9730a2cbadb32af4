-- The most expensive calls of the period (ties: older first, then by id, so the list is stable).
-- $from / $to: UTC days, both included; NULL leaves that end open. $top: how many.
-- ORDER BY names c.* columns: the VARCHAR aliases below would otherwise sort as text.
SELECT
  c.id::VARCHAR AS id,
  strftime(timezone('UTC', c.created_at), '%Y-%m-%dT%H:%M:%S.%fZ') AS created_at,
  c.method,
  c.endpoint_template,
  c.status_code,
  c.email,
  c.price_usd::VARCHAR AS price_usd,
  c.billing_pending
FROM api_calls_enriched AS c
WHERE c.price_usd IS NOT NULL
  AND ($from::DATE IS NULL OR c.day >= $from::DATE) AND ($to::DATE IS NULL OR c.day <= $to::DATE)
ORDER BY c.price_usd DESC, c.created_at, c.id
LIMIT $top;
