-- zoo-usage warehouse schema. Applied on every open; every statement is idempotent.
-- Times are TIMESTAMPTZ (UTC instants); money is DECIMAL(18,6): exact to the micro-dollar.

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

-- Records that failed validation or loading: kept with the reason, never dropped.
CREATE TABLE IF NOT EXISTS rejects (
  run_id      VARCHAR NOT NULL,
  rejected_at TIMESTAMPTZ NOT NULL,
  record_id   VARCHAR,
  reason      VARCHAR NOT NULL,
  raw_json    VARCHAR NOT NULL
);

-- One row per export run, written at start and updated at the end.
CREATE TABLE IF NOT EXISTS runs (
  run_id             VARCHAR PRIMARY KEY,
  started_at         TIMESTAMPTZ NOT NULL,
  finished_at        TIMESTAMPTZ,
  status             VARCHAR NOT NULL,
  scan_mode          VARCHAR,
  requests           BIGINT,
  pages              BIGINT,
  records_seen       BIGINT,
  records_new        BIGINT,
  records_updated    BIGINT,
  records_rejected   BIGINT,
  partitions_written BIGINT,
  retries            BIGINT,
  message            VARCHAR
);

-- Async operations (the long-running CAD jobs), one per API call that started one; the id is the
-- call's id (spec: "the same as the API call ID"). Scalar fields of each variant are columns, the
-- rest is in `details` JSON. Output files (base64 CAD data) are never stored: only their names and
-- sizes. `fetch_status` is 'found', 'not_found' (a 404: recorded, never retried) or 'rejected' (a body
-- that could not be stored, in `rejects` with the reason: recorded, never retried).
CREATE TABLE IF NOT EXISTS async_operations (
  id                    UUID PRIMARY KEY,
  call_created_at       TIMESTAMPTZ NOT NULL,
  fetch_status          VARCHAR NOT NULL,
  operation_type        VARCHAR,
  status                VARCHAR,
  user_id               UUID,
  created_at            TIMESTAMPTZ,
  started_at            TIMESTAMPTZ,
  completed_at          TIMESTAMPTZ,
  updated_at            TIMESTAMPTZ,
  queue_ms              DOUBLE,
  run_ms                DOUBLE,
  error                 VARCHAR,
  src_format            VARCHAR,
  output_format         VARCHAR,
  output_unit           VARCHAR,
  result_value          DOUBLE,
  center_of_mass_x      DOUBLE,
  center_of_mass_y      DOUBLE,
  center_of_mass_z      DOUBLE,
  material_density      DOUBLE,
  material_density_unit VARCHAR,
  material_mass         DOUBLE,
  material_mass_unit    VARCHAR,
  model                 VARCHAR,
  model_version         VARCHAR,
  kcl_version           VARCHAR,
  feedback              VARCHAR,
  prompt                VARCHAR,
  conversation_id       UUID,
  project_name          VARCHAR,
  output_count          INTEGER,
  output_bytes          BIGINT,
  -- [{"name": ..., "bytes": ...}] for each output file.
  outputs               JSON,
  -- Non-scalar variant fields (format options, source ranges, code) and unknown fields.
  details               JSON,
  -- The whole body of an operation whose type this version does not know (outputs replaced by sizes).
  raw_unknown           JSON,
  fetched_at            TIMESTAMPTZ NOT NULL,
  fetch_run_id          VARCHAR NOT NULL
);


-- The credits the API reported, one snapshot per export run (GET /user/payment/balance or
-- /org/payment/balance, by the export's scope): kept as a history, so that the views credit_burn
-- and credit_runway can tell how fast they go. Field names are the API's (CustomerBalance); money is
-- DECIMAL(18,6) made as a call's price is, counts are the spec's uint64.
CREATE TABLE IF NOT EXISTS balance_snapshots (
  run_id                                       VARCHAR NOT NULL,
  taken_at                                     TIMESTAMPTZ NOT NULL,
  scope                                        VARCHAR NOT NULL,
  created_at                                   TIMESTAMPTZ NOT NULL,
  updated_at                                   TIMESTAMPTZ NOT NULL,
  monthly_api_credits_remaining                UBIGINT NOT NULL,
  monthly_api_credits_remaining_monetary_value DECIMAL(18, 6) NOT NULL,
  monthly_api_credits_refresh_at               TIMESTAMPTZ,
  stable_api_credits_remaining                 UBIGINT NOT NULL,
  stable_api_credits_remaining_monetary_value  DECIMAL(18, 6) NOT NULL,
  total_due                                    DECIMAL(18, 6),
  subscription_id                              VARCHAR,
  subscription_details                         JSON,
  extra                                        JSON,
  money_raw                                    JSON,
  money_flags                                  VARCHAR
);
-- An older warehouse gains the money columns on open, last in the table, where a new one has them:
-- the printed text of each amount stored rounded (money_raw) and 'rounded' (money_flags). README, "Money".
ALTER TABLE balance_snapshots ADD COLUMN IF NOT EXISTS money_raw JSON;
ALTER TABLE balance_snapshots ADD COLUMN IF NOT EXISTS money_flags VARCHAR;
