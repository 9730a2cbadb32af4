-- Reconciliation of the invoices with the calls. Money is compared as DECIMAL = DECIMAL, never
-- through a double; sums are DECIMAL(38,6), wide enough for any number of DECIMAL(18,6) prices.
-- A call is billed on the invoice item named by its stripe_invoice_item_id ('' means none).

-- The calls billed on each invoice item: how many and what they cost.
CREATE OR REPLACE VIEW invoice_item_calls AS
SELECT
  stripe_invoice_item_id AS invoice_item,
  count(*) AS calls,
  coalesce(sum(price_usd), 0)::DECIMAL(38, 6) AS calls_cost_usd,
  CAST(date_trunc('month', timezone('UTC', min(created_at))) AS DATE) AS first_call_month
FROM api_calls
WHERE stripe_invoice_item_id IS NOT NULL AND stripe_invoice_item_id <> ''
GROUP BY stripe_invoice_item_id;

-- Per invoice line: the line's amount against the calls billed on its invoice item.
CREATE OR REPLACE VIEW invoice_line_reconciliation AS
SELECT
  l.invoice_id,
  i.number AS invoice_number,
  i.status AS invoice_status,
  i.created_at AS invoice_created_at,
  l.line_number,
  l.id AS line_id,
  l.invoice_item,
  l.description,
  l.currency,
  -- The usage month the line bills: its calls' month, or for a line without calls the month
  -- before the invoice was made (Zoo invoices usage in arrears, when the month has closed).
  coalesce(
    c.first_call_month,
    CAST(date_trunc('month', timezone('UTC', i.created_at)) - INTERVAL 1 MONTH AS DATE)
  ) AS usage_month,
  l.amount::DECIMAL(38, 6) AS line_amount_usd,
  coalesce(c.calls, 0) AS calls,
  coalesce(c.calls_cost_usd, 0)::DECIMAL(38, 6) AS calls_cost_usd,
  (l.amount - coalesce(c.calls_cost_usd, 0))::DECIMAL(38, 6) AS difference_usd,
  CASE
    WHEN coalesce(c.calls, 0) = 0 THEN 'no_calls'
    WHEN l.amount = c.calls_cost_usd THEN 'agrees'
    ELSE 'differs'
  END AS status
FROM invoice_lines l
JOIN invoices i ON i.id = l.invoice_id
LEFT JOIN invoice_item_calls c ON c.invoice_item = l.invoice_item;

-- Lines no stored call is billed on (a subscription, a manual charge, or calls not exported).
CREATE OR REPLACE VIEW invoice_lines_without_calls AS
SELECT * FROM invoice_line_reconciliation WHERE status = 'no_calls';

-- Priced calls that no invoice line bills, although their invoice period has closed. A call's
-- period is the UTC month of its created_at; it is closed once the warehouse holds an invoice that
-- is neither draft nor void and was made after that month ended: Zoo has invoiced a later moment,
-- so the call's month should be on an invoice by then.
CREATE OR REPLACE VIEW calls_not_invoiced AS
WITH last_invoice AS (
  SELECT max(created_at) AS created_at FROM invoices WHERE status IS NULL OR status NOT IN ('draft', 'void')
),
lines AS (SELECT DISTINCT invoice_item FROM invoice_lines WHERE invoice_item IS NOT NULL)
SELECT
  a.id,
  a.created_at,
  CAST(date_trunc('month', timezone('UTC', a.created_at)) AS DATE) AS month,
  a.price_usd,
  nullif(a.stripe_invoice_item_id, '') AS stripe_invoice_item_id,
  CASE
    WHEN coalesce(a.stripe_invoice_item_id, '') = '' THEN 'no_invoice_item'
    ELSE 'item_not_on_any_line'
  END AS reason
FROM api_calls a, last_invoice
WHERE a.price_usd > 0
  AND a.completed_at IS NOT NULL
  AND last_invoice.created_at >= date_trunc('month', timezone('UTC', a.created_at)) + INTERVAL 1 MONTH
  AND (coalesce(a.stripe_invoice_item_id, '') = '' OR a.stripe_invoice_item_id NOT IN (SELECT invoice_item FROM lines));

-- Per UTC month: what the calls cost against what was invoiced for it (lines of invoices that are
-- neither draft nor void, in their usage month), and the difference, invoiced minus usage.
CREATE OR REPLACE VIEW monthly_reconciliation AS
WITH usage AS (
  SELECT
    CAST(date_trunc('month', timezone('UTC', created_at)) AS DATE) AS month,
    count(*) AS calls,
    count(price_usd) AS priced_calls,
    coalesce(sum(price_usd), 0)::DECIMAL(38, 6) AS usage_cost_usd
  FROM api_calls
  GROUP BY 1
),
invoiced AS (
  SELECT
    usage_month AS month,
    count(*) AS invoice_lines,
    sum(line_amount_usd)::DECIMAL(38, 6) AS invoiced_usd,
    count(*) FILTER (WHERE status = 'differs') AS lines_differing
  FROM invoice_line_reconciliation
  WHERE invoice_status IS NULL OR invoice_status NOT IN ('draft', 'void')
  GROUP BY 1
)
SELECT
  coalesce(u.month, i.month) AS month,
  coalesce(u.calls, 0) AS calls,
  coalesce(u.priced_calls, 0) AS priced_calls,
  coalesce(u.usage_cost_usd, 0)::DECIMAL(38, 6) AS usage_cost_usd,
  coalesce(i.invoice_lines, 0) AS invoice_lines,
  coalesce(i.invoiced_usd, 0)::DECIMAL(38, 6) AS invoiced_usd,
  (coalesce(i.invoiced_usd, 0) - coalesce(u.usage_cost_usd, 0))::DECIMAL(38, 6) AS difference_usd,
  coalesce(i.lines_differing, 0) AS lines_differing,
  -- A month without a line (the current one, or a closed one still settling) is no disagreement:
  -- its difference is the whole usage only because nothing has been invoiced for it yet.
  CASE
    WHEN coalesce(i.invoice_lines, 0) = 0 THEN 'not_invoiced'
    WHEN coalesce(i.invoiced_usd, 0) = coalesce(u.usage_cost_usd, 0) THEN 'agrees'
    ELSE 'differs'
  END AS status
FROM usage u
FULL OUTER JOIN invoiced i ON i.month = u.month
ORDER BY month;
