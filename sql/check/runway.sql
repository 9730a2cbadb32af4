-- The credits' runway (credit_runway, at the latest balance snapshot) below $days days.
SELECT
  'runway' AS rule,
  strftime(timezone('UTC', taken_at), '%Y-%m-%d') AS period,
  CAST(runway_days AS VARCHAR) AS value,
  CAST($days AS VARCHAR) AS threshold,
  'run out on ' || coalesce(strftime(runs_out_on, '%Y-%m-%d'), 'now') || ', {left} left' AS note,
  {'left': CAST(remaining_usd AS VARCHAR) || ' USD'} AS amounts
FROM credit_runway
WHERE runway_days IS NOT NULL AND runway_days < CAST($days AS DECIMAL(18, 6));
