-- The invoice lines of a report period's months worth a reader's look: usage lines that disagree
-- with their calls (largest difference first), then the other lines (other charges, credits, tax,
-- lines of rejected calls), which are shown apart and never count as a difference; and how many
-- usage lines are compared with their calls and agree. Lines of drafts and void invoices bill nothing
-- and are left out. Always one row at least: the counts, repeated on each listed line (invoice_id is
-- NULL when none is listed).
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
    count(*) FILTER (WHERE status IN ('agrees', 'differs'))::BIGINT AS usage_lines_in_period,
    count(*) FILTER (WHERE status = 'agrees')::BIGINT AS usage_lines_agreeing
  FROM lines
),
listed AS (
  SELECT * FROM lines WHERE difference <> 0 OR line_class NOT IN ('usage', 'reissued_usage')
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
  l.currency,
  l.line_amount::VARCHAR AS line_amount,
  l.item_lines::BIGINT AS item_lines,
  l.item_lines_amount::VARCHAR AS item_lines_amount,
  l.calls::BIGINT AS calls,
  l.calls_cost_usd::VARCHAR AS calls_cost_usd,
  l.item_discount::VARCHAR AS item_discount,
  l.difference::VARCHAR AS difference
FROM totals AS t
LEFT JOIN listed AS l ON true
ORDER BY l.difference = 0, l.line_class NOT IN ('usage', 'reissued_usage'), abs(l.difference) DESC, l.usage_month,
  l.invoice_id, l.line_number;
