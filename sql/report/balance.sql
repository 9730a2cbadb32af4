-- The credits at the latest balance snapshot, in USD and in credits (counts), with the burn and the
-- runway as credit_runway defines them by the ledger's rule (sql/views/credits.sql). At most one
-- row; none before the first snapshot.
SELECT
  strftime(timezone('UTC', taken_at), '%Y-%m-%dT%H:%M:%S.%fZ') AS taken_at,
  remaining_usd::VARCHAR AS remaining_usd,
  monthly_usd::VARCHAR AS monthly_usd,
  stable_usd::VARCHAR AS stable_usd,
  monthly_credits::VARCHAR AS monthly_credits,
  stable_credits::VARCHAR AS stable_credits,
  strftime(timezone('UTC', monthly_refresh_at), '%Y-%m-%dT%H:%M:%S.%fZ') AS monthly_refresh_at,
  monthly_allowance_usd::VARCHAR AS monthly_allowance_usd,
  burn_usd_per_day::VARCHAR AS burn_usd_per_day,
  burn_source,
  runway_days,
  strftime(runs_out_on, '%Y-%m-%d') AS runs_out_on
FROM credit_runway;
