-- Calls of the period whose billing has not completed (the pending_billing view): their price may
-- still change. cost_usd_so_far is what they are priced at now. $from / $to as elsewhere. Read from
-- the calls' rollup (call_grains), which counts them per day.
SELECT
  coalesce(sum(pending_calls), 0)::BIGINT AS calls,
  coalesce(sum(pending_price_usd), 0)::DECIMAL(38, 6)::VARCHAR AS cost_usd_so_far,
  strftime(timezone('UTC', min(first_pending_at)), '%Y-%m-%dT%H:%M:%S.%fZ') AS oldest_created_at
FROM call_grains
WHERE pending_calls > 0
  AND ($from::DATE IS NULL OR day >= $from::DATE)
  AND ($to::DATE IS NULL OR day <= $to::DATE);
