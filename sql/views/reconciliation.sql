-- Reconciliation of the invoices with the calls. It classifies rather than blames: every invoice
-- line is usage, another charge or a credit, and every priced call is invoiced, not billed,
-- awaiting an invoice or unexplained; only an unexplained amount is a disagreement. Money is
-- compared as DECIMAL = DECIMAL, never through a double; sums are DECIMAL(38,6), wide enough for any
-- number of DECIMAL(18,6) prices. A call is billed on the invoice item named by its
-- stripe_invoice_item_id ('' means none). docs/reconciliation.md says which invoice shape each
-- class comes from. Applied after credits.sql: monthly_reconciliation reads monthly_credits.

-- The calls billed on each invoice item: how many and what they cost.
CREATE OR REPLACE VIEW invoice_item_calls AS
SELECT
  stripe_invoice_item_id AS invoice_item,
  count(*) AS calls,
  coalesce(sum(price_usd), 0)::DECIMAL(38, 6) AS calls_cost_usd,
  CAST(date_trunc('month', timezone('UTC', min(created_at))) AS DATE) AS first_call_month,
  CAST(date_trunc('month', timezone('UTC', max(created_at))) AS DATE) AS last_call_month
FROM api_calls
WHERE stripe_invoice_item_id IS NOT NULL AND stripe_invoice_item_id <> ''
GROUP BY stripe_invoice_item_id;
COMMENT ON VIEW invoice_item_calls IS 'Per invoice item (api_calls.stripe_invoice_item_id, not empty): the calls billed on it and what they cost.';
COMMENT ON COLUMN invoice_item_calls.invoice_item IS 'The invoice item the calls carry in stripe_invoice_item_id.';
COMMENT ON COLUMN invoice_item_calls.calls IS 'Stored calls billed on the item.';
COMMENT ON COLUMN invoice_item_calls.calls_cost_usd IS 'Exact sum of those calls'' price_usd, DECIMAL(38,6).';
COMMENT ON COLUMN invoice_item_calls.first_call_month IS 'The UTC month (its first day) of the earliest call billed on the item.';
COMMENT ON COLUMN invoice_item_calls.last_call_month IS 'The UTC month (its first day) of the latest call billed on the item.';

-- Per invoice: whether it counts as invoiced (neither draft nor void: open, paid and uncollectible
-- invoices have been issued), the usage month it bills, and whether its stored lines add up to its
-- subtotal. Stripe embeds only the first lines of an invoice, so lines that fall short of the
-- subtotal are a cut list, not a missing charge. The usage month is the latest month of the calls
-- its lines bill (a late call of the month before rides on it), else the month before it was made:
-- Zoo invoices usage in arrears, once the month has closed.
CREATE OR REPLACE VIEW invoice_totals AS
WITH line_sums AS (
  SELECT invoice_id, count(*) AS lines, sum(amount)::DECIMAL(38, 6) AS lines_usd
  FROM invoice_lines
  GROUP BY invoice_id
),
call_months AS (
  SELECT l.invoice_id, max(c.last_call_month) AS month
  FROM invoice_lines AS l
  JOIN invoice_item_calls AS c ON c.invoice_item = l.invoice_item
  GROUP BY l.invoice_id
)
SELECT
  i.id AS invoice_id,
  i.number AS invoice_number,
  i.status AS invoice_status,
  i.created_at AS invoice_created_at,
  coalesce(i.status, '') NOT IN ('draft', 'void') AS is_final,
  coalesce(m.month, CAST(date_trunc('month', timezone('UTC', i.created_at)) - INTERVAL 1 MONTH AS DATE))
    AS usage_month,
  coalesce(s.lines, 0) AS lines,
  coalesce(s.lines_usd, 0)::DECIMAL(38, 6) AS lines_usd,
  i.subtotal::DECIMAL(38, 6) AS subtotal_usd,
  coalesce(s.lines_usd, 0) = i.subtotal AS lines_complete
