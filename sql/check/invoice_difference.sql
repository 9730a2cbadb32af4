-- Months whose reconciliation differs (monthly_reconciliation status differs: a usage line that
-- disagrees with its calls, or an unexplained priced call) by at least the amount, before as_of.
SELECT
  'invoice-difference' AS rule,
  strftime(month, '%Y-%m') AS period,
  CAST((lines_difference_usd + unexplained_usd)::DECIMAL(38, 6) AS VARCHAR) AS value,
  CAST(CAST($usd AS DECIMAL(38, 6)) AS VARCHAR) AS threshold,
  lines_differing || ' lines differ, ' || unexplained_calls || ' calls unexplained' AS note
FROM monthly_reconciliation
WHERE status = 'differs'
  AND abs(lines_difference_usd + unexplained_usd) >= CAST($usd AS DECIMAL(38, 6))
  AND month < CAST($as_of AS DATE)
ORDER BY month;
