-- The charge ledger's rows from the invoices (see ledger.sql). Applied after ledger_calls.sql.

-- The charge ledger's rows from the invoices (drafts as estimates; void invoices bill nothing):
-- the lines no stored call is billed on (a subscription, another purchase, tax, a credit, usage of
-- rejected calls), the differences of the usage lines with their calls, item discounts (gross lines
-- above the subtotal, or lines net of a coupon), the invoice discount, the tax, what the customer's
-- balance paid, refunds, and last the rest: whatever of the total the rows above and the calls'
-- usage rows do not explain. On an invoice whose lines are cut short that rest is the lines the API
-- did not list; on a complete one it is a difference nobody explains.
CREATE OR REPLACE VIEW invoice_charges AS
WITH invoice AS (
  SELECT
    t.*,
    i.subscription_id,
    i.amount_refunded,
    CASE t.invoice_status
      WHEN 'draft' THEN 'estimated'
      WHEN 'paid' THEN 'paid'
      WHEN 'open' THEN 'outstanding'
      WHEN 'uncollectible' THEN 'written_off'
      ELSE 'invoiced'
    END AS state
  FROM invoice_totals AS t
  JOIN invoices AS i ON i.id = t.invoice_id
  WHERE coalesce(t.invoice_status, '') <> 'void'
),
-- Read once: the lines' reconciliation is long to plan, and three parts below read it.
reconciled AS MATERIALIZED (
  SELECT * FROM invoice_line_reconciliation
),
rejected_items AS (
  SELECT invoice_item, count(*) AS calls FROM rejected_calls WHERE invoice_item IS NOT NULL GROUP BY 1
),
lines AS (
  SELECT
    r.invoice_id,
    CASE r.line_class
      WHEN 'tax' THEN 'tax'
      WHEN 'credit' THEN 'credit'
      WHEN 'rejected_usage' THEN 'usage'
      ELSE CASE WHEN r.invoice_item IS NULL AND i.subscription_id IS NOT NULL THEN 'subscription' ELSE 'purchase' END
    END AS kind,
    CASE WHEN r.line_class = 'rejected_usage' THEN 'calls_rejected' ELSE 'invoice_line' END AS reason,
    r.line_amount AS billed_cost,
    coalesce(r.description, 'Invoice line ' || coalesce(r.line_id, r.line_number::VARCHAR)) AS description,
    CASE WHEN r.line_class = 'rejected_usage' THEN j.calls END AS rejected_calls,
    r.line_number
  FROM reconciled AS r
  JOIN invoice AS i ON i.invoice_id = r.invoice_id
  LEFT JOIN rejected_items AS j ON j.invoice_item = r.invoice_item
  WHERE r.line_class NOT IN ('usage', 'reissued_usage')
),
differences AS (
  SELECT
    invoice_id,
    'adjustment' AS kind,
    CASE WHEN line_class = 'reissued_usage' THEN 'reissue_differs' ELSE 'line_differs' END AS reason,
    difference AS billed_cost,
    'Invoice line that differs from its calls: ' || coalesce(description, coalesce(invoice_item, '')) AS description,
    line_number
  FROM reconciled
  WHERE difference <> 0
),
discounts AS (
  SELECT invoice_id, 'item_discount' AS reason, -sum(item_discount) AS billed_cost, 'Item discounts' AS description
  FROM reconciled
  WHERE item_discount <> 0
  GROUP BY invoice_id
  UNION ALL
  SELECT invoice_id, 'item_discount', -item_discount, 'Item discounts'
  FROM invoice
  WHERE item_discount <> 0
  UNION ALL
  SELECT invoice_id, 'coupon', -invoice_discount, 'Invoice discount'
  FROM invoice
  WHERE coupons > 0 AND invoice_discount > 0
),
taxes AS (
  SELECT invoice_id, tax AS billed_cost FROM invoice WHERE tax <> 0
),
-- What the calls' usage rows put on each invoice, unexplained ones aside (each is taken back by its
-- adjustment row): their price in USD, their items' lines in another currency.
placed AS MATERIALIZED (
  -- From the stored usage grains: their line pool (item) is set for another currency than USD,
  -- where the lines are shared; in USD the usage is the calls' price.
  SELECT invoice_id, currency, item, sum(price_usd) AS price_usd
  FROM usage_grains
  WHERE invoice_id IS NOT NULL AND coalesce(billing_class, '') <> 'unexplained'
  GROUP BY ALL
),
usage AS (
  SELECT invoice_id, sum(price_usd) AS billed_cost
  FROM placed
  WHERE currency = 'USD'
  GROUP BY invoice_id
  UNION ALL
  SELECT p.invoice_id, sum(l.amount)
  FROM (SELECT DISTINCT invoice_id, item FROM placed WHERE currency <> 'USD') AS p
  JOIN ledger_line_pools AS l ON l.invoice_id = p.invoice_id AND l.item = p.item
  GROUP BY p.invoice_id
),
explained AS (
  SELECT invoice_id, sum(billed_cost) AS billed_cost
  FROM (
    SELECT invoice_id, billed_cost FROM lines
    UNION ALL SELECT invoice_id, billed_cost FROM differences
    UNION ALL SELECT invoice_id, billed_cost FROM discounts
    UNION ALL SELECT invoice_id, billed_cost FROM taxes
    UNION ALL SELECT invoice_id, billed_cost FROM usage
  )
  GROUP BY invoice_id
),
rows AS (
  SELECT invoice_id, kind, reason, billed_cost, description, rejected_calls AS calls, line_number FROM lines
  UNION ALL BY NAME
  SELECT invoice_id, kind, reason, billed_cost, description, line_number FROM differences
  UNION ALL BY NAME
  SELECT invoice_id, 'discount' AS kind, reason, billed_cost, description FROM discounts
  UNION ALL BY NAME
  SELECT invoice_id, 'tax' AS kind, 'invoice_tax' AS reason, billed_cost, 'Tax' AS description FROM taxes
  UNION ALL BY NAME
  SELECT
    i.invoice_id,
    'adjustment' AS kind,
    CASE
      WHEN i.invoice_status = 'draft' THEN 'draft_unsettled'
      WHEN NOT i.lines_complete THEN 'lines_not_listed'
      ELSE 'unexplained_total'
    END AS reason,
    i.total - coalesce(e.billed_cost, 0) AS billed_cost,
    CASE
      WHEN i.invoice_status = 'draft' THEN 'What the draft''s total holds beyond its lines and calls'
      WHEN NOT i.lines_complete THEN 'Invoice lines the API did not list'
      ELSE 'Invoice total that its lines, discounts and tax do not explain'
    END AS description
  FROM invoice AS i
  LEFT JOIN explained AS e ON e.invoice_id = i.invoice_id
  WHERE i.total <> coalesce(e.billed_cost, 0)
  UNION ALL BY NAME
  SELECT
    invoice_id,
    CASE WHEN balance_applied > 0 THEN 'credit' ELSE 'adjustment' END AS kind,
    CASE WHEN balance_applied > 0 THEN 'customer_balance' ELSE 'balance_carried' END AS reason,
    -balance_applied AS billed_cost,
    CASE WHEN balance_applied > 0 THEN 'Paid from the customer balance' ELSE 'Balance owed from before' END
      AS description
  FROM invoice
  WHERE balance_applied <> 0
)
SELECT
  md5(concat_ws('|', r.kind, r.reason, r.invoice_id, coalesce(r.line_number, 0))) AS charge_id,
  r.kind,
  r.reason,
  CAST(NULL AS VARCHAR) AS correction,
  i.currency,
  r.billed_cost::DECIMAL(38, 6) AS billed_cost,
  CAST(NULL AS DECIMAL(38, 6)) AS price_usd,
  r.invoice_id,
  i.invoice_number,
  CAST(NULL AS VARCHAR) AS related_invoice_id,
  i.usage_month AS billing_month,
  timezone('UTC', CAST(i.usage_month AS TIMESTAMP)) AS charge_period_start,
  timezone('UTC', CAST(i.usage_month AS TIMESTAMP) + INTERVAL 1 MONTH) AS charge_period_end,
  i.state,
  r.calls,
  r.description