FROM invoices AS i
LEFT JOIN line_sums AS s ON s.invoice_id = i.id
LEFT JOIN call_months AS m ON m.invoice_id = i.id;
COMMENT ON VIEW invoice_totals IS 'Per invoice: whether it counts as invoiced (neither draft nor void), the usage month it bills, and whether its stored lines add up to its subtotal (Stripe embeds only the first lines of an invoice). docs/reconciliation.md.';
COMMENT ON COLUMN invoice_totals.invoice_id IS 'The invoice (invoices.id).';
COMMENT ON COLUMN invoice_totals.invoice_number IS 'The invoice''s number (invoices.number).';
COMMENT ON COLUMN invoice_totals.invoice_status IS 'The invoice''s status (invoices.status): draft, open, paid, uncollectible or void.';
COMMENT ON COLUMN invoice_totals.invoice_created_at IS 'When the invoice was made (invoices.created_at, UTC).';
COMMENT ON COLUMN invoice_totals.is_final IS 'true unless the invoice is a draft or void: open, paid and uncollectible invoices (and those without a status) count as invoiced.';
COMMENT ON COLUMN invoice_totals.usage_month IS 'The UTC month (its first day) the invoice bills: the latest month of the calls its lines bill, else the month before it was made (Zoo invoices usage in arrears).';
COMMENT ON COLUMN invoice_totals.lines IS 'Lines stored for the invoice.';
COMMENT ON COLUMN invoice_totals.lines_usd IS 'Exact sum of the stored lines'' amounts, DECIMAL(38,6).';
COMMENT ON COLUMN invoice_totals.subtotal_usd IS 'The invoice''s subtotal (invoices.subtotal), DECIMAL(38,6).';
COMMENT ON COLUMN invoice_totals.lines_complete IS 'lines_usd = subtotal_usd exactly; false: the lines are incomplete (a cut list), and calls no stored line names wait on this invoice instead of counting as not invoiced.';

-- Per invoice line: its class and, for usage, its amount against the calls billed on its item.
-- usage: calls carry its invoice_item; credit: no call does and the amount is negative (a credit or
-- a discount); other_charge: no call does (a subscription, a manual charge): shown apart, never a
-- usage difference. The lines of invoices that count are compared with the calls per item: the
-- item's lines together against its calls, the difference shown once, on the item's first line (by
-- the invoice's time, then the line's place). One item is usually one line; an item billed again on
-- another line (an extra line) makes a difference of that line's amount, found once, and the later
-- lines of the item are 'same_item'. Lines of drafts and void invoices are 'not_final': they bill
-- nothing yet, or nothing any more.
CREATE OR REPLACE VIEW invoice_line_reconciliation AS
WITH lines AS (
  SELECT
    l.*,
    t.invoice_number,
    t.invoice_status,
    t.invoice_created_at,
    t.is_final,
    t.lines_complete,
    t.usage_month,
    c.calls AS item_calls,
    c.calls_cost_usd AS item_calls_cost_usd,
    CASE
      WHEN c.calls IS NOT NULL THEN 'usage'
      WHEN l.amount < 0 THEN 'credit'
      ELSE 'other_charge'
    END AS line_class,
    row_number() OVER item_lines AS item_occurrence,
    count(*) OVER item_lines AS item_lines,
    sum(l.amount) OVER item_lines AS item_lines_usd
  FROM invoice_lines AS l
  JOIN invoice_totals AS t ON t.invoice_id = l.invoice_id
  LEFT JOIN invoice_item_calls AS c ON c.invoice_item = l.invoice_item
  WINDOW item_lines AS (
    PARTITION BY l.invoice_item, t.is_final
    ORDER BY t.invoice_created_at, l.invoice_id, l.line_number
    ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING
  )
)
SELECT
  invoice_id,
  invoice_number,
  invoice_status,
  invoice_created_at,
  is_final AS invoice_final,
  lines_complete AS invoice_lines_complete,
  line_number,
  id AS line_id,
  invoice_item,
  description,
  currency,
  usage_month,
  line_class,
  amount::DECIMAL(38, 6) AS line_amount_usd,
  CASE WHEN line_class = 'usage' THEN item_lines ELSE 1 END AS item_lines,
  CASE WHEN line_class = 'usage' THEN item_lines_usd ELSE amount END::DECIMAL(38, 6) AS item_lines_usd,
  coalesce(item_calls, 0) AS calls,
  coalesce(item_calls_cost_usd, 0)::DECIMAL(38, 6) AS calls_cost_usd,
  CASE
    WHEN line_class = 'usage' AND is_final AND item_occurrence = 1 THEN item_lines_usd - item_calls_cost_usd
    ELSE 0
  END::DECIMAL(38, 6) AS difference_usd,
  CASE
    WHEN line_class <> 'usage' THEN line_class
    WHEN NOT is_final THEN 'not_final'
    WHEN item_occurrence > 1 THEN 'same_item'
    WHEN item_lines_usd = item_calls_cost_usd THEN 'agrees'
    ELSE 'differs'
  END AS status
