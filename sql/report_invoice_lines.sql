-- The invoice lines of a report period's months worth a reader's look: usage lines that disagree
-- with their calls (differs, duplicate; largest difference first), then the other charges and the
-- credits, which are shown apart and never count as a difference; and how many usage lines there
-- are and agree. Lines of drafts and void invoices bill nothing and are left out.
-- $from / $to: UTC days as in report_invoices.sql.
WITH lines AS (
  SELECT *
  FROM invoice_line_reconciliation
  WHERE invoice_final
    AND ($from::DATE IS NULL OR usage_month >= date_trunc('month', $from::DATE))
    AND ($to::DATE IS NULL OR usage_month <= $to::DATE)
)
SELECT
  strftime(usage_month, '%Y-%m') AS month,
  invoice_id,
  invoice_number,
  invoice_item,
  description,
  line_class,
  status,
  line_amount_usd::VARCHAR AS line_amount_usd,
  calls::BIGINT AS calls,
  calls_cost_usd::VARCHAR AS calls_cost_usd,
  difference_usd::VARCHAR AS difference_usd,
  count(*) FILTER (WHERE line_class = 'usage') OVER ()::BIGINT AS usage_lines_in_period,
  count(*) FILTER (WHERE status = 'agrees') OVER ()::BIGINT AS usage_lines_agreeing
FROM lines
QUALIFY difference_usd <> 0 OR line_class <> 'usage'
ORDER BY difference_usd = 0, line_class <> 'usage', abs(difference_usd) DESC, usage_month, invoice_id, line_number;
