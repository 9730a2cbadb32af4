-- Each invoice line in a class, and the usage lines against the calls they bill. Applied after
-- invoices.sql (invoice_totals, invoice_reissues, rejected_calls) and before reconciliation.sql.

-- Per invoice line: its class, and for usage its amount against the calls billed on its item.
-- Classes: usage (stored calls carry its item); reissued_usage (a reissue's line standing for the
-- calls of the void invoice it reissues); rejected_usage (no stored call carries its item, a
-- rejected call record does); tax (a line described as tax, VAT or GST); credit (negative);
-- other_charge (a subscription, a manual charge). Usage is compared only where it can be: lines of
-- counting invoices, in USD as the calls are priced (a line in another currency is other_currency,
-- never a difference). An item's lines together are compared with its calls, the difference shown
-- once, on the item's first line; a reissue's usage lines together with the calls of the invoice
-- it reissues, on its first such line. Lines read net of an item discount (invoice_totals.
-- item_discount_percent) are compared with the calls' cost less that discount, to the cent.

-- The item discount usage lines are read net of: none when they bill what their calls cost, the
-- coupon's percent of that cost when they bill that much less, else the percent's only when the
-- invoice's totals say its lines are net (invoice_totals.lines_net).
CREATE OR REPLACE MACRO net_discount_read(lines_amount, calls_cost, percent_discount, lines_net) AS
  CASE
    WHEN lines_amount = calls_cost THEN 0
    WHEN percent_discount <> 0 AND lines_amount = calls_cost - percent_discount THEN percent_discount
    WHEN lines_net THEN percent_discount
    ELSE 0
  END;
COMMENT ON MACRO net_discount_read IS 'net_discount_read(lines_amount, calls_cost, percent_discount, lines_net): the item discount usage lines are read net of: 0 when they bill their calls'' cost, percent_discount when they bill that much less, else percent_discount only when lines_net.';