FROM lines;
COMMENT ON VIEW invoice_line_reconciliation IS 'Per invoice line: its class (usage, other_charge, credit) and, for a usage line of an invoice that counts, its amount against the calls billed on its invoice item. Compared as DECIMAL, never through a double. docs/reconciliation.md.';
COMMENT ON COLUMN invoice_line_reconciliation.invoice_id IS 'The invoice (invoices.id) of the line.';
COMMENT ON COLUMN invoice_line_reconciliation.invoice_number IS 'The invoice''s number (invoices.number).';
COMMENT ON COLUMN invoice_line_reconciliation.invoice_status IS 'The invoice''s status (invoices.status).';
COMMENT ON COLUMN invoice_line_reconciliation.invoice_created_at IS 'When the invoice was made (invoices.created_at, UTC).';
COMMENT ON COLUMN invoice_line_reconciliation.invoice_final IS 'The invoice counts as invoiced (invoice_totals.is_final): neither draft nor void.';
COMMENT ON COLUMN invoice_line_reconciliation.invoice_lines_complete IS 'The invoice''s stored lines add up to its subtotal (invoice_totals.lines_complete).';
COMMENT ON COLUMN invoice_line_reconciliation.line_number IS 'The line''s position in the invoice, from 1.';
COMMENT ON COLUMN invoice_line_reconciliation.line_id IS 'The line''s id (invoice_lines.id).';
COMMENT ON COLUMN invoice_line_reconciliation.invoice_item IS 'The invoice item the line bills (invoice_lines.invoice_item).';
COMMENT ON COLUMN invoice_line_reconciliation.description IS 'The line''s description.';
COMMENT ON COLUMN invoice_line_reconciliation.currency IS 'The line''s currency as sent; the calls are priced in USD, so only a USD line compares like with like.';
COMMENT ON COLUMN invoice_line_reconciliation.usage_month IS 'The UTC month (its first day) the line''s invoice bills (invoice_totals.usage_month).';
COMMENT ON COLUMN invoice_line_reconciliation.line_class IS 'usage: stored calls carry the line''s invoice item; credit: none does and the amount is negative (a credit or discount); other_charge: none does (a subscription, a manual charge), shown apart and never a usage difference.';
COMMENT ON COLUMN invoice_line_reconciliation.line_amount_usd IS 'The line''s amount, exact DECIMAL(38,6).';
COMMENT ON COLUMN invoice_line_reconciliation.item_lines IS 'Lines, on invoices of the same standing (counting or not), that bill the line''s item: 1 but for an item billed more than once; 1 for other charges and credits.';
COMMENT ON COLUMN invoice_line_reconciliation.item_lines_usd IS 'Exact sum of those lines'' amounts, DECIMAL(38,6): what is compared with the item''s calls.';
COMMENT ON COLUMN invoice_line_reconciliation.calls IS 'Stored calls whose stripe_invoice_item_id is the line''s invoice item.';
COMMENT ON COLUMN invoice_line_reconciliation.calls_cost_usd IS 'Exact sum of those calls'' price_usd (0 without calls), DECIMAL(38,6).';
COMMENT ON COLUMN invoice_line_reconciliation.difference_usd IS 'On the first line of an item on invoices that count: item_lines_usd - calls_cost_usd, exact (positive when the invoices bill more than the calls cost); 0 on every other line, so an item''s difference is counted once.';
COMMENT ON COLUMN invoice_line_reconciliation.status IS 'Usage lines: agrees (the item''s lines add up to its calls'' cost exactly), differs, same_item (a later line of an item compared on its first line) or not_final (a draft or void invoice); other lines: their line_class.';

