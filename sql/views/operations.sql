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
COMMENT ON MACRO TABLE operation_starting_calls IS 'operation_starting_calls(templates): calls that may have started an async operation (a 2xx or unanswered POST on one of the templates, not the exporter''s own), with the operation stored for each.';

-- The operations a run fetches: of the calls above, those whose operation is not stored yet and
-- that were created at or after `window_start` (the epoch with --operations all), and those whose
-- stored operation is still queued, uploaded or in progress, however old. candidate_operations.sql
-- pages through them; count_candidate_operations.sql counts them for the progress line.
-- Two parts, each bounded in created_at so that DuckDB reads only the row groups of api_calls that
-- can hold them (the table is in created_at order): the window, and the calls no older than the
-- oldest unfinished operation's (call_created_at is its call's created_at). One condition over the
-- whole table read all of it for every chunk a run pages through.
CREATE OR REPLACE MACRO operation_candidates(templates, window_start) AS TABLE
SELECT c.id, c.created_at
FROM operation_starting_calls(templates) AS c
WHERE NOT c.operation_stored AND c.created_at >= window_start
UNION ALL
SELECT c.id, c.created_at
FROM operation_starting_calls(templates) AS c
WHERE c.operation_fetch_status = 'found'
  AND c.operation_status NOT IN ('completed', 'failed')
  AND c.created_at >= (
    SELECT min(call_created_at) FROM async_operations
    WHERE fetch_status = 'found' AND status NOT IN ('completed', 'failed')
  );
COMMENT ON MACRO TABLE operation_candidates IS 'operation_candidates(templates, window_start): the operations an export run fetches: not stored yet and created at or after window_start, or stored and not finished.';

-- Async operations joined to the calls that started them (same id), for cost by kind of job.
CREATE OR REPLACE VIEW operations_with_cost AS
SELECT o.*, c.price_usd, c.endpoint_template, c.completed_at IS NULL AS billing_pending
FROM async_operations AS o
JOIN api_calls AS c USING (id)
WHERE o.fetch_status = 'found';
COMMENT ON VIEW operations_with_cost IS 'Async operations found by the API, joined to the API calls that started them (same id) for their price.';
COMMENT ON COLUMN operations_with_cost.price_usd IS 'price_usd of the API call that started the operation, USD DECIMAL(18,6).';
COMMENT ON COLUMN operations_with_cost.endpoint_template IS 'endpoint_template of the API call that started the operation.';
COMMENT ON COLUMN operations_with_cost.billing_pending IS 'True while the billing of the starting call has not completed: the price may still change.';

CREATE OR REPLACE VIEW cost_per_operation_type AS
SELECT
  operation_type,
  status,
  count(*) AS operations,
  count(price_usd) AS priced_operations,
  coalesce(sum(price_usd), 0)::DECIMAL(38, 6) AS cost_usd
FROM operations_with_cost
GROUP BY operation_type, status
ORDER BY cost_usd DESC, operation_type, status;
COMMENT ON VIEW cost_per_operation_type IS 'Operations and their cost per type and status.';
COMMENT ON COLUMN cost_per_operation_type.operations IS 'Operations of that type and status.';
COMMENT ON COLUMN cost_per_operation_type.priced_operations IS 'Operations whose starting call has a price.';
COMMENT ON COLUMN cost_per_operation_type.cost_usd IS 'The exact sum of the starting calls'' price_usd in USD, DECIMAL(38,6).';

-- Jobs that failed but were billed: what finance asks Zoo about first.
CREATE OR REPLACE VIEW billed_failed_operations AS
SELECT id, operation_type, error, price_usd, created_at, completed_at, src_format, output_format
FROM operations_with_cost
WHERE status = 'failed' AND price_usd > 0
ORDER BY price_usd DESC, created_at;
COMMENT ON VIEW billed_failed_operations IS 'Operations that failed but were billed (price_usd > 0), most expensive first.';

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
COMMENT ON VIEW operation_timings IS 'Queue and run times of completed operations per type: 50th, 90th and 99th percentiles in milliseconds.';
COMMENT ON COLUMN operation_timings.operations IS 'Completed operations of that type.';
COMMENT ON COLUMN operation_timings.queue_ms_p50 IS 'Median queue_ms (created to started), milliseconds.';
COMMENT ON COLUMN operation_timings.queue_ms_p90 IS '90th percentile of queue_ms, milliseconds.';
COMMENT ON COLUMN operation_timings.queue_ms_p99 IS '99th percentile of queue_ms, milliseconds.';
COMMENT ON COLUMN operation_timings.run_ms_p50 IS 'Median run_ms (started to completed), milliseconds.';
COMMENT ON COLUMN operation_timings.run_ms_p90 IS '90th percentile of run_ms, milliseconds.';
COMMENT ON COLUMN operation_timings.run_ms_p99 IS '99th percentile of run_ms, milliseconds.';

CREATE OR REPLACE VIEW conversion_pairs AS
SELECT
  src_format,
  output_format,
  count(*) AS conversions,
  count(*) FILTER (WHERE status = 'failed') AS failed,
  coalesce(sum(price_usd), 0)::DECIMAL(38, 6) AS cost_usd
FROM operations_with_cost
WHERE operation_type = 'file_conversion'
GROUP BY src_format, output_format
ORDER BY conversions DESC, src_format, output_format;
COMMENT ON VIEW conversion_pairs IS 'File conversions per source and output format: how many, how many failed, and their cost.';
COMMENT ON COLUMN conversion_pairs.conversions IS 'File conversions between the two formats.';
COMMENT ON COLUMN conversion_pairs.failed IS 'Those whose status is failed.';
COMMENT ON COLUMN conversion_pairs.cost_usd IS 'The exact sum of the starting calls'' price_usd in USD, DECIMAL(38,6).';
