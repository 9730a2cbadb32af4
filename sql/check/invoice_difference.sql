-- Months whose books are off, before as_of, per currency (monthly_reconciliation):
--   differs        by at least the amount: what no rule explains (monthly_reconciliation.difference);
--   calls_missing  the month's invoices bill calls the warehouse does not hold: the value is what
--                  the invoices bill for usage beyond the stored calls they carry, or the difference.
SELECT
  'invoice-difference' AS rule,
  strftime(month, '%Y-%m') AS period,
  lower(currency) AS unit,
  CAST(amount AS VARCHAR) AS value,
  CAST(CAST($usd AS DECIMAL(38, 6)) AS VARCHAR) AS threshold,
  CASE
    WHEN status = 'calls_missing' AND rejected_calls > 0
      THEN 'calls missing: ' || rejected_calls || ' calls of the month were rejected (see the rejects table)'
    WHEN status = 'calls_missing' THEN 'calls missing: the invoices bill calls the warehouse does not hold'
    ELSE lines_differing || ' lines differ, ' || unexplained_calls || ' calls unexplained'
  END AS note
FROM (
  SELECT
    *,
    CASE
      WHEN status = 'calls_missing' AND difference = 0 AND currency = 'USD' THEN usage_lines - invoiced_usage_usd
      WHEN status = 'calls_missing' AND difference = 0 THEN usage_lines
      ELSE difference
    END::DECIMAL(38, 6) AS amount
  FROM monthly_reconciliation
  WHERE status IN ('differs', 'calls_missing')
)
WHERE abs(amount) >= CAST($usd AS DECIMAL(38, 6))
  AND month < CAST($as_of AS DATE)
ORDER BY month, currency;
