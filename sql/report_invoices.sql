-- Monthly spend with the invoice beside it, for the months of a report period (monthly_reconciliation).
-- $from / $to: UTC days, both included; NULL leaves that end open. A month is shown when any of its
-- days is in the period. Money as DECIMAL text: never through a double.
SELECT
  strftime(month, '%Y-%m') AS month,
  calls::BIGINT AS calls,
  usage_cost_usd::VARCHAR AS usage_cost_usd,
  invoice_lines::BIGINT AS invoice_lines,
  invoiced_usd::VARCHAR AS invoiced_usd,
  difference_usd::VARCHAR AS difference_usd,
  lines_differing::BIGINT AS lines_differing
FROM monthly_reconciliation
WHERE ($from::DATE IS NULL OR month >= date_trunc('month', $from::DATE))
  AND ($to::DATE IS NULL OR month <= $to::DATE)
ORDER BY month;