-- Lines no stored call is billed on: other charges (a subscription, a manual charge, or calls not
-- exported) and credits.
CREATE OR REPLACE VIEW invoice_lines_without_calls AS
SELECT * FROM invoice_line_reconciliation WHERE line_class <> 'usage';
COMMENT ON VIEW invoice_lines_without_calls IS 'The invoice lines no stored call is billed on (line_class other_charge or credit): a subscription, a manual charge, a discount, or calls not exported.';

-- Every priced call in exactly one billing class, with the reason:
--   invoiced          its item is on a line of an invoice that counts (on_invoice);
--   not_billed        it names no invoice item, which the spec sets only "if it is billable":
--                     credits or a free allowance covered it (no_invoice_item);
--   awaiting_invoice  billing still pending (billing_pending), its item only on a draft
--                     (invoice_draft) or a void invoice (invoice_void), or no line names its item
--                     yet: its month has no invoice yet (month_open), it was billed after its
--                     month's invoice was made (billed_late), or the invoice due to carry it has
--                     lines that fall short of its subtotal (invoice_incomplete);
--   unexplained       no line names its item although the invoice due to carry it counts and its
--                     lines are whole (item_not_on_any_line).
-- The invoice due to carry a call is the first invoice, not void, made at or after both the end
-- of the call's UTC month and its last update (when its billing completed; a call billed late
-- waits for the next invoice).
CREATE OR REPLACE VIEW call_billing_class AS
WITH item_lines AS (
  SELECT
    l.invoice_item,
    bool_or(t.is_final) AS on_final,
    bool_or(t.invoice_status = 'draft') AS on_draft,
    arg_min(l.invoice_id, t.invoice_created_at) FILTER (WHERE t.is_final) AS final_invoice_id,
    arg_min(l.invoice_id, t.invoice_created_at) AS any_invoice_id
  FROM invoice_lines AS l
  JOIN invoice_totals AS t ON t.invoice_id = l.invoice_id
  WHERE l.invoice_item IS NOT NULL AND l.invoice_item <> ''
  GROUP BY l.invoice_item
),
calls AS (
  SELECT
    a.id,
    a.created_at,
    a.completed_at,
    CAST(date_trunc('month', timezone('UTC', a.created_at)) AS DATE) AS month,
    a.price_usd,
    nullif(a.stripe_invoice_item_id, '') AS stripe_invoice_item_id,
    a.updated_at
  FROM api_calls AS a
  WHERE a.price_usd IS NOT NULL
),
not_void AS (
  SELECT invoice_id, invoice_status, invoice_created_at, lines_complete
  FROM invoice_totals
  WHERE coalesce(invoice_status, '') <> 'void'
),
-- Per month of the calls: how many invoices, not void, were made after it ended.
month_ends AS (
  SELECT m.month, count(v.invoice_id) AS invoices_after_month
  FROM (SELECT DISTINCT month FROM calls) AS m
  LEFT JOIN not_void AS v ON v.invoice_created_at >= timezone('UTC', m.month + INTERVAL 1 MONTH)
  GROUP BY m.month
),
lined AS (
  SELECT
    c.*,
    il.on_final,
    il.on_draft,
    coalesce(il.final_invoice_id, il.any_invoice_id) AS line_invoice_id
  FROM calls AS c
  LEFT JOIN item_lines AS il ON il.invoice_item = c.stripe_invoice_item_id
),
-- The due invoice, sought only for the calls that need it: an item no line names.
due AS (
  SELECT u.id, d.invoice_id, d.invoice_status, d.lines_complete
  FROM (
    SELECT id, greatest(timezone('UTC', month + INTERVAL 1 MONTH), updated_at) AS due_from
    FROM lined
    WHERE stripe_invoice_item_id IS NOT NULL AND on_final IS NULL
  ) AS u
  ASOF LEFT JOIN not_void AS d ON u.due_from <= d.invoice_created_at
),
placed AS (
  SELECT
    l.*,
    d.invoice_id AS due_invoice_id,
    d.invoice_status AS due_status,
    d.lines_complete AS due_complete,
    coalesce(m.invoices_after_month, 0) AS invoices_after_month
  FROM lined AS l
  LEFT JOIN due AS d ON d.id = l.id
  LEFT JOIN month_ends AS m ON m.month = l.month
),
classed AS (
  SELECT
    *,
    CASE
      WHEN stripe_invoice_item_id IS NULL AND completed_at IS NULL THEN 'billing_pending'
      WHEN stripe_invoice_item_id IS NULL THEN 'no_invoice_item'
      WHEN on_final THEN 'on_invoice'
      WHEN on_draft THEN 'invoice_draft'
      WHEN on_final IS NOT NULL THEN 'invoice_void'
      WHEN due_invoice_id IS NULL AND invoices_after_month > 0 THEN 'billed_late'
      WHEN due_invoice_id IS NULL THEN 'month_open'
      WHEN due_status = 'draft' THEN 'invoice_draft'
      WHEN NOT due_complete THEN 'invoice_incomplete'
      ELSE 'item_not_on_any_line'
    END AS reason
  FROM placed
)
SELECT
  id,
  created_at,
  month,
  price_usd,
  stripe_invoice_item_id,
  CASE
    WHEN reason = 'on_invoice' THEN 'invoiced'
    WHEN reason = 'no_invoice_item' THEN 'not_billed'
    WHEN reason = 'item_not_on_any_line' THEN 'unexplained'
    ELSE 'awaiting_invoice'
  END AS billing_class,
  reason,
  CASE WHEN line_invoice_id IS NOT NULL THEN line_invoice_id
    WHEN stripe_invoice_item_id IS NOT NULL THEN due_invoice_id END AS invoice_id
