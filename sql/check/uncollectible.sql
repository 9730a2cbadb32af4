-- Invoices marked uncollectible: what they left unpaid is written off (invoice_settlement).
SELECT
  'uncollectible' AS rule,
  'invoice ' || coalesce(invoice_number, invoice_id) AS subject,
  strftime(billing_month, '%Y-%m') AS period,
  lower(currency) AS unit,
  written_off::VARCHAR AS value,
  due::VARCHAR AS threshold,
  'written off' AS note
FROM invoice_settlement
WHERE invoice_status = 'uncollectible'
ORDER BY invoice_created_at, invoice_id;
