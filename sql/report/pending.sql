-- Calls of the period whose billing has not completed (the pending_billing view): their price may
-- still change. cost_usd_so_far is what they are priced at now. $from / $to as elsewhere.
SELECT
  count(*)::BIGINT AS calls,
  coalesce(sum(c.price_usd), 0)::DECIMAL(38, 6)::VARCHAR AS cost_usd_so_far,
  strftime(timezone('UTC', min(p.created_at)), '%Y-%m-%dT%H:%M:%S.%fZ') AS oldest_created_at
FROM pending_billing AS p
JOIN api_calls AS c USING (id)
WHERE ($from::DATE IS NULL OR CAST(make_timestamp(epoch_us(p.created_at)) AS DATE) >= $from::DATE)
  AND ($to::DATE IS NULL OR CAST(make_timestamp(epoch_us(p.created_at)) AS DATE) <= $to::DATE);
