-- Insert new rows from the temp view new_api_calls, which the loader defines per batch: the staged
-- rows whose id is new (changed_api_calls), or, when the loader knows the whole batch is new, the
-- batch's spool files read directly (no staging table).
-- A plain INSERT: in DuckDB an INSERT ... ON CONFLICT DO UPDATE costs about twice as much per row.
-- $run_id marks who wrote them; $units_per_ms turns the raw duration into milliseconds (README,
-- "Duration").
INSERT INTO api_calls (
  id, user_id, org_id, method, endpoint, endpoint_template, status_code,
  created_at, started_at, completed_at, updated_at,
  duration_raw, duration_ms, minutes, seconds, price_usd, price_raw, price_flags,
  token_hash, email, ip_address, origin, user_agent, request_query_params, stripe_invoice_item_id,
  extra, first_seen_run_id, last_changed_run_id
)
SELECT
  id, user_id, org_id, method, endpoint, endpoint_template, status_code,
  created_at, started_at, completed_at, updated_at,
  duration_raw, duration_raw / $units_per_ms, minutes, seconds, price_usd, price_raw, price_flags,
  token_hash, email, ip_address, origin, user_agent, request_query_params, stripe_invoice_item_id,
  extra, $run_id, $run_id
FROM new_api_calls;
