-- The charge ledger: one row per charge the account incurred, from the calls (usage, at the grain of
-- UTC day x billing account x member x token x endpoint template) and from the invoices (other
-- charges, tax, discounts, credits, refunds, and adjustments for what no rule explains). Each row
-- has its kind, its billed, effective and list cost in its currency, its invoice, its billing and
-- charge periods, and its state. The identities it keeps, exactly in DECIMAL:
--   * the rows of a counting invoice, but its customer-balance row, add up to its total; with that
--     row, to its amount_due;
--   * a month's usage rows from the calls add up to its usage in monthly_reconciliation, which is
--     the sum of the four classes of call_billing_class.
-- docs/reconciliation.md says which shape each kind comes from. Applied after ledger_calls.sql and
-- ledger_invoices.sql.

-- The charge ledger: every row of usage_charges and invoice_charges. An invoice's rows are of the
-- warehouse's account (the org in org scope, else the user); a call's usage is of the org it is
-- billable through, else of its user. Billed, effective and list cost are equal: Zoo's prices are
-- its public list prices, nothing is amortized, and discounts and credits are rows of their own.
CREATE OR REPLACE VIEW charges AS
WITH account AS (
  SELECT
    coalesce(
      (SELECT owner_id FROM internal.warehouse_identity WHERE owner_id IS NOT NULL LIMIT 1),
      (SELECT user_id::VARCHAR FROM internal.export_state WHERE user_id IS NOT NULL LIMIT 1),
      (SELECT any_value(coalesce(org_id, user_id))::VARCHAR FROM api_calls)
    ) AS id,
    CASE WHEN (SELECT any_value(scope) FROM internal.warehouse_identity) = 'org' THEN 'org' ELSE 'user' END AS kind
),
rows AS (
  SELECT * FROM usage_charges
  UNION ALL BY NAME
  SELECT c.*, a.id AS billing_account_id, a.kind AS billing_account_kind FROM invoice_charges AS c, account AS a
)
SELECT
  charge_id,
  kind,
  reason,
  correction,
  currency,
  billed_cost,
  billed_cost AS effective_cost,
  billed_cost AS list_cost,
  price_usd,
  invoice_id,
  invoice_number,
  related_invoice_id,
  billing_account_id,
  billing_account_kind,
  billing_month AS billing_period_start,
  CAST(billing_month + INTERVAL 1 MONTH AS DATE) AS billing_period_end,
  charge_period_start,
  charge_period_end,
  state,
  day,
  member_id,
  member_email,
  token_hash,
  token_label,
  endpoint_template,
  calls,
  pending_calls,
  seconds,
  billing_class,
  description
FROM rows;
COMMENT ON VIEW charges IS 'The charge ledger: one row per charge (usage of the calls per UTC day x billing account x member x token x endpoint template; the invoices'' other charges, tax, discounts, credits, refunds and adjustments), with its kind, cost, invoice, periods and state. A counting invoice''s rows but its customer_balance row add up to its total exactly, and with it to its amount_due. docs/reconciliation.md.';
COMMENT ON COLUMN charges.charge_id IS 'A stable id of the row: an MD5 of what the row is grouped by.';
COMMENT ON COLUMN charges.kind IS 'usage (calls, or an invoice''s usage of rejected calls), subscription, purchase (another charge on an invoice), tax, discount, credit (API credits, a credit line, the customer balance), refund, or adjustment (a difference, or lines the API did not list).';
COMMENT ON COLUMN charges.reason IS 'Where the row comes from: calls, calls_rejected, invoice_line, item_discount, coupon, invoice_tax, api_credits, customer_balance, refund; adjustments: line_differs, reissue_differs, unexplained_calls, unexplained_total (these four are differences), lines_not_listed, balance_carried, draft_unsettled.';
COMMENT ON COLUMN charges.correction IS 'billed_late, reissued or refund: the row corrects a billing period already invoiced (FOCUS ChargeClass Correction); NULL otherwise.';
COMMENT ON COLUMN charges.currency IS 'The currency of the row''s costs, upper case: its invoice''s, else USD (the calls'' prices).';
COMMENT ON COLUMN charges.billed_cost IS 'What the row charges, exact DECIMAL(38,6) in currency: negative for discounts, credits and refunds.';
COMMENT ON COLUMN charges.effective_cost IS 'Equal to billed_cost: nothing is amortized.';
COMMENT ON COLUMN charges.list_cost IS 'Equal to billed_cost: Zoo charges its public prices, and discounts and credits are rows of their own.';
COMMENT ON COLUMN charges.price_usd IS 'Usage rows from the calls (and the credit and adjustment rows beside them): exact sum of the calls'' price_usd; NULL for invoice rows.';
COMMENT ON COLUMN charges.invoice_id IS 'The invoice the row is on (a draft''s for an estimate); NULL when none yet, for credits that paid calls, for refunds, and for usage with no invoice to carry it.';
COMMENT ON COLUMN charges.invoice_number IS 'That invoice''s number.';
COMMENT ON COLUMN charges.related_invoice_id IS 'For a refund: the invoice it refunds; NULL otherwise.';
COMMENT ON COLUMN charges.billing_account_id IS 'Who is billed: the org the calls are billable through, else their user; for invoice rows the warehouse''s account (the org in org scope, the user in user scope).';
COMMENT ON COLUMN charges.billing_account_kind IS 'org (billed to an org) or user (billed to a person).';
COMMENT ON COLUMN charges.billing_period_start IS 'The first day (UTC) of the billing period, a month: its invoice''s usage month; for a call without an invoice its own month; for a refund the month its invoice was issued.';
COMMENT ON COLUMN charges.billing_period_end IS 'The day after the billing period (exclusive end).';
COMMENT ON COLUMN charges.charge_period_start IS 'When the charge''s period starts (UTC, inclusive): the calls'' day, or the billing period of an invoice row.';
COMMENT ON COLUMN charges.charge_period_end IS 'When the charge''s period ends (UTC, exclusive).';
COMMENT ON COLUMN charges.state IS 'estimated (not invoiced yet, or on a draft), awaiting (an issued invoice should carry it and does not show it), invoiced (on an invoice of unknown status), paid, outstanding (on an open invoice) or written_off (on an uncollectible invoice).';
COMMENT ON COLUMN charges.day IS 'Usage rows: the UTC day of the calls; NULL for invoice rows.';
COMMENT ON COLUMN charges.member_id IS 'Usage rows: the user who made the calls (api_calls.user_id).';
COMMENT ON COLUMN charges.member_email IS 'Usage rows: that user''s email as stored (api_calls.email: kept, hashed or NULL per --email-column).';
COMMENT ON COLUMN charges.token_hash IS 'Usage rows: the token the calls were made with (api_calls.token_hash).';
COMMENT ON COLUMN charges.token_label IS 'Usage rows: the label of that token when call_token_match matched it.';
COMMENT ON COLUMN charges.endpoint_template IS 'Usage rows: the calls'' route template (api_calls.endpoint_template).';
COMMENT ON COLUMN charges.calls IS 'Usage rows: how many calls; an invoice''s usage of rejected calls: how many rejected records carry its item; NULL otherwise.';
COMMENT ON COLUMN charges.pending_calls IS 'Usage rows: calls whose billing has not completed (their price may still change).';
COMMENT ON COLUMN charges.seconds IS 'Usage rows: the seconds the calls were billed for (api_calls.seconds, else minutes x 60).';
COMMENT ON COLUMN charges.billing_class IS 'Usage rows: the calls'' class (call_billing_class.billing_class); NULL for calls not priced yet and invoice rows.';
COMMENT ON COLUMN charges.description IS 'What the row is, for people.';

