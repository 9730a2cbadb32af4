-- One balance snapshot (src/transform/balanceRow.ts makes the row; every value is bound as text and
-- cast here, so money never passes through a binary float). Returns the remaining monetary value:
-- the sum of two DECIMAL(18,6) values is summed as DECIMAL(38,6), which no two stored values overflow.
INSERT INTO balance_snapshots (
  run_id, taken_at, scope, created_at, updated_at,
  monthly_api_credits_remaining, monthly_api_credits_remaining_monetary_value, monthly_api_credits_refresh_at,
  stable_api_credits_remaining, stable_api_credits_remaining_monetary_value,
  total_due, subscription_id, subscription_details, extra, money_raw, money_flags
)
VALUES (
  $run_id, $taken_at::TIMESTAMPTZ, $scope, $created_at::TIMESTAMPTZ, $updated_at::TIMESTAMPTZ,
  $monthly_api_credits_remaining::UBIGINT, $monthly_api_credits_remaining_monetary_value::DECIMAL(18, 6),
  $monthly_api_credits_refresh_at::TIMESTAMPTZ,
  $stable_api_credits_remaining::UBIGINT, $stable_api_credits_remaining_monetary_value::DECIMAL(18, 6),
  $total_due::DECIMAL(18, 6), $subscription_id, $subscription_details::JSON, $extra::JSON,
  $money_raw::JSON, $money_flags
)
RETURNING
  (monthly_api_credits_remaining_monetary_value::DECIMAL(38, 6)
    + stable_api_credits_remaining_monetary_value::DECIMAL(38, 6))::VARCHAR AS remaining_usd;
