-- The exporter's own share of a report period: its calls (the API lists every request it serves as
-- a call of the token's user) and their cost, and the spend without them, from the calls' rollup.
-- $from / $to: UTC days, both included; NULL leaves that end open.
SELECT
  coalesce(sum(calls) FILTER (WHERE is_own_call), 0)::BIGINT AS calls,
  coalesce(sum(price_usd) FILTER (WHERE is_own_call), 0)::DECIMAL(38, 6)::VARCHAR AS cost_usd,
  coalesce(sum(price_usd) FILTER (WHERE NOT is_own_call), 0)::DECIMAL(38, 6)::VARCHAR AS cost_usd_excluding_own
FROM call_grains
WHERE ($from::DATE IS NULL OR day >= $from::DATE) AND ($to::DATE IS NULL OR day <= $to::DATE);
