-- The rows of a batch's transformed records (the row path), from their NDJSON spool file, typed by
-- DuckDB (exact DECIMAL and TIMESTAMPTZ casts from strings). The file name placeholder is filled with
-- a quoted literal (fillSql); nothing else is spliced in.
SELECT *
FROM read_json({{file}},
  format = 'newline_delimited',
  columns = {
    id: 'UUID', user_id: 'UUID', org_id: 'UUID', method: 'VARCHAR', endpoint: 'VARCHAR',
    endpoint_template: 'VARCHAR', status_code: 'INTEGER', created_at: 'TIMESTAMPTZ',
    started_at: 'TIMESTAMPTZ', completed_at: 'TIMESTAMPTZ', updated_at: 'TIMESTAMPTZ',
    duration_raw: 'BIGINT', minutes: 'INTEGER', seconds: 'INTEGER', price_usd: 'DECIMAL(18,6)',
    token_hash: 'VARCHAR', email: 'VARCHAR', ip_address: 'VARCHAR', origin: 'VARCHAR',
    user_agent: 'VARCHAR', request_query_params: 'VARCHAR', stripe_invoice_item_id: 'VARCHAR',
    extra: 'JSON'
  })
