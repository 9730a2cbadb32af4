-- The invoice lines of a report period's months that do not agree with their calls (differs, then
-- no_calls), largest difference first, and how every line of those months reconciles.
-- $from / $to: UTC days as in report_invoices.sql.
WITH lines AS (
  SELECT *
  FROM invoice_line_reconciliation
  WHERE ($from::DATE IS NULL OR usage_month >= date_trunc('month', $from::DATE))
    AND ($to::DATE IS NULL OR usage_month <= $to::DATE)
)
SELECT
  strftime(usage_month, '%Y-%m') AS month,
  invoice_id,
  invoice_number,
  invoice_item,
  status,
  line_amount_usd::VARCHAR AS line_amount_usd,
  calls::BIGINT AS calls,
  calls_cost_usd::VARCHAR AS calls_cost_usd,
  difference_usd::VARCHAR AS difference_usd,
  count(*) OVER ()::BIGINT AS lines_in_period,
  count(*) FILTER (WHERE status = 'agrees') OVER ()::BIGINT AS lines_agreeing
FROM lines
ORDER BY status <> 'differs', abs(difference_usd) DESC, invoice_id, line_number;
