-- What the calls cost: per day, month, endpoint and status, and what is not billed yet.
-- Days and months are UTC whatever the session time zone: the loader stores each call's UTC day
-- and month. Sums of DECIMAL are exact. The views per day, month and endpoint read the calls'
-- rollup (call_grains), kept by the loader, rather than every call.

-- Cost per UTC day and per month, of every call or of all but the exporter's own (include_own):
-- each shape written once, for the views below.
CREATE OR REPLACE MACRO cost_per_day_of(include_own) AS TABLE
SELECT
  day,
  sum(calls)::BIGINT AS calls,
  sum(priced_calls)::BIGINT AS priced_calls,
  sum(pending_calls)::BIGINT AS pending_calls,
  sum(price_usd)::DECIMAL(38, 6) AS cost_usd
FROM call_grains
WHERE include_own OR NOT is_own_call
GROUP BY day
ORDER BY day;
COMMENT ON MACRO TABLE cost_per_day_of IS 'cost_per_day_of(include_own): the shape of cost_per_day (true) and cost_per_day_excluding_own (false).';

CREATE OR REPLACE MACRO cost_per_month_of(include_own) AS TABLE
SELECT
  month,
  sum(calls)::BIGINT AS calls,
  sum(priced_calls)::BIGINT AS priced_calls,
  sum(pending_calls)::BIGINT AS pending_calls,
  sum(price_usd)::DECIMAL(38, 6) AS cost_usd
FROM call_grains
WHERE include_own OR NOT is_own_call
GROUP BY month
ORDER BY month;
COMMENT ON MACRO TABLE cost_per_month_of IS 'cost_per_month_of(include_own): the shape of cost_per_month (true) and cost_per_month_excluding_own (false).';

CREATE OR REPLACE VIEW cost_per_day AS SELECT * FROM cost_per_day_of(true);
COMMENT ON VIEW cost_per_day IS 'Calls and cost per UTC day of created_at, every call.';
COMMENT ON COLUMN cost_per_day.calls IS 'Calls created that day.';
COMMENT ON COLUMN cost_per_day.priced_calls IS 'Calls with a price (price_usd not NULL).';
COMMENT ON COLUMN cost_per_day.pending_calls IS 'Calls whose billing has not completed.';
COMMENT ON COLUMN cost_per_day.cost_usd IS 'The exact sum of price_usd in USD, DECIMAL(38,6) (0 when no call is priced).';

CREATE OR REPLACE VIEW cost_per_month AS SELECT * FROM cost_per_month_of(true);
COMMENT ON VIEW cost_per_month IS 'Calls and cost per UTC month of created_at, every call.';
COMMENT ON COLUMN cost_per_month.calls IS 'Calls created that month.';

CREATE OR REPLACE VIEW cost_per_day_excluding_own AS SELECT * FROM cost_per_day_of(false);
COMMENT ON VIEW cost_per_day_excluding_own IS 'cost_per_day without the exporter''s own calls.';

CREATE OR REPLACE VIEW cost_per_month_excluding_own AS SELECT * FROM cost_per_month_of(false);
COMMENT ON VIEW cost_per_month_excluding_own IS 'cost_per_month without the exporter''s own calls.';

CREATE OR REPLACE VIEW cost_per_endpoint AS
SELECT
  endpoint_template,
  sum(calls)::BIGINT AS calls,
  sum(priced_calls)::BIGINT AS priced_calls,
  sum(pending_calls)::BIGINT AS pending_calls,
  sum(price_usd)::DECIMAL(38, 6) AS cost_usd,
  max(max_price_usd) AS max_price_usd,
  min(first_call_at) AS first_call_at,
  max(last_call_at) AS last_call_at
FROM call_grains
GROUP BY endpoint_template
ORDER BY cost_usd DESC, endpoint_template;
COMMENT ON VIEW cost_per_endpoint IS 'Calls and cost per endpoint_template, every call, most expensive first.';
COMMENT ON COLUMN cost_per_endpoint.calls IS 'Calls to the endpoint.';
COMMENT ON COLUMN cost_per_endpoint.max_price_usd IS 'The highest price_usd of one call, USD.';
COMMENT ON COLUMN cost_per_endpoint.first_call_at IS 'created_at of the first call (UTC).';
COMMENT ON COLUMN cost_per_endpoint.last_call_at IS 'created_at of the last call (UTC).';

CREATE OR REPLACE VIEW cost_per_day_endpoint AS
SELECT
  day,
  endpoint_template,
  sum(calls)::BIGINT AS calls,
  sum(priced_calls)::BIGINT AS priced_calls,
  sum(price_usd)::DECIMAL(38, 6) AS cost_usd
FROM call_grains
GROUP BY day, endpoint_template
ORDER BY day, cost_usd DESC, endpoint_template;
COMMENT ON VIEW cost_per_day_endpoint IS 'Calls and cost per UTC day and endpoint_template, every call.';
COMMENT ON COLUMN cost_per_day_endpoint.calls IS 'Calls to the endpoint that day.';

CREATE OR REPLACE VIEW cost_per_method_status AS
SELECT
  method,
  status_code,
  count(*) AS calls,
  count(price_usd) AS priced_calls,
  coalesce(sum(price_usd), 0)::DECIMAL(38, 6) AS cost_usd
FROM api_calls_enriched
GROUP BY method, status_code
ORDER BY cost_usd DESC, method, status_code;
COMMENT ON VIEW cost_per_method_status IS 'Calls and cost per HTTP method and status code, every call.';
COMMENT ON COLUMN cost_per_method_status.calls IS 'Calls with that method and status code.';

-- Calls whose billing has not completed yet: their price may still change. A nightly run re-reads
-- them while they are inside the lookback window.
CREATE OR REPLACE VIEW pending_billing AS
SELECT id, created_at, method, endpoint, endpoint_template, status_code, updated_at
FROM api_calls
WHERE completed_at IS NULL
ORDER BY created_at;
COMMENT ON VIEW pending_billing IS 'Calls whose billing has not completed (completed_at is NULL): their price may still change.';
