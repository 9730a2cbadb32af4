-- Invoices of the account the warehouse exports (GET /user/payment/invoices or /org/payment/invoices),
-- one row per invoice id, replaced on every run (an invoice moves from draft to open to paid).
-- Money is DECIMAL(18,6) like api_calls.price_usd, read from the JSON text without a double between;
-- an amount with more decimals is rounded half-even, its text as printed kept in money_raw.
CREATE TABLE IF NOT EXISTS invoices (
  id                     VARCHAR NOT NULL,
  number                 VARCHAR,
  status                 VARCHAR,
  created_at             TIMESTAMPTZ NOT NULL,
  currency               VARCHAR NOT NULL,
  amount_due             DECIMAL(18, 6) NOT NULL,
  amount_paid            DECIMAL(18, 6) NOT NULL,
  amount_refunded        DECIMAL(18, 6) NOT NULL,
  amount_remaining       DECIMAL(18, 6) NOT NULL,
  subtotal               DECIMAL(18, 6) NOT NULL,
  tax                    DECIMAL(18, 6) NOT NULL,
  total                  DECIMAL(18, 6) NOT NULL,
  attempt_count          BIGINT NOT NULL,
  attempted              BOOLEAN NOT NULL,
  paid                   BOOLEAN NOT NULL,
  billing_reason         VARCHAR,
  collection_method      VARCHAR,
  customer_email         VARCHAR,
  customer_id            VARCHAR,
  default_payment_method VARCHAR,
  description            VARCHAR,
  discounts              JSON,
  metadata               JSON NOT NULL,
  pdf                    VARCHAR,
  receipt_number         VARCHAR,
  refund_status          VARCHAR,
  statement_descriptor   VARCHAR,
  subscription_id        VARCHAR,
  url                    VARCHAR,
  extra                  JSON,
  first_seen_run_id      VARCHAR NOT NULL,
  last_seen_run_id       VARCHAR NOT NULL,
  money_raw              JSON,
  money_flags            VARCHAR
);
-- An older warehouse gains the money columns on open, last in the table, where a new one has them:
-- the printed text of each amount stored rounded (money_raw) and 'rounded' (money_flags). README, "Money".
ALTER TABLE invoices ADD COLUMN IF NOT EXISTS money_raw JSON;
ALTER TABLE invoices ADD COLUMN IF NOT EXISTS money_flags VARCHAR;

-- The lines of each invoice, in the invoice's order; replaced with their invoice on every run.
CREATE TABLE IF NOT EXISTS invoice_lines (
  invoice_id       VARCHAR NOT NULL,
  line_number      INTEGER NOT NULL,
  id               VARCHAR,
  amount           DECIMAL(18, 6) NOT NULL,
  currency         VARCHAR NOT NULL,
  description      VARCHAR,
  invoice_item     VARCHAR,
  metadata         JSON NOT NULL,
  extra            JSON,
  last_seen_run_id VARCHAR NOT NULL,
  money_raw        JSON,
  money_flags      VARCHAR
);
ALTER TABLE invoice_lines ADD COLUMN IF NOT EXISTS money_raw JSON;
ALTER TABLE invoice_lines ADD COLUMN IF NOT EXISTS money_flags VARCHAR;
