-- Views for finance. Days and months are UTC whatever the session time zone: timezone('UTC', ts)
-- turns the instant into UTC wall time before it is cut into a date. Sums of DECIMAL are exact.

-- is_own_call: a request of the exporter itself, which the API lists as a call of the token's user
-- like any other: an id it received in x-api-call-id (internal.own_calls), or its User-Agent (zoo-usage/...),
-- which also covers a request whose response never arrived. The parameters are named apart from
-- the columns: one named id would be taken for internal.own_calls.id inside the subquery.
CREATE OR REPLACE MACRO is_own_call(call_id, call_user_agent) AS
  coalesce(call_user_agent LIKE 'zoo-usage/%', false) OR call_id IN (SELECT id FROM internal.own_calls);

CREATE OR REPLACE VIEW api_calls_enriched AS
SELECT
  *,
  CAST(timezone('UTC', created_at) AS DATE) AS day,
  -- A month is the DATE of its first day: it sorts, joins and filters as a date in BI tools.
  CAST(date_trunc('month', timezone('UTC', created_at)) AS DATE) AS month,
  completed_at IS NULL AS billing_pending,
  is_own_call(id, user_agent) AS is_own_call
FROM api_calls;

-- Every call but the exporter's own: what the account spends on everything else.
CREATE OR REPLACE VIEW api_calls_excluding_own AS
SELECT * FROM api_calls_enriched WHERE NOT is_own_call;

-- Cost per UTC day and per month, of every call or of all but the exporter's own (include_own):
-- each shape written once, for the views below.
CREATE OR REPLACE MACRO cost_per_day_of(include_own) AS TABLE
SELECT
  day,
  count(*) AS calls,
  count(price_usd) AS priced_calls,
  count(*) FILTER (WHERE billing_pending) AS pending_calls,
  coalesce(sum(price_usd), 0)::DECIMAL(18, 6) AS cost_usd
FROM api_calls_enriched
WHERE include_own OR NOT is_own_call
GROUP BY day
ORDER BY day;

CREATE OR REPLACE MACRO cost_per_month_of(include_own) AS TABLE
SELECT
  month,
  count(*) AS calls,
  count(price_usd) AS priced_calls,
  count(*) FILTER (WHERE billing_pending) AS pending_calls,
  coalesce(sum(price_usd), 0)::DECIMAL(18, 6) AS cost_usd
FROM api_calls_enriched
WHERE include_own OR NOT is_own_call
GROUP BY month
ORDER BY month;

CREATE OR REPLACE VIEW cost_per_day AS SELECT * FROM cost_per_day_of(true);
CREATE OR REPLACE VIEW cost_per_month AS SELECT * FROM cost_per_month_of(true);
CREATE OR REPLACE VIEW cost_per_day_excluding_own AS SELECT * FROM cost_per_day_of(false);
CREATE OR REPLACE VIEW cost_per_month_excluding_own AS SELECT * FROM cost_per_month_of(false);

-- The exporter's own share per month: its calls and their cost beside the totals, so the spend with
-- and without it can be read side by side.
CREATE OR REPLACE VIEW own_calls_per_month AS
SELECT
  month,
  count(*) AS calls,
  count(*) FILTER (WHERE is_own_call) AS own_calls,
  coalesce(sum(price_usd), 0)::DECIMAL(18, 6) AS cost_usd,
  coalesce(sum(price_usd) FILTER (WHERE is_own_call), 0)::DECIMAL(18, 6) AS own_cost_usd,
  coalesce(sum(price_usd) FILTER (WHERE NOT is_own_call), 0)::DECIMAL(18, 6) AS cost_excluding_own_usd
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

-- The evidence for the unit of the undocumented `duration`: raw units per microsecond of
-- completed_at - started_at (the billing interval). About 1000 means nanoseconds, 1 microseconds,
-- 0.001 milliseconds, 0.000001 seconds. docs/duration.md reports it on the demo data.
-- Over the calls created in the last 7 days of the history: what the API sends now, which is what
-- each run checks, at a cost that does not grow with the history.
CREATE OR REPLACE VIEW duration_unit_evidence AS
WITH pairs AS (
  SELECT duration_raw::DOUBLE / (epoch_us(completed_at) - epoch_us(started_at)) AS raw_per_us
  FROM api_calls
  WHERE duration_raw > 0 AND completed_at > started_at
    AND created_at >= (SELECT max(created_at) FROM api_calls) - INTERVAL 7 DAY
),
summary AS (
  SELECT
    count(*) AS calls_compared,
    median(raw_per_us) AS median_raw_per_us,
    quantile_cont(raw_per_us, 0.05) AS p05_raw_per_us,
    quantile_cont(raw_per_us, 0.95) AS p95_raw_per_us
  FROM pairs
)
SELECT
  *,
  CASE
    WHEN median_raw_per_us BETWEEN 500 AND 2000 THEN 'ns'
    WHEN median_raw_per_us BETWEEN 0.5 AND 2 THEN 'us'
    WHEN median_raw_per_us BETWEEN 0.0005 AND 0.002 THEN 'ms'
    WHEN median_raw_per_us BETWEEN 0.0000005 AND 0.000002 THEN 's'
    ELSE 'unclear'
  END AS implied_unit
