-- Every call with what finance reads off it (its day, its month, whether it is billed yet, whether
-- the exporter made it), and the exporter's own share. Days and months are UTC whatever the session
-- time zone: the loader stores each call's UTC day and month (created_day, created_month).
-- Sums of DECIMAL are exact.

-- is_own_call: a request of the exporter itself, which the API lists as a call of the token's user
-- like any other: an id it received in x-api-call-id (internal.own_calls), or its User-Agent (zoo-usage/...),
-- which also covers a request whose response never arrived. The parameters are named apart from
-- the columns: one named id would be taken for internal.own_calls.id inside the subquery.
CREATE OR REPLACE MACRO is_own_call(call_id, call_user_agent) AS
  coalesce(call_user_agent LIKE 'zoo-usage/%', false) OR call_id IN (SELECT id FROM internal.own_calls);
COMMENT ON MACRO is_own_call IS 'is_own_call(call_id, call_user_agent): true for a request of zoo-usage itself, by its id in internal.own_calls or its User-Agent (zoo-usage/...).';

CREATE OR REPLACE VIEW api_calls_enriched AS
SELECT
  -- The stored day and month (the table's last columns) under the names this view has always given
  -- them. One RENAME each: DuckDB prints a RENAME of two columns in no fixed order, and the catalog's
  -- digest (schemaState.ts) must read the same at every open.
  -- A month is the DATE of its first day: it sorts, joins and filters as a date in BI tools.
  * RENAME (created_month AS month),
  completed_at IS NULL AS billing_pending,
  is_own_call(id, user_agent) AS is_own_call
FROM (SELECT * RENAME (created_day AS day) FROM api_calls);
COMMENT ON VIEW api_calls_enriched IS 'api_calls with the UTC day and month, whether billing is pending, and whether the call is the exporter''s own.';
COMMENT ON COLUMN api_calls_enriched.day IS 'The UTC day of created_at.';
COMMENT ON COLUMN api_calls_enriched.month IS 'The UTC month of created_at, as the DATE of its first day (2026-10-01).';
COMMENT ON COLUMN api_calls_enriched.billing_pending IS 'True while billing has not completed (completed_at is NULL): the price may still change.';
COMMENT ON COLUMN api_calls_enriched.is_own_call IS 'True for a request of the exporter itself: its id is in internal.own_calls or its user_agent starts with zoo-usage/.';

-- Every call but the exporter's own: what the account spends on everything else.
CREATE OR REPLACE VIEW api_calls_excluding_own AS
SELECT * FROM api_calls_enriched WHERE NOT is_own_call;
COMMENT ON VIEW api_calls_excluding_own IS 'api_calls_enriched without the exporter''s own calls.';

-- The exporter's own share per month: its calls and their cost beside the totals, so the spend with
-- and without it can be read side by side (from the calls' rollup, call_grains).
CREATE OR REPLACE VIEW own_calls_per_month AS
SELECT
  month,
  sum(calls)::BIGINT AS calls,
  coalesce(sum(calls) FILTER (WHERE is_own_call), 0)::BIGINT AS own_calls,
  sum(price_usd)::DECIMAL(38, 6) AS cost_usd,
  coalesce(sum(price_usd) FILTER (WHERE is_own_call), 0)::DECIMAL(38, 6) AS own_cost_usd,
  coalesce(sum(price_usd) FILTER (WHERE NOT is_own_call), 0)::DECIMAL(38, 6) AS cost_excluding_own_usd
FROM call_grains
GROUP BY month
ORDER BY month;
COMMENT ON VIEW own_calls_per_month IS 'The exporter''s own calls and their cost per UTC month, beside the totals.';
COMMENT ON COLUMN own_calls_per_month.calls IS 'All calls created that month.';
COMMENT ON COLUMN own_calls_per_month.own_calls IS 'The exporter''s own calls among them.';
COMMENT ON COLUMN own_calls_per_month.cost_usd IS 'The exact sum of price_usd of all calls in USD, DECIMAL(38,6).';
COMMENT ON COLUMN own_calls_per_month.own_cost_usd IS 'The exact sum of price_usd of the exporter''s own calls in USD, DECIMAL(38,6).';
COMMENT ON COLUMN own_calls_per_month.cost_excluding_own_usd IS 'The exact sum of price_usd of all other calls in USD, DECIMAL(38,6).';
