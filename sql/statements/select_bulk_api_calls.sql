-- The rows of a bulk-loaded batch (src/transform/bulkLoadable.ts): raw GET /user/api-calls items as
-- the server sent them, one JSON array, typed by DuckDB, with the values JavaScript derived joined in
-- from staged_derived (endpoint templates; hashes where the privacy policy says "hash"). Columns as
-- in select_row_api_calls.sql. Placeholders, each a quoted literal: the file, and the privacy policy
-- ('keep', 'hash' or 'drop') of token, email and ip_address. A policy is a constant, so DuckDB folds
-- its CASE when it plans the query; staged_derived holds hashes only for the fields the policy hashes,
-- so the other joins find nothing to join.
-- A record with a duplicate key makes read_json fail (JavaScript keeps the last value): the loader
-- then loads the batch through the row path instead. Only prices stored as they are (no rounding, not
-- negative) come this way, so price_raw and price_flags are NULL. maximum_object_size as in
-- select_row_api_calls.sql.
SELECT
  r.id, r.user_id, r.org_id, r.method, r.endpoint, e.value AS endpoint_template, r.status_code,
  r.created_at, r.started_at, r.completed_at, r.updated_at,
  r.duration AS duration_raw, r.minutes, r.seconds, r.price AS price_usd,
  NULL::VARCHAR AS price_raw, NULL::VARCHAR AS price_flags,
  CASE {{token_policy}} WHEN 'keep' THEN r.token WHEN 'hash' THEN t.value END AS token_hash,
  CASE {{token_policy}} WHEN 'drop' THEN NULL ELSE right(r.token, 4) END AS token_last4,
  CASE {{email_policy}} WHEN 'keep' THEN r.email WHEN 'hash' THEN m.value END AS email,
  CASE {{ip_address_policy}} WHEN 'keep' THEN r.ip_address WHEN 'hash' THEN i.value END AS ip_address,
  r.origin, r.user_agent, r.request_query_params, r.stripe_invoice_item_id, NULL::JSON AS extra
FROM read_json({{file}},
  format = 'array',
  columns = {
    id: 'UUID', user_id: 'UUID', org_id: 'UUID', method: 'VARCHAR', endpoint: 'VARCHAR',
    status_code: 'INTEGER', created_at: 'TIMESTAMPTZ', started_at: 'TIMESTAMPTZ',
    completed_at: 'TIMESTAMPTZ', updated_at: 'TIMESTAMPTZ', duration: 'BIGINT', minutes: 'INTEGER',
    seconds: 'INTEGER', price: 'DECIMAL(18,6)', token: 'VARCHAR', email: 'VARCHAR',
    ip_address: 'VARCHAR', origin: 'VARCHAR', user_agent: 'VARCHAR', request_query_params: 'VARCHAR',
    stripe_invoice_item_id: 'VARCHAR'
  },
  maximum_object_size = 33554432) AS r
LEFT JOIN staged_derived AS e ON e.kind = 'endpoint' AND e.raw = r.endpoint
LEFT JOIN staged_derived AS t ON t.kind = 'token' AND t.raw = r.token
LEFT JOIN staged_derived AS m ON m.kind = 'email' AND m.raw = r.email
LEFT JOIN staged_derived AS i ON i.kind = 'ip_address' AND i.raw = r.ip_address