FROM classed;
COMMENT ON VIEW call_billing_class IS 'Every priced call in exactly one billing class: invoiced, not_billed (no invoice item: credits or a free allowance paid), awaiting_invoice or unexplained, with the reason. docs/reconciliation.md.';
COMMENT ON COLUMN call_billing_class.id IS 'The call (api_calls.id).';
COMMENT ON COLUMN call_billing_class.created_at IS 'When the call was created (UTC).';
COMMENT ON COLUMN call_billing_class.month IS 'The call''s UTC month (its first day).';
COMMENT ON COLUMN call_billing_class.price_usd IS 'The call''s price, exact DECIMAL(18,6).';
COMMENT ON COLUMN call_billing_class.stripe_invoice_item_id IS 'The invoice item the call names; NULL when it names none.';
COMMENT ON COLUMN call_billing_class.billing_class IS 'invoiced: its item is on a line of an invoice neither draft nor void; not_billed: it names no item (set only if billable), so credits or a free allowance covered it; awaiting_invoice: see reason; unexplained: no line names its item although the invoice due to carry it counts and its lines are whole.';
COMMENT ON COLUMN call_billing_class.reason IS 'on_invoice, no_invoice_item, billing_pending (no item yet, billing not completed), invoice_draft, invoice_void, month_open (no invoice since its month ended), billed_late (billed after its month''s invoice: waits for the next), invoice_incomplete (the due invoice''s lines fall short of its subtotal), item_not_on_any_line.';
COMMENT ON COLUMN call_billing_class.invoice_id IS 'The invoice whose line names the call''s item, else the invoice due to carry it (the first not void made after its month ended and it was last updated); NULL without an item or such an invoice.';