CREATE OR REPLACE VIEW invoice_line_reconciliation AS
WITH classed AS (
  SELECT
    l.*,
    upper(l.currency) AS line_currency,
    t.invoice_number,
    t.invoice_status,
    t.invoice_created_at,
    t.is_final,
    t.lines_complete,
    t.usage_month,
    t.item_discount_percent,
    t.lines_net,
    c.calls AS item_calls,
    c.calls_cost_usd AS item_calls_cost_usd,
    CASE
      WHEN c.calls IS NOT NULL THEN 'usage'
      WHEN r.invoice_id IS NOT NULL THEN 'reissued_usage'
      WHEN l.invoice_item IN (SELECT invoice_item FROM rejected_calls WHERE invoice_item IS NOT NULL)
        THEN 'rejected_usage'
      WHEN regexp_matches(coalesce(l.description, ''), '(?i)\b(tax|vat|gst|hst)\b') THEN 'tax'
      WHEN l.amount < 0 THEN 'credit'
      ELSE 'other_charge'
    END AS line_class,
    r.void_invoice_id AS reissue_of
  FROM invoice_lines AS l
  JOIN invoice_totals AS t ON t.invoice_id = l.invoice_id
  LEFT JOIN invoice_item_calls AS c ON c.invoice_item = l.invoice_item
  LEFT JOIN reissued_lines AS r ON r.invoice_id = l.invoice_id AND r.line_number = l.line_number
),
-- Usage lines: the item's lines on invoices of the same standing, in order, and what its calls
-- should have cost on the first line's invoice.
items AS (
  SELECT
    *,
    row_number() OVER item_lines AS item_occurrence,
    count(*) OVER item_lines AS item_lines,
    sum(amount) OVER item_lines AS item_lines_amount,
    net_discount_read(
      sum(amount) OVER item_lines,
      item_calls_cost_usd,
      coalesce(round(item_calls_cost_usd * first_value(item_discount_percent) OVER item_lines * 0.01, 2), 0),
      coalesce(first_value(lines_net) OVER item_lines, false)
    ) AS discount
  FROM classed
  WHERE line_class = 'usage'
  WINDOW item_lines AS (
    PARTITION BY invoice_item, is_final
    ORDER BY invoice_created_at, invoice_id, line_number
    ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING
  )
),
-- Reissued usage: the reissue's such lines together, against the void invoice's usage items.
void_items AS (
  SELECT
    r.reissue_invoice_id,
    sum(c.calls) AS calls,
    sum(c.calls_cost_usd) AS calls_cost_usd,
    coalesce(sum(round(c.calls_cost_usd * t.item_discount_percent * 0.01, 2)), 0) AS percent_discount,
    any_value(t.lines_net) AS lines_net
  FROM invoice_reissues AS r
  JOIN invoice_totals AS t ON t.invoice_id = r.reissue_invoice_id
  JOIN (SELECT DISTINCT invoice_id, invoice_item FROM invoice_lines) AS v ON v.invoice_id = r.void_invoice_id
  JOIN invoice_item_calls AS c ON c.invoice_item = v.invoice_item
  GROUP BY r.reissue_invoice_id
),
-- Every column of the CTEs below is named: a view's `* EXCLUDE (a, b)` is printed back from the
-- database file in no fixed order, which would make the catalog differ from open to open.
reissued_lines_read AS (
  SELECT
    l.*,
    row_number() OVER reissue_lines AS item_occurrence,
    count(*) OVER reissue_lines AS item_lines,
    sum(l.amount) OVER reissue_lines AS item_lines_amount,
    net_discount_read(
      sum(l.amount) OVER reissue_lines,
      coalesce(v.calls_cost_usd, 0),
      coalesce(v.percent_discount, 0),
      coalesce(v.lines_net, false)
    ) AS discount,
    CASE WHEN row_number() OVER reissue_lines = 1 THEN v.calls END AS compared_calls,
    CASE WHEN row_number() OVER reissue_lines = 1 THEN v.calls_cost_usd END AS compared_cost,
    coalesce(v.calls_cost_usd, 0) AS void_calls_cost_usd
  FROM classed AS l
  LEFT JOIN void_items AS v ON v.reissue_invoice_id = l.invoice_id
  WHERE l.line_class = 'reissued_usage'
  WINDOW reissue_lines AS (
    PARTITION BY l.invoice_id ORDER BY l.line_number ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING
  )
),
reissued AS (
  SELECT *, item_lines_amount - (void_calls_cost_usd - discount) AS gap FROM reissued_lines_read
),
compared AS (
  SELECT
    *,
    item_lines_amount - (item_calls_cost_usd - discount) AS gap,
    item_calls AS compared_calls,
    item_calls_cost_usd AS compared_cost
  FROM items
  UNION ALL BY NAME
  SELECT * FROM reissued
  UNION ALL BY NAME
  SELECT *, 1 AS item_occurrence, 1 AS item_lines, amount AS item_lines_amount, 0 AS gap, 0 AS discount,
    NULL AS compared_calls, NULL AS compared_cost
  FROM classed
  WHERE line_class NOT IN ('usage', 'reissued_usage')
),
judged AS (
  SELECT
    *,
    line_class IN ('usage', 'reissued_usage') AND is_final AND line_currency = 'USD' AND item_occurrence = 1
      AS compared
  FROM compared
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
  line_currency AS currency,
  usage_month,
  line_class,
  reissue_of,
  amount::DECIMAL(38, 6) AS line_amount,
  item_lines,
  item_lines_amount::DECIMAL(38, 6) AS item_lines_amount,
  coalesce(compared_calls, 0) AS calls,
  coalesce(compared_cost, 0)::DECIMAL(38, 6) AS calls_cost_usd,
  CASE WHEN compared THEN discount ELSE 0 END::DECIMAL(38, 6) AS item_discount,
  CASE WHEN compared THEN gap ELSE 0 END::DECIMAL(38, 6) AS difference,
  CASE
    WHEN line_class NOT IN ('usage', 'reissued_usage') THEN line_class
    WHEN line_currency <> 'USD' THEN 'other_currency'
    WHEN NOT is_final THEN 'not_final'
    WHEN item_occurrence > 1 THEN 'same_item'
    WHEN gap = 0 THEN 'agrees'
    ELSE 'differs'
  END AS status
FROM judged;
COMMENT ON VIEW invoice_line_reconciliation IS 'Per invoice line: its class (usage, reissued_usage, rejected_usage, tax, credit, other_charge) and, for the usage of a counting invoice in USD, its amount against the calls billed on it, less an item discount the lines are net of. Compared as DECIMAL, never through a double. docs/reconciliation.md.';
COMMENT ON COLUMN invoice_line_reconciliation.invoice_id IS 'The invoice (invoices.id) of the line.';
COMMENT ON COLUMN invoice_line_reconciliation.invoice_number IS 'The invoice''s number (invoices.number).';
COMMENT ON COLUMN invoice_line_reconciliation.invoice_status IS 'The invoice''s status (invoices.status).';
COMMENT ON COLUMN invoice_line_reconciliation.invoice_created_at IS 'When the invoice was made (invoices.created_at, UTC).';
COMMENT ON COLUMN invoice_line_reconciliation.invoice_final IS 'The invoice counts as invoiced (invoice_totals.is_final): neither draft nor void.';
COMMENT ON COLUMN invoice_line_reconciliation.invoice_lines_complete IS 'The invoice''s stored lines are complete (invoice_totals.lines_complete).';
COMMENT ON COLUMN invoice_line_reconciliation.line_number IS 'The line''s position in the invoice, from 1.';
COMMENT ON COLUMN invoice_line_reconciliation.line_id IS 'The line''s id (invoice_lines.id).';
COMMENT ON COLUMN invoice_line_reconciliation.invoice_item IS 'The invoice item the line bills (invoice_lines.invoice_item).';
COMMENT ON COLUMN invoice_line_reconciliation.description IS 'The line''s description.';
COMMENT ON COLUMN invoice_line_reconciliation.currency IS 'The line''s currency, upper case: the calls are priced in USD, so only a USD line is compared with them.';
COMMENT ON COLUMN invoice_line_reconciliation.usage_month IS 'The UTC month (its first day) the line''s invoice bills (invoice_totals.usage_month).';
COMMENT ON COLUMN invoice_line_reconciliation.line_class IS 'usage: stored calls carry its item; reissued_usage: a reissue''s line standing for the calls of the void invoice it reissues (invoice_reissues); rejected_usage: no stored call carries its item but a rejected call record does (rejected_calls); tax: described as tax, VAT or GST; credit: negative; other_charge: anything else (a subscription, a manual charge).';
COMMENT ON COLUMN invoice_line_reconciliation.reissue_of IS 'For a line of a reissue: the void invoice it reissues; NULL otherwise.';
COMMENT ON COLUMN invoice_line_reconciliation.line_amount IS 'The line''s amount in its currency, exact DECIMAL(38,6).';
COMMENT ON COLUMN invoice_line_reconciliation.item_lines IS 'Usage: the lines, on invoices of the same standing, that bill the line''s item (for a reissue: its reissued usage lines), 1 but for an item billed more than once; 1 for other lines.';
COMMENT ON COLUMN invoice_line_reconciliation.item_lines_amount IS 'Exact sum of those lines'' amounts, DECIMAL(38,6): what is compared with the calls.';
COMMENT ON COLUMN invoice_line_reconciliation.calls IS 'Stored calls billed on the line''s item (for a reissue''s first usage line: on the void invoice''s items); 0 for other lines.';
COMMENT ON COLUMN invoice_line_reconciliation.calls_cost_usd IS 'Exact sum of those calls'' price_usd, DECIMAL(38,6).';
COMMENT ON COLUMN invoice_line_reconciliation.item_discount IS 'On the compared line, when the invoice''s lines are net of a percent coupon (invoice_totals.item_discount_percent): that percent of calls_cost_usd, to the cent, which the lines leave out; 0 otherwise.';
COMMENT ON COLUMN invoice_line_reconciliation.difference IS 'On the compared line (the first of an item, or of a reissue''s usage, on a counting invoice in USD): item_lines_amount - (calls_cost_usd - item_discount), exact, positive when the invoice bills more than the calls cost; 0 on every other line, so a difference is counted once.';
COMMENT ON COLUMN invoice_line_reconciliation.status IS 'Usage lines: agrees, differs, same_item (a later line of what is compared on the first), not_final (a draft or void invoice) or other_currency (not in USD: not comparable with the calls); other lines: their line_class.';

-- Lines no stored call is billed on: other charges, credits, tax, and lines of rejected calls.
CREATE OR REPLACE VIEW invoice_lines_without_calls AS
SELECT * FROM invoice_line_reconciliation WHERE line_class NOT IN ('usage', 'reissued_usage');
COMMENT ON VIEW invoice_lines_without_calls IS 'The invoice lines no stored call is billed on: other charges (a subscription, a manual charge), credits, tax, and lines whose calls were rejected.';
