-- Invoices with money refunded after payment (invoice_settlement.refunded).
SELECT
  'refund' AS rule,
  'invoice ' || coalesce(invoice_number, invoice_id) AS subject,
  strftime(billing_month, '%Y-%m') AS period,
  lower(currency) AS unit,
  refunded::VARCHAR AS value,
  paid::VARCHAR AS threshold,
  'refunded' AS note
FROM invoice_settlement
WHERE refunded > 0
ORDER BY invoice_created_at, invoice_id;
