-- The calls' rollup (sql/tables/call_grains.sql) of the days in the temp table class_days, from the
-- calls and their stored billing classes: what src/load/callClasses.ts stores after classifying
-- those days.
SELECT
  created_month AS month,
  created_day AS day,
  endpoint_template,
  is_own_call(id, user_agent) AS is_own_call,
  nullif(stripe_invoice_item_id, '') AS invoice_item,
  billing_class,
  billing_reason,
  count(*) AS calls,
  count(price_usd) AS priced_calls,
  count(*) FILTER (WHERE price_usd <> 0) AS nonzero_priced_calls,
  count(*) FILTER (WHERE completed_at IS NULL) AS pending_calls,
  count(*) FILTER (WHERE status_code >= 400) AS failed_calls,
  coalesce(sum(price_usd), 0)::DECIMAL(38, 6) AS price_usd,
  coalesce(sum(price_usd) FILTER (WHERE completed_at IS NULL), 0)::DECIMAL(38, 6) AS pending_price_usd,
  max(price_usd) AS max_price_usd,
  min(created_at) AS first_call_at,
  max(created_at) AS last_call_at,
  min(created_at) FILTER (WHERE completed_at IS NULL) AS first_pending_at
FROM api_calls
WHERE created_day IN (SELECT day FROM class_days)
GROUP BY ALL
