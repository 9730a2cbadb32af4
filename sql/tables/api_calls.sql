-- One row per call id: the loader merges on id (src/load/apiCallLoader.ts). No PRIMARY KEY: its
-- index slows every insert and holds memory that grows with the history; databases created with
-- one keep it, which still works.
CREATE TABLE IF NOT EXISTS api_calls (
  id                     UUID NOT NULL,
  user_id                UUID NOT NULL,
  org_id                 UUID,
  method                 VARCHAR NOT NULL,
  endpoint               VARCHAR,
  endpoint_template      VARCHAR,
  status_code            INTEGER,
  created_at             TIMESTAMPTZ NOT NULL,
  started_at             TIMESTAMPTZ,
  completed_at           TIMESTAMPTZ,
  updated_at             TIMESTAMPTZ NOT NULL,
  duration_raw           BIGINT,
  duration_ms            DOUBLE,
  minutes                INTEGER,
  seconds                INTEGER,
  price_usd              DECIMAL(18, 6),
  token_hash             VARCHAR,
  email                  VARCHAR,
  ip_address             VARCHAR,
  origin                 VARCHAR,
  user_agent             VARCHAR,
  request_query_params   VARCHAR,
  stripe_invoice_item_id VARCHAR,
  -- Fields the schema does not know yet, as a JSON object (NULL when there are none).
  extra                  JSON,
  first_seen_run_id      VARCHAR NOT NULL,
  last_changed_run_id    VARCHAR NOT NULL
);
-- Columns added after the table's first version: added here, not above, so that a new database and
-- an upgraded one have the same columns in the same order.
-- The price as the API printed it, when price_usd is that value rounded half-even to the micro-dollar
-- (NULL when price_usd is exact); and what is unusual about the price: 'rounded', 'negative' or
-- 'negative,rounded' (NULL for an ordinary price). See docs/money.md.
ALTER TABLE api_calls ADD COLUMN IF NOT EXISTS price_raw VARCHAR;
ALTER TABLE api_calls ADD COLUMN IF NOT EXISTS price_flags VARCHAR;
-- The call token's last 4 characters: the API shows each token obfuscated to them, so they match a
-- call to its token's id and label (call_token_match). NULL with --token-column drop.
ALTER TABLE api_calls ADD COLUMN IF NOT EXISTS token_last4 VARCHAR;
-- The UTC day and month of created_at, stored by the loader: cutting a TIMESTAMPTZ into UTC days
-- goes through the time-zone calendar row by row, and every view groups by them. A database made before these columns gets them filled here, once (the schema is applied
-- again only when it changes).
ALTER TABLE api_calls ADD COLUMN IF NOT EXISTS created_day DATE;
ALTER TABLE api_calls ADD COLUMN IF NOT EXISTS created_month DATE;
-- A priced call's billing class, its reason and its invoice (sql/statements/classify_calls.sql),
-- stored by the loader once the run's calls and invoices are in (src/load/callClasses.ts): every
-- reconciliation and ledger view reads them, and classifying every call at each query cost most of
-- their time. NULL while the call has no price.
ALTER TABLE api_calls ADD COLUMN IF NOT EXISTS billing_class VARCHAR;
ALTER TABLE api_calls ADD COLUMN IF NOT EXISTS billing_reason VARCHAR;
ALTER TABLE api_calls ADD COLUMN IF NOT EXISTS billing_invoice_id VARCHAR;
-- The back-fill after every ALTER: DuckDB refuses to alter a table with an index (an older
-- database's primary key) after an UPDATE in the same transaction.
UPDATE api_calls SET created_day = utc_day(created_at), created_month = utc_month(created_at)
WHERE created_day IS NULL OR created_month IS NULL;
COMMENT ON TABLE api_calls IS 'One row per API call of the token''s user (GET /user/api-calls), the newest version of each (highest updated_at). See docs/warehouse.md.';
COMMENT ON COLUMN api_calls.id IS 'API: id. The unique identifier of the API call; also the id of the async operation it started, if any.';
COMMENT ON COLUMN api_calls.user_id IS 'API: user_id. The ID of the user that made the API call (the token''s user).';
COMMENT ON COLUMN api_calls.org_id IS 'API: org_id. The organization the call is billable through, if any; NULL otherwise.';
COMMENT ON COLUMN api_calls.method IS 'API: method. The HTTP method requested (GET, POST, ...).';
COMMENT ON COLUMN api_calls.endpoint IS 'API: endpoint. The concrete path requested, ids included (/file/conversion/step/obj).';
COMMENT ON COLUMN api_calls.endpoint_template IS 'Derived from endpoint: the route template of the spec it matches (/file/conversion/{src_format}/{output_format}); unmatched paths get {id} for uuids and {n} for numbers. Group cost by this.';
COMMENT ON COLUMN api_calls.status_code IS 'API: status_code. The HTTP status code the API returned to the call; NULL if not recorded.';
COMMENT ON COLUMN api_calls.created_at IS 'API: created_at. When the API call was created (UTC). Days and months of the views and the Parquet partitions are cut from this.';
COMMENT ON COLUMN api_calls.started_at IS 'API: started_at. When the call started billing (UTC); NULL if it has not.';
COMMENT ON COLUMN api_calls.completed_at IS 'API: completed_at. When the call completed billing (UTC); NULL while billing is pending, and its price may still change.';
COMMENT ON COLUMN api_calls.updated_at IS 'API: updated_at. When the API last updated the call (UTC); moves when billing completes. The loader keeps the version with the highest.';
COMMENT ON COLUMN api_calls.duration_raw IS 'API: duration, as sent (int64). The spec gives no unit; duration_ms converts it with --duration-unit. See docs/duration.md.';
COMMENT ON COLUMN api_calls.duration_ms IS 'Derived: duration_raw in milliseconds, converted with the unit stored in internal.export_state.duration_unit (default ns). See docs/duration.md.';
COMMENT ON COLUMN api_calls.minutes IS 'API: minutes. The number of minutes the call was billed for; NULL until billed or when not billed by time.';
COMMENT ON COLUMN api_calls.seconds IS 'API: seconds. The number of seconds the call was billed for; NULL until billed or when not billed by time.';
COMMENT ON COLUMN api_calls.price_usd IS 'API: price. The price of the call in USD, exact DECIMAL(18,6); a price with more than 6 decimals is rounded half-even (see price_raw). Negative for a refund or credit. NULL when the API gave none. See docs/money.md.';
COMMENT ON COLUMN api_calls.token_hash IS 'API: token (the UUID of the API token that made the call), as HMAC-SHA256 under the export''s secret key: stable across runs, not reversible. NULL with --token-column drop.';
COMMENT ON COLUMN api_calls.email IS 'API: email. The user''s email address: kept, hashed (HMAC-SHA256) or NULL per --email-column. Personal data.';
COMMENT ON COLUMN api_calls.ip_address IS 'API: ip_address. The IP address the call came from: kept, hashed (HMAC-SHA256) or NULL per --ip-address-column. Personal data.';
COMMENT ON COLUMN api_calls.origin IS 'API: origin. The origin of the API call, as the API reports it (the spec says no more).';
COMMENT ON COLUMN api_calls.user_agent IS 'API: user_agent. The User-Agent of the request; zoo-usage/... marks the exporter''s own calls.';
COMMENT ON COLUMN api_calls.request_query_params IS 'API: request_query_params. The query string sent with the request.';
COMMENT ON COLUMN api_calls.stripe_invoice_item_id IS 'API: stripe_invoice_item_id. The Stripe invoice item the call is billed on, if billable.';
COMMENT ON COLUMN api_calls.extra IS 'Fields of the API record this version does not know, as a JSON object, so an API change loses nothing; NULL when there are none.';
COMMENT ON COLUMN api_calls.first_seen_run_id IS 'Exporter bookkeeping: the run (runs.run_id) that first stored this call.';
COMMENT ON COLUMN api_calls.last_changed_run_id IS 'Exporter bookkeeping: the run (runs.run_id) that last changed this row.';
COMMENT ON COLUMN api_calls.price_raw IS 'API: price, as the API printed it, when price_usd is that value rounded half-even to the micro-dollar; NULL when price_usd is exact. See docs/money.md.';
COMMENT ON COLUMN api_calls.token_last4 IS 'API: the last 4 characters of token, all GET /user/api-tokens shows of a token (it obfuscates the rest): matches the call to its token''s id and label (call_token_match). Not the secret. NULL with --token-column drop, and in rows stored before this column existed until they are read again.';
COMMENT ON COLUMN api_calls.created_day IS 'Derived from created_at: its UTC day. Days of the views are this column.';
COMMENT ON COLUMN api_calls.created_month IS 'Derived from created_at: its UTC month, as the DATE of its first day (2026-10-01). Months of the views are this column.';
COMMENT ON COLUMN api_calls.billing_class IS 'Derived from the call and the invoices: invoiced, not_billed, awaiting_invoice or unexplained (call_billing_class.billing_class); NULL while the call has no price. See docs/reconciliation.md.';
COMMENT ON COLUMN api_calls.billing_reason IS 'Derived: why the call is in its billing class (call_billing_class.reason); NULL while the call has no price.';
COMMENT ON COLUMN api_calls.billing_invoice_id IS 'Derived: the invoice whose line names the call''s item, its reissue, or the invoice due to carry it (call_billing_class.invoice_id); NULL when none does.';
COMMENT ON COLUMN api_calls.price_flags IS 'What is unusual about the price: rounded, negative or negative,rounded; NULL for an ordinary price. See docs/money.md.';
