-- The rows of a batch's transformed records (the row path), from their NDJSON spool file, typed by
-- DuckDB (exact DECIMAL and TIMESTAMPTZ casts from strings). The file name placeholder is filled with
-- a quoted literal (fillSql); nothing else is spliced in. maximum_object_size is twice the largest row
-- the validator lets through (src/transform/limits.ts).
SELECT *
FROM read_json({{file}},
  format = 'newline_delimited',
  columns = {
    id: 'UUID', user_id: 'UUID', org_id: 'UUID', method: 'VARCHAR', endpoint: 'VARCHAR',
    endpoint_template: 'VARCHAR', status_code: 'INTEGER', created_at: 'TIMESTAMPTZ',
    started_at: 'TIMESTAMPTZ', completed_at: 'TIMESTAMPTZ', updated_at: 'TIMESTAMPTZ',
    duration_raw: 'BIGINT', minutes: 'INTEGER', seconds: 'INTEGER', price_usd: 'DECIMAL(18,6)',
    price_raw: 'VARCHAR', price_flags: 'VARCHAR',
    token_hash: 'VARCHAR', token_last4: 'VARCHAR', email: 'VARCHAR', ip_address: 'VARCHAR', origin: 'VARCHAR',
    user_agent: 'VARCHAR', request_query_params: 'VARCHAR', stripe_invoice_item_id: 'VARCHAR',
    extra: 'JSON'
  },
  maximum_object_size = 33554432)
