-- Views for finance. Days and months are UTC whatever the session time zone: timezone('UTC', ts)
-- turns the instant into UTC wall time before it is cut into a date. Sums of DECIMAL are exact.

CREATE OR REPLACE VIEW api_calls_enriched AS
SELECT
  *,
  CAST(timezone('UTC', created_at) AS DATE) AS day,
  strftime(timezone('UTC', created_at), '%Y-%m') AS month,
  completed_at IS NULL AS billing_pending
FROM api_calls;

CREATE OR REPLACE VIEW cost_per_day AS
SELECT
  day,
  count(*) AS calls,
  count(price_usd) AS priced_calls,
  count(*) FILTER (WHERE billing_pending) AS pending_calls,
  coalesce(sum(price_usd), 0)::DECIMAL(18, 6) AS cost_usd
FROM api_calls_enriched
GROUP BY day
ORDER BY day;

CREATE OR REPLACE VIEW cost_per_month AS
SELECT
  month,
  count(*) AS calls,
  count(price_usd) AS priced_calls,
  count(*) FILTER (WHERE billing_pending) AS pending_calls,
  coalesce(sum(price_usd), 0)::DECIMAL(18, 6) AS cost_usd
FROM api_calls_enriched
GROUP BY month
ORDER BY month;

CREATE OR REPLACE VIEW cost_per_endpoint AS
SELECT
  endpoint_template,
  count(*) AS calls,
  count(price_usd) AS priced_calls,
  count(*) FILTER (WHERE billing_pending) AS pending_calls,
  coalesce(sum(price_usd), 0)::DECIMAL(18, 6) AS cost_usd,
  max(price_usd) AS max_price_usd,
  min(created_at) AS first_call_at,
  max(created_at) AS last_call_at
FROM api_calls_enriched
GROUP BY endpoint_template
ORDER BY cost_usd DESC, endpoint_template;

CREATE OR REPLACE VIEW cost_per_day_endpoint AS
SELECT
  day,
  endpoint_template,
  count(*) AS calls,
  count(price_usd) AS priced_calls,
  coalesce(sum(price_usd), 0)::DECIMAL(18, 6) AS cost_usd
FROM api_calls_enriched
GROUP BY day, endpoint_template
ORDER BY day, cost_usd DESC, endpoint_template;

CREATE OR REPLACE VIEW cost_per_method_status AS
SELECT
  method,
  status_code,
  count(*) AS calls,
  count(price_usd) AS priced_calls,
  coalesce(sum(price_usd), 0)::DECIMAL(18, 6) AS cost_usd
FROM api_calls_enriched
GROUP BY method, status_code
ORDER BY cost_usd DESC, method, status_code;

-- Calls whose billing has not completed yet: their price may still change. A nightly run re-reads
-- them while they are inside the lookback window.
CREATE OR REPLACE VIEW pending_billing AS
SELECT id, created_at, method, endpoint, endpoint_template, status_code, updated_at
FROM api_calls
WHERE completed_at IS NULL
ORDER BY created_at;
