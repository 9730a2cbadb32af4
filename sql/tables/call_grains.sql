-- The calls' rollup: the calls of a UTC day grouped by what the report and the usage and
-- reconciliation views cut them by (endpoint template, the exporter's own or not, invoice item,
-- billing class and reason), stored so that none of them reads every call again. Derived from
-- api_calls, their stored classes and internal.own_calls: rebuilt day by day with the billing
-- classes, in their transaction (src/load/callClasses.ts), so it always equals
-- sql/statements/call_grains.sql over the calls.
CREATE TABLE IF NOT EXISTS call_grains (
  month                DATE NOT NULL,
  day                  DATE NOT NULL,
  endpoint_template    VARCHAR,
  is_own_call          BOOLEAN NOT NULL,
  invoice_item         VARCHAR,
  billing_class        VARCHAR,
  billing_reason       VARCHAR,
  calls                BIGINT NOT NULL,
  priced_calls         BIGINT NOT NULL,
  nonzero_priced_calls BIGINT NOT NULL,
  pending_calls        BIGINT NOT NULL,
  failed_calls         BIGINT NOT NULL,
  price_usd            DECIMAL(38, 6) NOT NULL,
  pending_price_usd    DECIMAL(38, 6) NOT NULL,
  max_price_usd        DECIMAL(18, 6),
  first_call_at        TIMESTAMPTZ NOT NULL,
  last_call_at         TIMESTAMPTZ NOT NULL,
  first_pending_at     TIMESTAMPTZ
);
COMMENT ON TABLE call_grains IS 'Derived: the calls per UTC day x endpoint template x own or not x invoice item x billing class and reason, with their counts, cost and first and last call; what cost_per_day, cost_per_day_endpoint, invoice_item_calls, monthly_reconciliation and the report read instead of every call. Kept by each export with the billing classes. See docs/warehouse.md.';
COMMENT ON COLUMN call_grains.month IS 'The calls'' UTC month (its first day).';
COMMENT ON COLUMN call_grains.day IS 'The calls'' UTC day: the grains are rebuilt a day at a time.';
COMMENT ON COLUMN call_grains.endpoint_template IS 'The calls'' route template.';
COMMENT ON COLUMN call_grains.is_own_call IS 'Whether the calls are the exporter''s own (is_own_call).';
COMMENT ON COLUMN call_grains.invoice_item IS 'The invoice item the calls name (api_calls.stripe_invoice_item_id); NULL when they name none or ''''.';
COMMENT ON COLUMN call_grains.billing_class IS 'As api_calls.billing_class; NULL for calls without a price.';
COMMENT ON COLUMN call_grains.billing_reason IS 'As api_calls.billing_reason.';
COMMENT ON COLUMN call_grains.calls IS 'How many calls.';
COMMENT ON COLUMN call_grains.priced_calls IS 'Calls with a price (price_usd not NULL).';
COMMENT ON COLUMN call_grains.nonzero_priced_calls IS 'Calls with a price other than 0.';
COMMENT ON COLUMN call_grains.pending_calls IS 'Calls whose billing has not completed (completed_at NULL).';
COMMENT ON COLUMN call_grains.failed_calls IS 'Calls with status_code >= 400.';
COMMENT ON COLUMN call_grains.price_usd IS 'Exact sum of the calls'' price_usd (0 when none has one).';
COMMENT ON COLUMN call_grains.pending_price_usd IS 'Exact sum of the price_usd of the calls whose billing has not completed.';
COMMENT ON COLUMN call_grains.max_price_usd IS 'The highest price_usd of the calls; NULL when none has one.';
COMMENT ON COLUMN call_grains.first_call_at IS 'The first call''s created_at.';
COMMENT ON COLUMN call_grains.last_call_at IS 'The last call''s created_at.';
COMMENT ON COLUMN call_grains.first_pending_at IS 'The created_at of the first call whose billing has not completed; NULL when none.';
