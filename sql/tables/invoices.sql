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
COMMENT ON TABLE invoices IS 'One row per invoice of the exported account (GET /user/payment/invoices, or /org/payment/invoices with --scope org), replaced on every run as its status moves (draft, open, paid). Money is exact DECIMAL(18,6) USD read from the JSON text; absent fields take the spec''s defaults. See docs/invoices-and-credits.md.';
COMMENT ON COLUMN invoices.id IS 'API: Invoice.id. The invoice''s unique identifier (Stripe in_...); an invoice without one is rejected.';
COMMENT ON COLUMN invoices.number IS 'API: Invoice.number. The identifying string printed on the invoice and its emails.';
COMMENT ON COLUMN invoices.status IS 'API: Invoice.status. draft, open, paid, uncollectible, void or unknown; NULL when the API gave none.';
COMMENT ON COLUMN invoices.created_at IS 'API: Invoice.created_at. When the invoice was made (UTC).';
COMMENT ON COLUMN invoices.currency IS 'API: Invoice.currency. Three-letter ISO currency code as sent (spec default USD).';
COMMENT ON COLUMN invoices.amount_due IS 'API: Invoice.amount_due. Final amount due for the invoice (may be 0 after credits), exact DECIMAL(18,6); 0 when absent (spec default).';
COMMENT ON COLUMN invoices.amount_paid IS 'API: Invoice.amount_paid. The amount paid, exact DECIMAL(18,6); 0 when absent.';
COMMENT ON COLUMN invoices.amount_refunded IS 'API: Invoice.amount_refunded. Total refunded across the invoice''s captured charges, exact DECIMAL(18,6); 0 when absent.';
COMMENT ON COLUMN invoices.amount_remaining IS 'API: Invoice.amount_remaining. The amount still due, exact DECIMAL(18,6); 0 when absent.';
COMMENT ON COLUMN invoices.subtotal IS 'API: Invoice.subtotal. Total of the lines before invoice-level discounts and tax, exact DECIMAL(18,6); 0 when absent.';
COMMENT ON COLUMN invoices.tax IS 'API: Invoice.tax. The tax on the invoice, exact DECIMAL(18,6); 0 when absent.';
COMMENT ON COLUMN invoices.total IS 'API: Invoice.total. Total after discounts and taxes, exact DECIMAL(18,6); 0 when absent.';
COMMENT ON COLUMN invoices.attempt_count IS 'API: Invoice.attempt_count. Payment attempts made on the retry schedule; 0 when absent.';
COMMENT ON COLUMN invoices.attempted IS 'API: Invoice.attempted. Whether a payment attempt has been made; false when absent.';
COMMENT ON COLUMN invoices.paid IS 'API: Invoice.paid. Whether payment was collected; false when absent.';
COMMENT ON COLUMN invoices.billing_reason IS 'API: Invoice.billing_reason. Why the invoice was made (subscription_cycle, manual, ...); NULL when not given.';
COMMENT ON COLUMN invoices.collection_method IS 'API: Invoice.collection_method. How Stripe collects it; NULL when not given.';
COMMENT ON COLUMN invoices.customer_email IS 'API: Invoice.customer_email. The billed customer''s email: kept, hashed (HMAC-SHA256) or NULL per --email-column, like api_calls.email. Personal data.';
COMMENT ON COLUMN invoices.customer_id IS 'API: Invoice.customer_id. The customer''s id in the payments service (Stripe cus_...).';
COMMENT ON COLUMN invoices.default_payment_method IS 'API: Invoice.default_payment_method. The payment method''s id; NULL when not given.';
COMMENT ON COLUMN invoices.description IS 'API: Invoice.description. The invoice''s description; NULL when not given.';
COMMENT ON COLUMN invoices.discounts IS 'API: Invoice.discounts. The Discount objects applied, as JSON with numbers as sent; NULL when not given.';
COMMENT ON COLUMN invoices.metadata IS 'API: Invoice.metadata. Key-value strings, as a JSON object ({} when absent).';
COMMENT ON COLUMN invoices.pdf IS 'API: Invoice.pdf. Link to the invoice''s PDF; NULL when not given.';
COMMENT ON COLUMN invoices.receipt_number IS 'API: Invoice.receipt_number. The transaction number on receipts; NULL when not given.';
COMMENT ON COLUMN invoices.refund_status IS 'API: Invoice.refund_status. partially_refunded or refunded once refunds have posted; NULL otherwise.';
COMMENT ON COLUMN invoices.statement_descriptor IS 'API: Invoice.statement_descriptor. The text on the card statement; NULL when not given.';
COMMENT ON COLUMN invoices.subscription_id IS 'API: Invoice.subscription_id. The subscription the invoice belongs to, if any.';
COMMENT ON COLUMN invoices.url IS 'API: Invoice.url. The hosted invoice page; NULL when not given.';
COMMENT ON COLUMN invoices.extra IS 'Fields of the API''s Invoice this version does not know, as a JSON object with numbers as sent; NULL when there are none.';
COMMENT ON COLUMN invoices.first_seen_run_id IS 'Exporter bookkeeping: the run (runs.run_id) that first stored this invoice.';
COMMENT ON COLUMN invoices.last_seen_run_id IS 'Exporter bookkeeping: the run (runs.run_id) that last listed and stored this invoice.';
COMMENT ON COLUMN invoices.money_raw IS 'The invoice''s money fields that had more than 6 decimals, as a JSON object of each field''s text as printed (their columns hold it rounded half-even to the micro-dollar); NULL when every amount is stored exactly. README: Money.';
COMMENT ON COLUMN invoices.money_flags IS '''rounded'' when an amount of the invoice is rounded to the micro-dollar (see money_raw); NULL otherwise.';
