-- Each priced call of the days in the temp table class_days in exactly one billing class,
-- with the reason and the invoice: what src/load/callClasses.ts stores in api_calls (billing_class,
-- billing_reason, billing_invoice_id) and call_billing_class reads. A call's class depends on its
-- own row and the invoices only, never on other calls, so classifying some months leaves the
-- others' classes right. docs/reconciliation.md says which invoice shape each class comes from.
-- Every priced call in exactly one billing class, with the reason:
--   invoiced          its item is on a line of an invoice that counts (on_invoice), of one in
--                     another currency than the calls' USD (other_currency: invoiced, but not
--                     comparable), or only on a void invoice that a later one reissued (reissued);
--   not_billed        it names no invoice item, which the spec sets only "if it is billable":
--                     credits or a free allowance covered it (no_invoice_item);
--   awaiting_invoice  billing still pending (billing_pending), its item only on a draft
--                     (invoice_draft) or a void invoice not reissued (invoice_void), or no line
--                     names its item yet: its month has no invoice yet (month_open), it was billed
--                     after its month's invoice was made (billed_late), or the invoice due to carry
--                     it has lines that fall short of its subtotal (invoice_incomplete);
--   unexplained       no line names its item although the invoice due to carry it counts and its
--                     lines are whole (item_not_on_any_line).
-- The invoice due to carry a call is the first invoice, not void, made at or after both the end
-- of the call's UTC month and its last update (when its billing completed; a call billed late
-- waits for the next invoice).
WITH item_lines AS (
  SELECT
    l.invoice_item,
    bool_or(t.is_final) AS on_final,
    bool_or(t.invoice_status = 'draft') AS on_draft,
    arg_min(l.invoice_id, t.invoice_created_at) FILTER (WHERE t.is_final) AS final_invoice_id,
    arg_min(upper(l.currency), t.invoice_created_at) FILTER (WHERE t.is_final) AS final_currency,
    arg_min(l.invoice_id, t.invoice_created_at) AS any_invoice_id,
    min(r.reissue_invoice_id) AS reissue_invoice_id
  FROM invoice_lines AS l
  JOIN invoice_totals AS t ON t.invoice_id = l.invoice_id
  LEFT JOIN invoice_reissues AS r ON r.void_invoice_id = l.invoice_id
  WHERE l.invoice_item IS NOT NULL AND l.invoice_item <> ''
  GROUP BY l.invoice_item
),
calls AS (
  SELECT
    a.id,
    a.created_at,
    a.completed_at,
    a.created_month AS month,
    a.price_usd,
    nullif(a.stripe_invoice_item_id, '') AS stripe_invoice_item_id,
    a.updated_at
  FROM api_calls AS a
  WHERE a.price_usd IS NOT NULL AND a.created_day IN (SELECT day FROM class_days)
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
    il.final_currency,
    il.reissue_invoice_id,
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
      WHEN on_final AND final_currency <> 'USD' THEN 'other_currency'
      WHEN on_final THEN 'on_invoice'
      WHEN on_draft THEN 'invoice_draft'
      WHEN reissue_invoice_id IS NOT NULL THEN 'reissued'
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
  CASE
    WHEN reason IN ('on_invoice', 'other_currency', 'reissued') THEN 'invoiced'
    WHEN reason = 'no_invoice_item' THEN 'not_billed'
    WHEN reason = 'item_not_on_any_line' THEN 'unexplained'
    ELSE 'awaiting_invoice'
  END AS billing_class,
  reason,
  CASE WHEN reason = 'reissued' THEN reissue_invoice_id
    WHEN line_invoice_id IS NOT NULL THEN line_invoice_id
    WHEN stripe_invoice_item_id IS NOT NULL THEN due_invoice_id END AS invoice_id
FROM classed
