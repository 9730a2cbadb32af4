-- The columns of the api_calls Parquet dataset. UUIDs are written as strings: Spark and several BI
-- tools cannot read Parquet's UUID logical type. DECIMAL(18,6) and TIMESTAMPTZ (UTC, micros) stay
-- typed. created_at stays inside the files; the partition column is only in the path.
-- The start and end placeholders (quoted literals) bound one partition, half-open, in UTC.
-- No ORDER BY: sorting holds the whole partition in memory (about 1 KB a row). Rows
-- stream in the table's order, which is the order the export loaded them: ascending created_at
-- apart from calls listed late, so row-group statistics on created_at stay tight.
SELECT
  id::VARCHAR AS id, user_id::VARCHAR AS user_id, org_id::VARCHAR AS org_id,
  method, endpoint, endpoint_template, status_code,
  created_at, started_at, completed_at, updated_at,
  duration_raw, duration_ms, minutes, seconds, price_usd, price_raw, price_flags,
  token_hash, token_last4, email, ip_address, origin, user_agent, request_query_params, stripe_invoice_item_id,
  extra::VARCHAR AS extra
FROM api_calls
WHERE created_at >= {{start}}::TIMESTAMPTZ AND created_at < {{end}}::TIMESTAMPTZ
