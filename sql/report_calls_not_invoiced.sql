-- Priced calls of a report period no invoice line bills although their period has closed
-- (calls_not_invoiced). $from / $to: UTC days, both included; NULL leaves that end open.
SELECT
  count(*)::BIGINT AS calls,
  coalesce(sum(price_usd), 0)::DECIMAL(38, 6)::VARCHAR AS cost_usd
FROM calls_not_invoiced
WHERE ($from::DATE IS NULL OR CAST(timezone('UTC', created_at) AS DATE) >= $from::DATE)
  AND ($to::DATE IS NULL OR CAST(timezone('UTC', created_at) AS DATE) <= $to::DATE);