-- Priced calls no invoice line bills although the invoice due to carry them counts and its lines
-- are whole: the unexplained calls of call_billing_class. Calls credits paid, calls awaiting an
-- invoice and calls on an invoice whose lines are cut short are not here.
CREATE OR REPLACE VIEW calls_not_invoiced AS
SELECT id, created_at, month, price_usd, stripe_invoice_item_id, invoice_id, reason
FROM call_billing_class
WHERE billing_class = 'unexplained';
COMMENT ON VIEW calls_not_invoiced IS 'The unexplained calls of call_billing_class: a priced call whose item no invoice line names although the invoice due to carry it counts and its lines add up to its subtotal. Calls paid by credits, waiting for an invoice or on an invoice with incomplete lines are not here.';
COMMENT ON COLUMN calls_not_invoiced.id IS 'The call (api_calls.id).';
COMMENT ON COLUMN calls_not_invoiced.created_at IS 'When the call was created (UTC).';
COMMENT ON COLUMN calls_not_invoiced.month IS 'The call''s UTC month (its first day).';
COMMENT ON COLUMN calls_not_invoiced.price_usd IS 'The call''s price, exact DECIMAL(18,6).';
COMMENT ON COLUMN calls_not_invoiced.stripe_invoice_item_id IS 'The invoice item the call names.';
COMMENT ON COLUMN calls_not_invoiced.invoice_id IS 'The invoice due to carry the call, which does not.';
COMMENT ON COLUMN calls_not_invoiced.reason IS 'Always item_not_on_any_line.';

