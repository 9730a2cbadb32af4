-- Invoices in another currency than the calls' USD prices: what they charge is never compared
-- with the calls, so the reconciliation cannot vouch for them.
SELECT
  'other-currency' AS rule,
  'invoice ' || coalesce(invoice_number, invoice_id) AS subject,
  strftime(billing_month, '%Y-%m') AS period,
  lower(currency) AS unit,
  charged::VARCHAR AS value,
  '' AS threshold,
  'invoiced in ' || currency || ': not compared with the calls'' USD prices' AS note
FROM invoice_settlement
WHERE currency <> 'USD'
ORDER BY invoice_created_at, invoice_id;
