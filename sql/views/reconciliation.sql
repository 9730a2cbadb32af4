-- Every priced call in exactly one billing class, and the calls no invoice explains. It classifies
-- rather than blames: a call is invoiced, not billed, awaiting an invoice or unexplained, and only an
-- unexplained call is a disagreement. A call is billed on the invoice item named by its
-- stripe_invoice_item_id ('' means none). docs/reconciliation.md says which invoice shape each
-- class comes from. Applied after invoices.sql and invoice_lines.sql.

-- Every priced call in exactly one billing class: invoiced, not_billed, awaiting_invoice or
-- unexplained, with the reason and the invoice (sql/statements/classify_calls.sql says how). The
-- loader stores them on each call, and updates them when the call or an invoice changes
-- (src/load/callClasses.ts), so that no query classifies a million calls again.
CREATE OR REPLACE VIEW call_billing_class AS
SELECT
  id,
  created_at,
  created_month AS month,
  price_usd,
  nullif(stripe_invoice_item_id, '') AS stripe_invoice_item_id,
  billing_class,
  billing_reason AS reason,
  billing_invoice_id AS invoice_id
FROM api_calls
WHERE price_usd IS NOT NULL;
COMMENT ON VIEW call_billing_class IS 'Every priced call in exactly one billing class: invoiced, not_billed (no invoice item: credits or a free allowance paid), awaiting_invoice or unexplained, with the reason. docs/reconciliation.md.';
COMMENT ON COLUMN call_billing_class.id IS 'The call (api_calls.id).';
COMMENT ON COLUMN call_billing_class.created_at IS 'When the call was created (UTC).';
COMMENT ON COLUMN call_billing_class.month IS 'The call''s UTC month (its first day).';
COMMENT ON COLUMN call_billing_class.price_usd IS 'The call''s price, exact DECIMAL(18,6).';
COMMENT ON COLUMN call_billing_class.stripe_invoice_item_id IS 'The invoice item the call names; NULL when it names none.';
COMMENT ON COLUMN call_billing_class.billing_class IS 'invoiced: its item is on a line of an invoice neither draft nor void (or of a void one a later invoice reissued); not_billed: it names no item (set only if billable), so credits or a free allowance covered it; awaiting_invoice: see reason; unexplained: no line names its item although the invoice due to carry it counts and its lines are whole.';
COMMENT ON COLUMN call_billing_class.reason IS 'on_invoice, other_currency (on an invoice in another currency: invoiced, not comparable with the USD price), reissued (its item only on a void invoice, settled by the invoice that reissued it), no_invoice_item, billing_pending (no item yet, billing not completed), invoice_draft, invoice_void, month_open (no invoice since its month ended), billed_late (billed after its month''s invoice: waits for the next), invoice_incomplete (the due invoice''s lines fall short of its subtotal), item_not_on_any_line.';
COMMENT ON COLUMN call_billing_class.invoice_id IS 'The invoice whose line names the call''s item (for a reissued call: the reissue), else the invoice due to carry it (the first not void made after its month ended and it was last updated); NULL without an item or such an invoice.';

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

