-- The books of each month, per currency: the calls' usage split into the classes that explain it,
-- the invoices' usage lines against it, then discounts, tax, other charges and credits, what was
-- charged, and how it was settled (paid, refunded, outstanding, written off). The calls are priced
-- in USD, so a month's usage is on its USD row; an invoice in another currency is a row of its own,
-- never compared with the calls. Applied after credits.sql (monthly_credits) and ledger.sql.

-- status:
--   calls_missing   the month's invoices bill calls the warehouse does not hold: records of the
--                   month were rejected, a line's item is carried only by rejected records, or
--                   lines bill items no stored call carries in a month of which no call is stored;
--                   what the month agrees or differs by is not known;
--   differs         something no rule explains: an unexplained priced call, a usage line that
--                   disagrees with its calls, or an invoice total its lines do not explain;
--   other_currency  an invoice in another currency (its row), or calls invoiced in one (the USD row):
--                   invoiced, but not comparable with the calls' USD prices;
--   not_invoiced    calls wait for an invoice and none is invoiced yet;
--   awaiting        some calls wait for an invoice;
--   agrees          every priced call is explained and every invoice adds up.
CREATE OR REPLACE VIEW monthly_reconciliation AS
WITH usage AS (
  SELECT
    month,
    'USD' AS currency,
    sum(calls)::BIGINT AS calls,
    sum(priced_calls)::BIGINT AS priced_calls,
    sum(price_usd)::DECIMAL(38, 6) AS usage_cost_usd
  FROM call_grains
  GROUP BY 1
),
-- The classes of the priced calls (call_billing_class), from the calls' rollup.
classes AS MATERIALIZED (
  SELECT
    month,
    'USD' AS currency,
    sum(calls) FILTER (WHERE billing_class = 'invoiced')::BIGINT AS invoiced_calls,
    coalesce(sum(price_usd) FILTER (WHERE billing_class = 'invoiced'), 0) AS invoiced_usage_usd,
    sum(calls) FILTER (WHERE billing_reason = 'other_currency')::BIGINT AS other_currency_calls,
    coalesce(sum(price_usd) FILTER (WHERE billing_reason = 'other_currency'), 0) AS other_currency_usd,
    sum(calls) FILTER (WHERE billing_class = 'not_billed')::BIGINT AS not_billed_calls,
    coalesce(sum(price_usd) FILTER (WHERE billing_class = 'not_billed'), 0) AS not_billed_usd,
    sum(calls) FILTER (WHERE billing_class = 'awaiting_invoice')::BIGINT AS awaiting_calls,
    coalesce(sum(price_usd) FILTER (WHERE billing_class = 'awaiting_invoice'), 0) AS awaiting_usd,
    sum(calls) FILTER (WHERE billing_reason = 'invoice_incomplete')::BIGINT AS on_incomplete_invoice_calls,
    sum(calls) FILTER (WHERE billing_class = 'unexplained')::BIGINT AS unexplained_calls,
    sum(nonzero_priced_calls) FILTER (WHERE billing_class = 'unexplained')::BIGINT AS unexplained_priced,
    coalesce(sum(price_usd) FILTER (WHERE billing_class = 'unexplained'), 0) AS unexplained_usd
  FROM call_grains
  WHERE priced_calls > 0
  GROUP BY month
),
rejected AS (
  SELECT month, count(*) AS rejected_calls
  FROM rejected_calls
  WHERE month IS NOT NULL
  GROUP BY month
),
invoices AS (
  SELECT
    usage_month AS month,
    currency,
    count(*) AS invoices,
    count(*) FILTER (WHERE NOT lines_complete) AS invoices_incomplete
  FROM invoice_totals
  WHERE is_final
  GROUP BY ALL
),
lines AS MATERIALIZED (
  SELECT
    r.usage_month AS month,
    t.currency,
    count(*) AS invoice_lines,
    coalesce(sum(r.line_amount) FILTER (WHERE r.line_class IN ('usage', 'reissued_usage', 'rejected_usage')), 0)
      AS usage_lines,
    count(*) FILTER (WHERE r.difference <> 0) AS lines_differing,
    coalesce(sum(r.difference), 0) AS lines_difference,
    count(*) FILTER (WHERE r.line_class = 'rejected_usage') AS rejected_usage_lines,
    count(*) FILTER (WHERE r.line_class = 'other_charge' AND r.invoice_item IS NOT NULL AND r.line_amount > 0)
      AS item_lines_without_calls
  FROM invoice_line_reconciliation AS r
  JOIN invoice_totals AS t ON t.invoice_id = r.invoice_id
  WHERE r.invoice_final
  GROUP BY ALL
),
charged AS MATERIALIZED (
  SELECT
    c.billing_month AS month,
    c.currency,
    coalesce(sum(c.billed_cost) FILTER (WHERE c.kind = 'discount'), 0) AS discounts,
    coalesce(sum(c.billed_cost) FILTER (WHERE c.kind = 'tax'), 0) AS tax,
    coalesce(sum(c.billed_cost) FILTER (WHERE c.kind IN ('subscription', 'purchase')), 0) AS other_charges,
    coalesce(sum(c.billed_cost) FILTER (WHERE c.kind = 'credit' AND c.reason = 'invoice_line'), 0) AS credits,
    coalesce(sum(c.billed_cost) FILTER (WHERE c.reason = 'lines_not_listed'), 0) AS lines_not_listed,
    coalesce(sum(c.billed_cost) FILTER (WHERE c.reason = 'unexplained_total'), 0) AS unexplained_totals,
    count(*) FILTER (WHERE c.reason = 'unexplained_total') AS invoices_unexplained
  FROM invoice_charges AS c
  JOIN invoice_totals AS t ON t.invoice_id = c.invoice_id
  WHERE t.is_final
  GROUP BY ALL
),
settled AS (
  SELECT
    billing_month AS month,
    currency,
    sum(charged) AS charged,
    sum(balance_applied) AS balance_applied,
    sum(due) AS due,
    sum(paid) AS paid,
    sum(refunded) AS refunded,
    sum(outstanding) AS outstanding,
    sum(written_off) AS written_off,
    sum(unsettled) AS unsettled
  FROM invoice_settlement
  GROUP BY ALL
),
months AS (
  SELECT month, currency FROM usage
  UNION SELECT month, currency FROM invoices
  UNION SELECT month, currency FROM lines
  UNION SELECT month, 'USD' FROM rejected
),
joined AS (
  SELECT
    m.month,
    m.currency,
    coalesce(u.calls, 0) AS calls,
    coalesce((SELECT calls FROM usage AS w WHERE w.month = m.month), 0) AS month_calls,
    coalesce(u.priced_calls, 0) AS priced_calls,
    coalesce(u.usage_cost_usd, 0) AS usage_cost_usd,
    coalesce(c.invoiced_calls, 0) AS invoiced_calls,
    coalesce(c.invoiced_usage_usd, 0) AS invoiced_usage_usd,
    coalesce(c.other_currency_calls, 0) AS other_currency_calls,
    coalesce(c.other_currency_usd, 0) AS other_currency_usd,
    coalesce(c.not_billed_calls, 0) AS not_billed_calls,
    coalesce(c.not_billed_usd, 0) AS not_billed_usd,
    CASE WHEN k.credits_consumed_usd IS NOT NULL AND m.currency = 'USD' THEN
      least(coalesce(c.not_billed_usd, 0), k.credits_consumed_usd)
    END AS credits_paid_usd,
    CASE WHEN m.currency = 'USD' THEN k.credits_consumed_usd END AS credits_consumed_usd,
    CASE WHEN m.currency = 'USD' THEN k.monthly_allowance_usd END AS monthly_allowance_usd,
    coalesce(c.awaiting_calls, 0) AS awaiting_calls,
    coalesce(c.awaiting_usd, 0) AS awaiting_usd,
    coalesce(c.on_incomplete_invoice_calls, 0) AS on_incomplete_invoice_calls,
    coalesce(c.unexplained_calls, 0) AS unexplained_calls,
    coalesce(c.unexplained_priced, 0) AS unexplained_priced,
    coalesce(c.unexplained_usd, 0) AS unexplained_usd,
    coalesce(j.rejected_calls, 0) AS rejected_calls,
    coalesce(i.invoices, 0) AS invoices,
    coalesce(i.invoices_incomplete, 0) AS invoices_incomplete,
    coalesce(l.invoice_lines, 0) AS invoice_lines,
    coalesce(l.usage_lines, 0) AS usage_lines,
    coalesce(l.lines_differing, 0) AS lines_differing,
    coalesce(l.lines_difference, 0) AS lines_difference,
    coalesce(l.rejected_usage_lines, 0) AS rejected_usage_lines,
    coalesce(l.item_lines_without_calls, 0) AS item_lines_without_calls,
    coalesce(g.discounts, 0) AS discounts,
    coalesce(g.tax, 0) AS tax,
    coalesce(g.other_charges, 0) AS other_charges,
    coalesce(g.credits, 0) AS credits,
    coalesce(g.lines_not_listed, 0) AS lines_not_listed,
    coalesce(g.unexplained_totals, 0) AS unexplained_totals,
    coalesce(g.invoices_unexplained, 0) AS invoices_unexplained,
    coalesce(s.charged, 0) AS charged,
    coalesce(s.balance_applied, 0) AS balance_applied,
    coalesce(s.due, 0) AS due,
    coalesce(s.paid, 0) AS paid,
    coalesce(s.refunded, 0) AS refunded,
    coalesce(s.outstanding, 0) AS outstanding,
    coalesce(s.written_off, 0) AS written_off,
    coalesce(s.unsettled, 0) AS unsettled
  FROM months AS m
  LEFT JOIN usage AS u ON u.month = m.month AND u.currency = m.currency
  LEFT JOIN classes AS c ON c.month = m.month AND c.currency = m.currency
  LEFT JOIN rejected AS j ON j.month = m.month
  LEFT JOIN invoices AS i ON i.month = m.month AND i.currency = m.currency
  LEFT JOIN lines AS l ON l.month = m.month AND l.currency = m.currency
  LEFT JOIN charged AS g ON g.month = m.month AND g.currency = m.currency
  LEFT JOIN settled AS s ON s.month = m.month AND s.currency = m.currency
  LEFT JOIN monthly_credits AS k ON k.month = m.month
)
SELECT
  month,
  currency,
  CASE
    WHEN rejected_calls > 0 OR rejected_usage_lines > 0 OR (item_lines_without_calls > 0 AND month_calls = 0)
      THEN 'calls_missing'
    WHEN unexplained_priced > 0 OR lines_differing > 0 OR invoices_unexplained > 0 THEN 'differs'
    WHEN currency <> 'USD' THEN 'other_currency'
    WHEN awaiting_calls > 0 AND invoiced_calls = 0 AND invoice_lines = 0 THEN 'not_invoiced'
    WHEN awaiting_calls > 0 THEN 'awaiting'
    WHEN other_currency_calls > 0 THEN 'other_currency'
    ELSE 'agrees'
  END AS status,
  calls,
  priced_calls,
  usage_cost_usd::DECIMAL(38, 6) AS usage_cost_usd,
  invoiced_calls,
  invoiced_usage_usd::DECIMAL(38, 6) AS invoiced_usage_usd,
  other_currency_calls,
  other_currency_usd::DECIMAL(38, 6) AS other_currency_usd,
  not_billed_calls,
  not_billed_usd::DECIMAL(38, 6) AS not_billed_usd,
  credits_paid_usd::DECIMAL(38, 6) AS credits_paid_usd,
  credits_consumed_usd::DECIMAL(38, 6) AS credits_consumed_usd,
  monthly_allowance_usd::DECIMAL(38, 6) AS monthly_allowance_usd,
  awaiting_calls,
  awaiting_usd::DECIMAL(38, 6) AS awaiting_usd,
  on_incomplete_invoice_calls,
  unexplained_calls,
  unexplained_usd::DECIMAL(38, 6) AS unexplained_usd,
  rejected_calls,
  invoices,
  invoices_incomplete,
  invoice_lines,
  usage_lines::DECIMAL(38, 6) AS usage_lines,
  lines_differing,
  lines_difference::DECIMAL(38, 6) AS lines_difference,
  (lines_difference + unexplained_totals - unexplained_usd)::DECIMAL(38, 6) AS difference,
  discounts::DECIMAL(38, 6) AS discounts,
  tax::DECIMAL(38, 6) AS tax,
  other_charges::DECIMAL(38, 6) AS other_charges,
  credits::DECIMAL(38, 6) AS credits,
  lines_not_listed::DECIMAL(38, 6) AS lines_not_listed,
  charged::DECIMAL(38, 6) AS charged,
  balance_applied::DECIMAL(38, 6) AS balance_applied,
  due::DECIMAL(38, 6) AS due,
  paid::DECIMAL(38, 6) AS paid,
  refunded::DECIMAL(38, 6) AS refunded,
  outstanding::DECIMAL(38, 6) AS outstanding,
  written_off::DECIMAL(38, 6) AS written_off,
  unsettled::DECIMAL(38, 6) AS unsettled