-- What each counting invoice charged, what the customer's balance paid, what was due, and how that
-- was settled: paid, refunded, outstanding (an open invoice's remaining amount) or written off (an
-- uncollectible one's). paid + outstanding + written_off = due; unsettled shows any amount the
-- invoice's own fields leave unaccounted for.
CREATE OR REPLACE VIEW invoice_settlement AS
SELECT
  t.invoice_id,
  t.invoice_number,
  t.invoice_status,
  t.invoice_created_at,
  t.currency,
  t.usage_month AS billing_month,
  t.total AS charged,
  t.balance_applied,
  t.amount_due AS due,
  i.amount_paid::DECIMAL(38, 6) AS paid,
  i.amount_refunded::DECIMAL(38, 6) AS refunded,
  CASE WHEN t.invoice_status = 'uncollectible' THEN 0 ELSE i.amount_remaining END::DECIMAL(38, 6) AS outstanding,
  CASE WHEN t.invoice_status = 'uncollectible' THEN t.amount_due - i.amount_paid ELSE 0 END::DECIMAL(38, 6)
    AS written_off,
  CASE
    WHEN t.invoice_status = 'uncollectible' THEN 0
    ELSE t.amount_due - i.amount_paid - i.amount_remaining
  END::DECIMAL(38, 6) AS unsettled
FROM invoice_totals AS t
JOIN invoices AS i ON i.id = t.invoice_id
WHERE t.is_final;
COMMENT ON VIEW invoice_settlement IS 'Per counting invoice, in its currency: charged (its total), what the customer balance paid, what was due, and how it was settled: paid, refunded, outstanding, written off. paid + outstanding + written_off + unsettled = due.';
COMMENT ON COLUMN invoice_settlement.invoice_id IS 'The invoice (invoices.id).';
COMMENT ON COLUMN invoice_settlement.invoice_number IS 'Its number.';
COMMENT ON COLUMN invoice_settlement.invoice_status IS 'Its status: open, paid, uncollectible, or unknown.';
COMMENT ON COLUMN invoice_settlement.invoice_created_at IS 'When it was made (UTC).';
COMMENT ON COLUMN invoice_settlement.currency IS 'Its currency, upper case: every amount of the row is in it.';
COMMENT ON COLUMN invoice_settlement.billing_month IS 'The month it bills (invoice_totals.usage_month), its first day.';
COMMENT ON COLUMN invoice_settlement.charged IS 'Its total: every charge after discounts and tax.';
COMMENT ON COLUMN invoice_settlement.balance_applied IS 'What the customer''s Stripe balance paid of it (charged - due); negative when an earlier debt was added.';
COMMENT ON COLUMN invoice_settlement.due IS 'Its amount_due: what it asked to be paid.';
COMMENT ON COLUMN invoice_settlement.paid IS 'Its amount_paid.';
COMMENT ON COLUMN invoice_settlement.refunded IS 'Its amount_refunded: paid, then given back.';
COMMENT ON COLUMN invoice_settlement.outstanding IS 'What is still owed: amount_remaining of an invoice not written off.';
COMMENT ON COLUMN invoice_settlement.written_off IS 'What an uncollectible invoice left unpaid: due - paid.';
COMMENT ON COLUMN invoice_settlement.unsettled IS 'due - paid - outstanding - written_off: 0 when the invoice''s own amounts agree with each other.';
