-- Apply the changed rows. $run_id marks who wrote them; $units_per_ms turns the raw duration into
-- milliseconds (the unit is a setting: README, "Duration").
INSERT INTO api_calls
SELECT
  id, user_id, org_id, method, endpoint, endpoint_template, status_code,
  created_at, started_at, completed_at, updated_at,
  duration_raw, duration_raw / $units_per_ms, minutes, seconds, price_usd,
  token_hash, email, ip_address, origin, user_agent, request_query_params, stripe_invoice_item_id,
  extra, $run_id, $run_id
FROM changed_api_calls
ON CONFLICT (id) DO UPDATE SET
  user_id = excluded.user_id,
  org_id = excluded.org_id,
  method = excluded.method,
  endpoint = excluded.endpoint,
  endpoint_template = excluded.endpoint_template,
  status_code = excluded.status_code,
  created_at = excluded.created_at,
  started_at = excluded.started_at,
  completed_at = excluded.completed_at,
  updated_at = excluded.updated_at,
  duration_raw = excluded.duration_raw,
  duration_ms = excluded.duration_ms,
  minutes = excluded.minutes,
  seconds = excluded.seconds,
  price_usd = excluded.price_usd,
  token_hash = excluded.token_hash,
  email = excluded.email,
  ip_address = excluded.ip_address,
  origin = excluded.origin,
  user_agent = excluded.user_agent,
  request_query_params = excluded.request_query_params,
  stripe_invoice_item_id = excluded.stripe_invoice_item_id,
  extra = excluded.extra,
  last_changed_run_id = excluded.last_changed_run_id;