FROM joined
ORDER BY month, currency <> 'USD', currency;
COMMENT ON VIEW monthly_reconciliation IS 'Per UTC month and currency: the calls'' usage (USD) = invoiced + not billed + awaiting + unexplained, exactly; the invoices'' usage lines, discounts, tax, other charges and credits; what was charged, paid, refunded, outstanding and written off. status says whether the month agrees, differs, is awaiting, not invoiced, invoiced in another currency, or missing calls. docs/reconciliation.md.';
COMMENT ON COLUMN monthly_reconciliation.month IS 'The UTC month (its first day): of the calls'' created_at, and of the invoices'' billing month (invoice_totals.usage_month).';
COMMENT ON COLUMN monthly_reconciliation.currency IS 'The currency of the invoice amounts of the row, upper case. The calls are priced in USD: their usage is on the USD row, and a row in another currency holds only invoices.';
COMMENT ON COLUMN monthly_reconciliation.status IS 'calls_missing (the month''s invoices bill calls the warehouse does not hold: rejected records, or item lines no stored call carries in a month of which no call is stored), differs (an unexplained priced call, a usage line that disagrees, or an invoice total its lines do not explain), other_currency (invoiced in another currency: not comparable), not_invoiced (calls wait, none invoiced yet), awaiting (some calls wait for an invoice) or agrees.';
COMMENT ON COLUMN monthly_reconciliation.calls IS 'Stored calls created in the month (USD row).';
COMMENT ON COLUMN monthly_reconciliation.priced_calls IS 'Those with a price.';
COMMENT ON COLUMN monthly_reconciliation.usage_cost_usd IS 'Exact sum of the month''s calls'' price_usd, DECIMAL(38,6): invoiced_usage_usd + not_billed_usd + awaiting_usd + unexplained_usd.';
COMMENT ON COLUMN monthly_reconciliation.invoiced_calls IS 'The month''s calls in class invoiced (call_billing_class), whichever invoice billed them.';
COMMENT ON COLUMN monthly_reconciliation.invoiced_usage_usd IS 'Their exact price sum, DECIMAL(38,6).';
COMMENT ON COLUMN monthly_reconciliation.other_currency_calls IS 'Of the invoiced calls, those on an invoice in another currency (reason other_currency): not comparable with their USD price.';
COMMENT ON COLUMN monthly_reconciliation.other_currency_usd IS 'Their exact price sum in USD.';
COMMENT ON COLUMN monthly_reconciliation.not_billed_calls IS 'The month''s calls in class not_billed: no invoice item, so credits or a free allowance paid them.';
COMMENT ON COLUMN monthly_reconciliation.not_billed_usd IS 'Their exact price sum, DECIMAL(38,6). Never a difference.';
COMMENT ON COLUMN monthly_reconciliation.credits_paid_usd IS 'How much of not_billed_usd the credits paid, as far as the balance snapshots saw: the lesser of not_billed_usd and credits_consumed_usd; NULL when the snapshots measured nothing in the month, and on rows of other currencies.';
COMMENT ON COLUMN monthly_reconciliation.credits_consumed_usd IS 'Credits consumed between balance snapshots taken within the month (monthly_credits); NULL without such a pair.';
COMMENT ON COLUMN monthly_reconciliation.monthly_allowance_usd IS 'The plan''s monthly API credit allowance as the month''s latest snapshot gives it (monthly_credits); NULL without one.';
COMMENT ON COLUMN monthly_reconciliation.awaiting_calls IS 'The month''s calls in class awaiting_invoice: the month has no invoice yet, a draft holds them, they were billed late, their void invoice was not reissued, or their invoice''s lines are incomplete.';
COMMENT ON COLUMN monthly_reconciliation.awaiting_usd IS 'Their exact price sum, DECIMAL(38,6).';
COMMENT ON COLUMN monthly_reconciliation.on_incomplete_invoice_calls IS 'Of the awaiting calls, those on an invoice whose lines fall short of its subtotal (reason invoice_incomplete).';
COMMENT ON COLUMN monthly_reconciliation.unexplained_calls IS 'The month''s calls in class unexplained (calls_not_invoiced).';
COMMENT ON COLUMN monthly_reconciliation.unexplained_usd IS 'Their exact price sum, DECIMAL(38,6): 0.000000 when every priced call is explained.';
COMMENT ON COLUMN monthly_reconciliation.rejected_calls IS 'Call records of the month the export rejected and holds only in rejects (rejected_calls), on every row of the month.';
COMMENT ON COLUMN monthly_reconciliation.invoices IS 'Invoices, neither draft nor void, billing the month in the row''s currency.';
COMMENT ON COLUMN monthly_reconciliation.invoices_incomplete IS 'Of those, the ones whose stored lines are not complete (invoice_totals.lines_complete).';
COMMENT ON COLUMN monthly_reconciliation.invoice_lines IS 'Lines of those invoices.';
COMMENT ON COLUMN monthly_reconciliation.usage_lines IS 'Exact sum of their usage lines (of stored, reissued or rejected calls), in currency: what the invoices billed for usage.';
COMMENT ON COLUMN monthly_reconciliation.lines_differing IS 'Usage lines (an item''s, or a reissue''s) whose amount differs from their calls'' cost (invoice_line_reconciliation.difference not 0).';
COMMENT ON COLUMN monthly_reconciliation.lines_difference IS 'Exact sum of those differences, line minus calls.';
COMMENT ON COLUMN monthly_reconciliation.difference IS 'What no rule explains, positive when the invoices bill more than the calls cost: lines_difference, plus invoice totals their lines do not explain, minus unexplained_usd. 0 when the month agrees.';
COMMENT ON COLUMN monthly_reconciliation.discounts IS 'Discounts on the invoices (item discounts and coupons), negative, in currency.';
COMMENT ON COLUMN monthly_reconciliation.tax IS 'Tax on the invoices (the tax field, or lines described as tax), in currency.';
COMMENT ON COLUMN monthly_reconciliation.other_charges IS 'Subscriptions and other purchases on the invoices: shown apart, never a difference.';
COMMENT ON COLUMN monthly_reconciliation.credits IS 'Credit lines on the invoices (negative): credits applied, never a difference.';
COMMENT ON COLUMN monthly_reconciliation.lines_not_listed IS 'What invoices with cut lines hold beyond their listed lines and calls (Stripe embeds only the first lines).';
COMMENT ON COLUMN monthly_reconciliation.charged IS 'Sum of the invoices'' totals: everything charged, after discounts and tax.';
COMMENT ON COLUMN monthly_reconciliation.balance_applied IS 'What the customer balance paid of the invoices.';
COMMENT ON COLUMN monthly_reconciliation.due IS 'Sum of their amount_due: charged less the balance applied.';
COMMENT ON COLUMN monthly_reconciliation.paid IS 'Sum of their amount_paid.';
COMMENT ON COLUMN monthly_reconciliation.refunded IS 'Sum of their amount_refunded: paid, then given back.';
COMMENT ON COLUMN monthly_reconciliation.outstanding IS 'Still owed: the remaining amount of open invoices.';
COMMENT ON COLUMN monthly_reconciliation.written_off IS 'Left unpaid on uncollectible invoices.';
COMMENT ON COLUMN monthly_reconciliation.unsettled IS 'due - paid - outstanding - written_off: 0 when the invoices'' own amounts agree.';
