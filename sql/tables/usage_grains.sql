-- The charge ledger's usage grains: the calls of a UTC day grouped as their usage rows group them
-- (usage_charges), stored so that no query groups every call again. Derived from api_calls and the
-- invoices: rebuilt day by day with the billing classes, in their transactions
-- (src/load/callClasses.ts), so it always equals sql/statements/usage_grains.sql over the calls.
CREATE TABLE IF NOT EXISTS usage_grains (
  month                DATE NOT NULL,
  day                  DATE NOT NULL,
  billing_account_id   VARCHAR NOT NULL,
  billing_account_kind VARCHAR NOT NULL,
  member_id            VARCHAR NOT NULL,
  token_hash           VARCHAR,
  token_last4          VARCHAR,
  endpoint_template    VARCHAR,
  invoice_id           VARCHAR,
  invoice_number       VARCHAR,
  currency             VARCHAR NOT NULL,
  state                VARCHAR NOT NULL,
  correction           VARCHAR,
  billing_month        DATE NOT NULL,
  billing_class        VARCHAR,
  item                 VARCHAR,
  member_email         VARCHAR,
  calls                BIGINT NOT NULL,
  pending_calls        BIGINT NOT NULL,
  seconds              BIGINT NOT NULL,
  price_usd            DECIMAL(38, 6) NOT NULL
);
COMMENT ON TABLE usage_grains IS 'Derived: the calls grouped per UTC day x billing account x member x token x endpoint template x invoice, state, correction and class, as the ledger''s usage rows take them (usage_charges). Kept by each export with the billing classes. See docs/reconciliation.md.';
COMMENT ON COLUMN usage_grains.month IS 'The calls'' UTC month (its first day).';
COMMENT ON COLUMN usage_grains.day IS 'The calls'' UTC day: the grains are rebuilt a day at a time.';
COMMENT ON COLUMN usage_grains.billing_account_id IS 'The org the calls are billed through, else their user.';
COMMENT ON COLUMN usage_grains.billing_account_kind IS 'org or user.';
COMMENT ON COLUMN usage_grains.member_id IS 'The user who made the calls (api_calls.user_id).';
COMMENT ON COLUMN usage_grains.token_hash IS 'The calls'' token, as api_calls.token_hash.';
COMMENT ON COLUMN usage_grains.token_last4 IS 'The token''s last 4 characters (the greatest of the calls'', NULL under --token-column drop): its label is matched at read time, as call_token_match does.';
COMMENT ON COLUMN usage_grains.endpoint_template IS 'The calls'' route template.';
COMMENT ON COLUMN usage_grains.invoice_id IS 'The invoice the calls'' usage row belongs to (call_ledger_placement.invoice_id).';
COMMENT ON COLUMN usage_grains.invoice_number IS 'That invoice''s number.';
COMMENT ON COLUMN usage_grains.currency IS 'The usage row''s currency: the invoice''s, else USD.';
COMMENT ON COLUMN usage_grains.state IS 'As call_ledger_placement.state.';
COMMENT ON COLUMN usage_grains.correction IS 'As call_ledger_placement.correction.';
COMMENT ON COLUMN usage_grains.billing_month IS 'As call_ledger_placement.billing_month.';
COMMENT ON COLUMN usage_grains.billing_class IS 'As api_calls.billing_class; NULL for calls without a price yet.';
COMMENT ON COLUMN usage_grains.item IS 'In another currency than USD, the pool of lines the calls share: their item, or '''' for a reissue''s usage lines; NULL in USD.';
COMMENT ON COLUMN usage_grains.member_email IS 'The least email the calls carry (api_calls.email): one member''s calls carry one.';
COMMENT ON COLUMN usage_grains.calls IS 'How many calls.';
COMMENT ON COLUMN usage_grains.pending_calls IS 'Calls whose billing has not completed (completed_at NULL).';
COMMENT ON COLUMN usage_grains.seconds IS 'Seconds billed: the sum of seconds, else minutes x 60.';
COMMENT ON COLUMN usage_grains.price_usd IS 'Exact sum of the calls'' price_usd, DECIMAL(38,6).';
