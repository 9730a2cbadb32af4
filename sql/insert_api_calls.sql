-- Insert the staged rows whose id is new. A plain INSERT: in DuckDB an INSERT ... ON CONFLICT DO
-- UPDATE costs about twice as much per row, and a cold run is all new ids. $run_id marks who wrote
-- them; $units_per_ms turns the raw duration into milliseconds (README, "Duration").
INSERT INTO api_calls
SELECT
  id, user_id, org_id, method, endpoint, endpoint_template, status_code,
  created_at, started_at, completed_at, updated_at,
  duration_raw, duration_raw / $units_per_ms, minutes, seconds, price_usd,
  token_hash, email, ip_address, origin, user_agent, request_query_params, stripe_invoice_item_id,
  extra, $run_id, $run_id
FROM staged_api_calls
WHERE id IN (SELECT id FROM changed_api_calls WHERE is_new);
