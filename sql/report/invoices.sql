-- Each month of a report period as monthly_reconciliation classifies it: its usage, the classes that
-- add up to it, the invoices' other charges and credits, and the usage lines that disagree.
-- $from / $to: UTC days, both included; NULL leaves that end open. A month is shown when any of its
-- days is in the period. Money as DECIMAL text: never through a double.
SELECT
  strftime(month, '%Y-%m') AS month,
  status,
  calls::BIGINT AS calls,
  usage_cost_usd::VARCHAR AS usage_cost_usd,
  invoiced_calls::BIGINT AS invoiced_calls,
  invoiced_usage_usd::VARCHAR AS invoiced_usage_usd,
  not_billed_calls::BIGINT AS not_billed_calls,
  not_billed_usd::VARCHAR AS not_billed_usd,
  credits_paid_usd::VARCHAR AS credits_paid_usd,
  monthly_allowance_usd::VARCHAR AS monthly_allowance_usd,
  awaiting_calls::BIGINT AS awaiting_calls,
  awaiting_usd::VARCHAR AS awaiting_usd,
  on_incomplete_invoice_calls::BIGINT AS on_incomplete_invoice_calls,
  unexplained_calls::BIGINT AS unexplained_calls,
  unexplained_usd::VARCHAR AS unexplained_usd,
  invoices::BIGINT AS invoices,
  invoices_incomplete::BIGINT AS invoices_incomplete,
  invoice_lines::BIGINT AS invoice_lines,
  invoiced_usd::VARCHAR AS invoiced_usd,
  other_charges_usd::VARCHAR AS other_charges_usd,
  credits_usd::VARCHAR AS credits_usd,
  lines_differing::BIGINT AS lines_differing,
  lines_difference_usd::VARCHAR AS lines_difference_usd
FROM monthly_reconciliation
WHERE ($from::DATE IS NULL OR month >= date_trunc('month', $from::DATE))
  AND ($to::DATE IS NULL OR month <= $to::DATE)
ORDER BY month;