FROM rows AS r
JOIN invoice AS i ON i.invoice_id = r.invoice_id
UNION ALL BY NAME
-- A refund of a paid invoice: booked against the billing period it refunds, in the month the
-- invoice was issued at the earliest (the API says how much, not when), as a correction of it.
SELECT
  md5('refund|' || invoice_id) AS charge_id,
  'refund' AS kind,
  'refund' AS reason,
  'refund' AS correction,
  currency,
  -amount_refunded::DECIMAL(38, 6) AS billed_cost,
  CAST(NULL AS DECIMAL(38, 6)) AS price_usd,
  CAST(NULL AS VARCHAR) AS invoice_id,
  CAST(NULL AS VARCHAR) AS invoice_number,
  invoice_id AS related_invoice_id,
  CAST(date_trunc('month', timezone('UTC', invoice_created_at)) AS DATE) AS billing_month,
  timezone('UTC', CAST(usage_month AS TIMESTAMP)) AS charge_period_start,
  timezone('UTC', CAST(usage_month AS TIMESTAMP) + INTERVAL 1 MONTH) AS charge_period_end,
  'paid' AS state,
  CAST(NULL AS BIGINT) AS calls,
  'Refund of invoice ' || coalesce(invoice_number, invoice_id) AS description
FROM invoice
WHERE is_final AND amount_refunded <> 0;
COMMENT ON VIEW invoice_charges IS 'The charge ledger''s rows from the invoices: lines no stored call is billed on, line differences, discounts, tax, the customer balance applied, refunds, and the rest of each total that nothing explains. See charges.';

COMMENT ON COLUMN invoice_charges.billing_month IS 'The billing period (its first day): the invoice''s usage month; for a refund, the month its invoice was issued (charges.billing_period_start).';
