-- Stage one batch of transformed rows from an NDJSON spool file, typed by DuckDB (exact DECIMAL and
-- TIMESTAMPTZ casts from strings). The file name placeholder is filled with a quoted literal
-- (fillSql); nothing else is spliced in. A batch that lists an id twice is then reduced to the newest
-- version of each id by dedupe_staged_api_calls.sql (rare: the loader runs it only when needed).
CREATE OR REPLACE TEMP TABLE staged_api_calls AS
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
  });
