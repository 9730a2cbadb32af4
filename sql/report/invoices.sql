-- Each month of a report period as monthly_reconciliation books it, one row per month and currency:
-- the calls' usage and the classes that add up to it (USD), the invoices' usage lines, discounts,
-- tax, other charges and credits, and what was charged, paid, refunded, outstanding and written off
-- (in the row's currency). $from / $to: UTC days, both included; NULL leaves that end open. A month
-- is shown when any of its days is in the period. Money as DECIMAL text: never through a double.
SELECT
  strftime(month, '%Y-%m') AS month,
  currency,
  status,
  calls::BIGINT AS calls,
  usage_cost_usd::VARCHAR AS usage_cost_usd,
  invoiced_calls::BIGINT AS invoiced_calls,
  invoiced_usage_usd::VARCHAR AS invoiced_usage_usd,
  other_currency_calls::BIGINT AS other_currency_calls,
  other_currency_usd::VARCHAR AS other_currency_usd,
  not_billed_calls::BIGINT AS not_billed_calls,
  not_billed_usd::VARCHAR AS not_billed_usd,
  credits_paid_usd::VARCHAR AS credits_paid_usd,
  monthly_allowance_usd::VARCHAR AS monthly_allowance_usd,
  awaiting_calls::BIGINT AS awaiting_calls,
  awaiting_usd::VARCHAR AS awaiting_usd,
  on_incomplete_invoice_calls::BIGINT AS on_incomplete_invoice_calls,
  unexplained_calls::BIGINT AS unexplained_calls,
  unexplained_usd::VARCHAR AS unexplained_usd,
  rejected_calls::BIGINT AS rejected_calls,
  invoices::BIGINT AS invoices,
  invoices_incomplete::BIGINT AS invoices_incomplete,
  invoice_lines::BIGINT AS invoice_lines,
  usage_lines::VARCHAR AS usage_lines,
  lines_differing::BIGINT AS lines_differing,
  lines_difference::VARCHAR AS lines_difference,
  difference::VARCHAR AS difference,
  discounts::VARCHAR AS discounts,
  tax::VARCHAR AS tax,
  other_charges::VARCHAR AS other_charges,
  credits::VARCHAR AS credits,
  lines_not_listed::VARCHAR AS lines_not_listed,
  charged::VARCHAR AS charged,
  balance_applied::VARCHAR AS balance_applied,
  due::VARCHAR AS due,
  paid::VARCHAR AS paid,
  refunded::VARCHAR AS refunded,
  outstanding::VARCHAR AS outstanding,
  written_off::VARCHAR AS written_off
FROM monthly_reconciliation
WHERE ($from::DATE IS NULL OR month >= date_trunc('month', $from::DATE))
  AND ($to::DATE IS NULL OR month <= $to::DATE)
ORDER BY month, currency <> 'USD', currency;