-- Per UTC month of the calls: usage = invoiced + not billed + awaiting + unexplained, exactly (each
-- priced call is in one class of call_billing_class); the lines of the invoices that count and bill
-- the month, by class; the usage lines that disagree with their calls; and what credits paid.
-- status: differs (a non-zero unexplained amount: unexplained calls, or usage lines that disagree
-- with their calls), not_invoiced (calls wait for an invoice and none is invoiced yet), awaiting
-- (some calls wait for an invoice), agrees (every priced call is explained).
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
classes AS (
  SELECT
    month,
    count(*) FILTER (WHERE billing_class = 'invoiced') AS invoiced_calls,
    coalesce(sum(price_usd) FILTER (WHERE billing_class = 'invoiced'), 0) AS invoiced_usage_usd,
    count(*) FILTER (WHERE billing_class = 'not_billed') AS not_billed_calls,
    coalesce(sum(price_usd) FILTER (WHERE billing_class = 'not_billed'), 0) AS not_billed_usd,
    count(*) FILTER (WHERE billing_class = 'awaiting_invoice') AS awaiting_calls,
    coalesce(sum(price_usd) FILTER (WHERE billing_class = 'awaiting_invoice'), 0) AS awaiting_usd,
    count(*) FILTER (WHERE reason = 'invoice_incomplete') AS on_incomplete_invoice_calls,
    count(*) FILTER (WHERE billing_class = 'unexplained') AS unexplained_calls,
    count(*) FILTER (WHERE billing_class = 'unexplained' AND price_usd <> 0) AS unexplained_priced,
    coalesce(sum(price_usd) FILTER (WHERE billing_class = 'unexplained'), 0) AS unexplained_usd
  FROM call_billing_class
  GROUP BY month
),
lines AS (
  SELECT
    usage_month AS month,
    count(*) AS invoice_lines,
    sum(line_amount_usd) AS invoiced_usd,
    coalesce(sum(line_amount_usd) FILTER (WHERE line_class = 'usage'), 0) AS usage_lines_usd,
    coalesce(sum(line_amount_usd) FILTER (WHERE line_class = 'other_charge'), 0) AS other_charges_usd,
    coalesce(sum(line_amount_usd) FILTER (WHERE line_class = 'credit'), 0) AS credits_usd,
    count(*) FILTER (WHERE difference_usd <> 0) AS lines_differing,
    coalesce(sum(difference_usd), 0) AS lines_difference_usd
  FROM invoice_line_reconciliation
  WHERE invoice_final
  GROUP BY 1
),
invoices AS (
  SELECT
    usage_month AS month,
    count(*) FILTER (WHERE is_final) AS invoices,
    count(*) FILTER (WHERE is_final AND NOT lines_complete) AS invoices_incomplete
  FROM invoice_totals
  GROUP BY 1
),
months AS (
  SELECT month FROM usage UNION SELECT month FROM lines UNION SELECT month FROM invoices
)
SELECT
  m.month,
  coalesce(u.calls, 0) AS calls,
  coalesce(u.priced_calls, 0) AS priced_calls,
  coalesce(u.usage_cost_usd, 0)::DECIMAL(38, 6) AS usage_cost_usd,
  coalesce(c.invoiced_calls, 0) AS invoiced_calls,
  coalesce(c.invoiced_usage_usd, 0)::DECIMAL(38, 6) AS invoiced_usage_usd,
  coalesce(c.not_billed_calls, 0) AS not_billed_calls,
  coalesce(c.not_billed_usd, 0)::DECIMAL(38, 6) AS not_billed_usd,
  CASE WHEN k.credits_consumed_usd IS NOT NULL THEN
    least(coalesce(c.not_billed_usd, 0), k.credits_consumed_usd)
  END::DECIMAL(38, 6) AS credits_paid_usd,
  k.credits_consumed_usd,
  k.monthly_allowance_usd,
  coalesce(c.awaiting_calls, 0) AS awaiting_calls,
  coalesce(c.awaiting_usd, 0)::DECIMAL(38, 6) AS awaiting_usd,
  coalesce(c.on_incomplete_invoice_calls, 0) AS on_incomplete_invoice_calls,
  coalesce(c.unexplained_calls, 0) AS unexplained_calls,
  coalesce(c.unexplained_usd, 0)::DECIMAL(38, 6) AS unexplained_usd,
  coalesce(i.invoices, 0) AS invoices,
  coalesce(i.invoices_incomplete, 0) AS invoices_incomplete,
  coalesce(l.invoice_lines, 0) AS invoice_lines,
  coalesce(l.invoiced_usd, 0)::DECIMAL(38, 6) AS invoiced_usd,
  coalesce(l.usage_lines_usd, 0)::DECIMAL(38, 6) AS usage_lines_usd,
  coalesce(l.other_charges_usd, 0)::DECIMAL(38, 6) AS other_charges_usd,
  coalesce(l.credits_usd, 0)::DECIMAL(38, 6) AS credits_usd,
  coalesce(l.lines_differing, 0) AS lines_differing,
  coalesce(l.lines_difference_usd, 0)::DECIMAL(38, 6) AS lines_difference_usd,
  CASE
    WHEN coalesce(c.unexplained_priced, 0) > 0 OR coalesce(l.lines_differing, 0) > 0 THEN 'differs'
    WHEN coalesce(c.awaiting_calls, 0) > 0 AND coalesce(c.invoiced_calls, 0) = 0
      AND coalesce(l.invoice_lines, 0) = 0 THEN 'not_invoiced'
    WHEN coalesce(c.awaiting_calls, 0) > 0 THEN 'awaiting'
    ELSE 'agrees'
  END AS status
