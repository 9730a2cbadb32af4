-- Invoices still owed more than $days days after they were made (invoice_settlement.outstanding).
SELECT
  'outstanding' AS rule,
  'invoice ' || coalesce(invoice_number, invoice_id) AS subject,
  strftime(billing_month, '%Y-%m') AS period,
  'days' AS unit,
  CAST((epoch_us(CAST($now AS TIMESTAMPTZ)) - epoch_us(invoice_created_at)) // 86400000000 AS VARCHAR) AS value,
  CAST($days AS VARCHAR) AS threshold,
  '{outstanding} outstanding of {due} due' AS note,
  {'outstanding': outstanding::VARCHAR || ' ' || currency, 'due': due::VARCHAR || ' ' || currency} AS amounts
FROM invoice_settlement
WHERE outstanding > 0
  AND invoice_created_at < CAST($now AS TIMESTAMPTZ)
    - to_microseconds(CAST(CAST($days AS DECIMAL(18, 6)) * 86400000000 AS BIGINT))
ORDER BY invoice_created_at, invoice_id;
