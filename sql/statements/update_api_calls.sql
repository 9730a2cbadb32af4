-- Overwrite the stored rows that the staged batch has a newer version of (the newest updated_at
-- wins). Every column but id and first_seen_run_id; $run_id becomes last_changed_run_id.
UPDATE api_calls SET
  user_id = s.user_id,
  org_id = s.org_id,
  method = s.method,
  endpoint = s.endpoint,
  endpoint_template = s.endpoint_template,
  status_code = s.status_code,
  created_at = s.created_at,
  created_day = utc_day(s.created_at),
  created_month = utc_month(s.created_at),
  started_at = s.started_at,
  completed_at = s.completed_at,
  updated_at = s.updated_at,
  duration_raw = s.duration_raw,
  duration_ms = s.duration_raw / $units_per_ms,
  minutes = s.minutes,
  seconds = s.seconds,
  price_usd = s.price_usd,
  price_raw = s.price_raw,
  price_flags = s.price_flags,
  token_hash = s.token_hash,
  token_last4 = s.token_last4,
  email = s.email,
  ip_address = s.ip_address,
  origin = s.origin,
  user_agent = s.user_agent,
  request_query_params = s.request_query_params,
  stripe_invoice_item_id = s.stripe_invoice_item_id,
  extra = s.extra,
  last_changed_run_id = $run_id
FROM staged_api_calls AS s
WHERE api_calls.id = s.id AND s.id IN (SELECT id FROM changed_api_calls WHERE NOT is_new);