FROM months AS m
LEFT JOIN usage AS u ON u.month = m.month
LEFT JOIN classes AS c ON c.month = m.month
LEFT JOIN lines AS l ON l.month = m.month
LEFT JOIN invoices AS i ON i.month = m.month
LEFT JOIN monthly_credits AS k ON k.month = m.month
ORDER BY m.month;
COMMENT ON VIEW monthly_reconciliation IS 'Per UTC month: usage = invoiced + not billed + awaiting + unexplained, exactly; the lines of invoices that count, by class; usage lines that disagree with their calls; what credits paid. status differs only for a non-zero unexplained amount. docs/reconciliation.md.';
COMMENT ON COLUMN monthly_reconciliation.month IS 'The UTC month (its first day): of the calls'' created_at, and of the invoices'' usage_month.';
COMMENT ON COLUMN monthly_reconciliation.calls IS 'Stored calls created in the month.';
COMMENT ON COLUMN monthly_reconciliation.priced_calls IS 'Those with a price.';
COMMENT ON COLUMN monthly_reconciliation.usage_cost_usd IS 'Exact sum of the month''s calls'' price_usd, DECIMAL(38,6): invoiced_usage_usd + not_billed_usd + awaiting_usd + unexplained_usd.';
COMMENT ON COLUMN monthly_reconciliation.invoiced_calls IS 'The month''s calls in class invoiced (call_billing_class).';
COMMENT ON COLUMN monthly_reconciliation.invoiced_usage_usd IS 'Their exact price sum, DECIMAL(38,6), whichever invoice billed them.';
COMMENT ON COLUMN monthly_reconciliation.not_billed_calls IS 'The month''s calls in class not_billed: no invoice item, so credits or a free allowance paid them.';
COMMENT ON COLUMN monthly_reconciliation.not_billed_usd IS 'Their exact price sum, DECIMAL(38,6). Never a difference.';
COMMENT ON COLUMN monthly_reconciliation.credits_paid_usd IS 'How much of not_billed_usd the credits paid, as far as the balance snapshots saw: the lesser of not_billed_usd and credits_consumed_usd; NULL when the snapshots measured nothing in the month.';
COMMENT ON COLUMN monthly_reconciliation.credits_consumed_usd IS 'Credits consumed between balance snapshots taken within the month (monthly_credits); NULL without such a pair.';
COMMENT ON COLUMN monthly_reconciliation.monthly_allowance_usd IS 'The plan''s monthly API credit allowance as the month''s latest snapshot gives it (monthly_credits); NULL without one.';
COMMENT ON COLUMN monthly_reconciliation.awaiting_calls IS 'The month''s calls in class awaiting_invoice: the month has no invoice yet, a draft holds them, they were billed late, or their invoice''s lines are incomplete.';
COMMENT ON COLUMN monthly_reconciliation.awaiting_usd IS 'Their exact price sum, DECIMAL(38,6).';
COMMENT ON COLUMN monthly_reconciliation.on_incomplete_invoice_calls IS 'Of the awaiting calls, those on an invoice whose lines fall short of its subtotal (reason invoice_incomplete).';
COMMENT ON COLUMN monthly_reconciliation.unexplained_calls IS 'The month''s calls in class unexplained (calls_not_invoiced).';
COMMENT ON COLUMN monthly_reconciliation.unexplained_usd IS 'Their exact price sum, DECIMAL(38,6): 0.000000 when every priced call is explained.';
COMMENT ON COLUMN monthly_reconciliation.invoices IS 'Invoices, neither draft nor void, whose usage_month is the month.';
COMMENT ON COLUMN monthly_reconciliation.invoices_incomplete IS 'Of those, the ones whose stored lines do not add up to their subtotal.';
COMMENT ON COLUMN monthly_reconciliation.invoice_lines IS 'Lines of those invoices.';
COMMENT ON COLUMN monthly_reconciliation.invoiced_usd IS 'Exact sum of those lines'' amounts, every class, DECIMAL(38,6); 0 when the month has no invoice yet.';
COMMENT ON COLUMN monthly_reconciliation.usage_lines_usd IS 'Of invoiced_usd, the usage lines.';
COMMENT ON COLUMN monthly_reconciliation.other_charges_usd IS 'Of invoiced_usd, the other charges (subscriptions, manual charges): shown apart, never a difference.';
COMMENT ON COLUMN monthly_reconciliation.credits_usd IS 'Of invoiced_usd, the credit and discount lines (negative).';
COMMENT ON COLUMN monthly_reconciliation.lines_differing IS 'Usage items of the month whose lines do not add up to their calls'' cost: lines whose difference_usd is not 0 (invoice_line_reconciliation status differs).';
COMMENT ON COLUMN monthly_reconciliation.lines_difference_usd IS 'Exact sum of their differences, line minus calls, DECIMAL(38,6).';
COMMENT ON COLUMN monthly_reconciliation.status IS 'differs (a non-zero unexplained amount: an unexplained priced call or a usage line that disagrees), not_invoiced (calls wait for an invoice, none is invoiced yet), awaiting (some calls wait for an invoice) or agrees (every priced call explained).';
