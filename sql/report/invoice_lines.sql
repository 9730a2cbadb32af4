-- The invoice lines of a report period's months worth a reader's look: usage lines that disagree
-- with their calls (largest difference first), then the other charges and the
-- credits, which are shown apart and never count as a difference; and how many usage lines there
-- are and agree. Lines of drafts and void invoices bill nothing and are left out. Always one row at
-- least: the counts, repeated on each listed line (invoice_id is NULL when none is listed).
-- $from / $to: UTC days as in sql/report/invoices.sql.
WITH lines AS (
  SELECT *
  FROM invoice_line_reconciliation
  WHERE invoice_final
    AND ($from::DATE IS NULL OR usage_month >= date_trunc('month', $from::DATE))
    AND ($to::DATE IS NULL OR usage_month <= $to::DATE)
),
totals AS (
  SELECT
    count(*) FILTER (WHERE line_class = 'usage')::BIGINT AS usage_lines_in_period,
    count(*) FILTER (WHERE status = 'agrees')::BIGINT AS usage_lines_agreeing
  FROM lines
),
listed AS (
  SELECT * FROM lines WHERE difference_usd <> 0 OR line_class <> 'usage'
)
SELECT
  t.usage_lines_in_period,
  t.usage_lines_agreeing,
  strftime(l.usage_month, '%Y-%m') AS month,
  l.invoice_id,
  l.invoice_number,
  l.invoice_item,
  l.description,
  l.line_class,
  l.status,
  l.line_amount_usd::VARCHAR AS line_amount_usd,
  l.item_lines::BIGINT AS item_lines,
  l.item_lines_usd::VARCHAR AS item_lines_usd,
  l.calls::BIGINT AS calls,
  l.calls_cost_usd::VARCHAR AS calls_cost_usd,
  l.difference_usd::VARCHAR AS difference_usd
FROM totals AS t
LEFT JOIN listed AS l ON true
ORDER BY l.difference_usd = 0, l.line_class <> 'usage', abs(l.difference_usd) DESC, l.usage_month, l.invoice_id,
  l.line_number;
