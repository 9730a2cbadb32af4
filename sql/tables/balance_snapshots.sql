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
COMMENT ON TABLE balance_snapshots IS 'The API credits as GET /user/payment/balance (or /org/payment/balance with --scope org) reported them: one snapshot per export run, kept as a history for credit_burn and credit_runway.';
COMMENT ON COLUMN balance_snapshots.run_id IS 'The export run (runs.run_id) that took the snapshot.';
COMMENT ON COLUMN balance_snapshots.taken_at IS 'When the run read the balance, by the run''s clock (UTC).';
COMMENT ON COLUMN balance_snapshots.scope IS 'Whose balance: user (the token''s user) or org (the user''s organisation), as the export''s --scope.';
COMMENT ON COLUMN balance_snapshots.created_at IS 'API field CustomerBalance.created_at: when the balance was created (UTC).';
COMMENT ON COLUMN balance_snapshots.updated_at IS 'API field CustomerBalance.updated_at: when the balance was last updated (UTC).';
COMMENT ON COLUMN balance_snapshots.monthly_api_credits_remaining IS 'API field: monthly API credits left, a count (uint64). They refresh every month and do not carry over; spend pulls from them first.';
COMMENT ON COLUMN balance_snapshots.monthly_api_credits_remaining_monetary_value IS 'API field: the monetary value of the monthly credits left, USD DECIMAL(18,6), exact (more digits are rounded half-even, as a call''s price).';
COMMENT ON COLUMN balance_snapshots.monthly_api_credits_refresh_at IS 'API field: when the monthly credits next refresh (UTC); a past time means a refresh is due but not applied yet; NULL without a standard billing schedule.';
COMMENT ON COLUMN balance_snapshots.stable_api_credits_remaining IS 'API field: stable API credits left, a count (uint64). They never refresh; spend pulls from them once the monthly credits are gone.';
COMMENT ON COLUMN balance_snapshots.stable_api_credits_remaining_monetary_value IS 'API field: the monetary value of the stable credits left, USD DECIMAL(18,6), exact.';
COMMENT ON COLUMN balance_snapshots.total_due IS 'API field: outstanding, draft or open invoices and pending items, USD DECIMAL(18,6); NULL unless the API returns it (the export does not ask for it).';
COMMENT ON COLUMN balance_snapshots.subscription_id IS 'API field: the subscription id, or NULL.';
COMMENT ON COLUMN balance_snapshots.subscription_details IS 'API field: the subscription details (ZooProductSubscriptions) as JSON, or NULL.';
COMMENT ON COLUMN balance_snapshots.extra IS 'Fields of the balance the schema does not know yet, as a JSON object (NULL when there are none).';
COMMENT ON COLUMN balance_snapshots.money_raw IS 'The monetary values that had more than 6 decimals, as a JSON object of each field''s text as printed (their columns hold it rounded half-even to the micro-dollar); NULL when every value is stored exactly. README: Money.';
COMMENT ON COLUMN balance_snapshots.money_flags IS '''rounded'' when a monetary value of the snapshot is rounded to the micro-dollar (see money_raw); NULL otherwise.';