FROM summary;

-- Calls that may have started an async operation, with the operation stored for each (NULLs when
-- none is): a POST on an endpoint that starts a job (`templates`, the list in
-- src/transform/operationRow.ts), answered 2xx or not answered yet, by anyone but the exporter,
-- whose own calls are reads that start nothing. operation_candidates (below) and
-- operations_outside_window.sql pick from these. Over api_calls rather than
-- api_calls_excluding_own: with the own-call test in this WHERE, DuckDB runs it after the join's
-- filters, on the few calls they leave, instead of on every POST.
CREATE OR REPLACE MACRO operation_starting_calls(templates) AS TABLE
SELECT
  c.id,
  c.created_at,
  o.id IS NOT NULL AS operation_stored,
  o.fetch_status AS operation_fetch_status,
  o.status AS operation_status
FROM api_calls AS c
LEFT JOIN async_operations AS o USING (id)
WHERE c.method = 'POST'
  AND list_contains(templates, c.endpoint_template)
  AND (c.status_code IS NULL OR c.status_code BETWEEN 200 AND 299)
  AND NOT is_own_call(c.id, c.user_agent);

-- The operations a run fetches: of the calls above, those whose operation is not stored yet and
-- that were created at or after `window_start` (the epoch with --operations all), and those whose
-- stored operation is still queued, uploaded or in progress, however old. candidate_operations.sql
-- pages through them; count_candidate_operations.sql counts them for the progress line.
CREATE OR REPLACE MACRO operation_candidates(templates, window_start) AS TABLE
SELECT c.id, c.created_at
FROM operation_starting_calls(templates) AS c
WHERE (NOT c.operation_stored AND c.created_at >= window_start)
  OR (c.operation_fetch_status = 'found' AND c.operation_status NOT IN ('completed', 'failed'));

-- Async operations joined to the calls that started them (same id), for cost by kind of job.
CREATE OR REPLACE VIEW operations_with_cost AS
SELECT o.*, c.price_usd, c.endpoint_template, c.completed_at IS NULL AS billing_pending
FROM async_operations AS o
JOIN api_calls AS c USING (id)
WHERE o.fetch_status = 'found';

CREATE OR REPLACE VIEW cost_per_operation_type AS
SELECT
  operation_type,
  status,
  count(*) AS operations,
  count(price_usd) AS priced_operations,
  coalesce(sum(price_usd), 0)::DECIMAL(18, 6) AS cost_usd
FROM operations_with_cost
GROUP BY operation_type, status
ORDER BY cost_usd DESC, operation_type, status;

-- Jobs that failed but were billed: what finance asks Zoo about first.
CREATE OR REPLACE VIEW billed_failed_operations AS
SELECT id, operation_type, error, price_usd, created_at, completed_at, src_format, output_format
FROM operations_with_cost
WHERE status = 'failed' AND price_usd > 0
ORDER BY price_usd DESC, created_at;

-- How long jobs wait in the queue (created -> started) and run (started -> completed), per type.
CREATE OR REPLACE VIEW operation_timings AS
SELECT
  operation_type,
  count(*) AS operations,
  quantile_cont(queue_ms, 0.5) AS queue_ms_p50,
  quantile_cont(queue_ms, 0.9) AS queue_ms_p90,
  quantile_cont(queue_ms, 0.99) AS queue_ms_p99,
  quantile_cont(run_ms, 0.5) AS run_ms_p50,
  quantile_cont(run_ms, 0.9) AS run_ms_p90,
  quantile_cont(run_ms, 0.99) AS run_ms_p99
FROM operations_with_cost
WHERE status = 'completed'
GROUP BY operation_type
ORDER BY operation_type;

CREATE OR REPLACE VIEW conversion_pairs AS
SELECT
  src_format,
  output_format,
  count(*) AS conversions,
  count(*) FILTER (WHERE status = 'failed') AS failed,
  coalesce(sum(price_usd), 0)::DECIMAL(18, 6) AS cost_usd
FROM operations_with_cost
WHERE operation_type = 'file_conversion'
GROUP BY src_format, output_format
ORDER BY conversions DESC, src_format, output_format;
