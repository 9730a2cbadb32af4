-- The lines of each invoice, in the invoice's order; replaced with their invoice on every run.
CREATE TABLE IF NOT EXISTS invoice_lines (
  invoice_id       VARCHAR NOT NULL,
  line_number      INTEGER NOT NULL,
  id               VARCHAR,
  amount           DECIMAL(18, 6) NOT NULL,
  currency         VARCHAR NOT NULL,
  description      VARCHAR,
  invoice_item     VARCHAR,
  metadata         JSON NOT NULL,
  extra            JSON,
  last_seen_run_id VARCHAR NOT NULL,
  money_raw        JSON,
  money_flags      VARCHAR
);
ALTER TABLE invoice_lines ADD COLUMN IF NOT EXISTS money_raw JSON;
ALTER TABLE invoice_lines ADD COLUMN IF NOT EXISTS money_flags VARCHAR;
COMMENT ON TABLE invoice_lines IS 'The lines of each invoice (API: Invoice.lines, InvoiceLineItem), in the invoice''s order, replaced with their invoice on every run. See docs/invoices-and-credits.md.';
COMMENT ON COLUMN invoice_lines.invoice_id IS 'The invoice (invoices.id) the line belongs to.';
COMMENT ON COLUMN invoice_lines.line_number IS 'The line''s position in Invoice.lines, from 1 (invoice items newest first, then the subscription, per the spec).';
COMMENT ON COLUMN invoice_lines.id IS 'API: InvoiceLineItem.id. The line''s unique identifier; NULL when not given.';
COMMENT ON COLUMN invoice_lines.amount IS 'API: InvoiceLineItem.amount. The line''s amount in USD, exact DECIMAL(18,6); 0 when absent (spec default).';
COMMENT ON COLUMN invoice_lines.currency IS 'API: InvoiceLineItem.currency. Three-letter ISO currency code as sent (spec default USD).';
COMMENT ON COLUMN invoice_lines.description IS 'API: InvoiceLineItem.description. The line''s description.';
COMMENT ON COLUMN invoice_lines.invoice_item IS 'API: InvoiceLineItem.invoice_item. The invoice item the line bills: calls whose api_calls.stripe_invoice_item_id is this are billed on it.';
COMMENT ON COLUMN invoice_lines.metadata IS 'API: InvoiceLineItem.metadata. Key-value strings, as a JSON object ({} when absent).';
COMMENT ON COLUMN invoice_lines.extra IS 'Fields of the API''s InvoiceLineItem this version does not know, as a JSON object; NULL when there are none.';
COMMENT ON COLUMN invoice_lines.last_seen_run_id IS 'Exporter bookkeeping: the run (runs.run_id) that last stored this line.';
COMMENT ON COLUMN invoice_lines.money_raw IS 'The line''s amount as printed, as a JSON object {"amount": text}, when it had more than 6 decimals (amount holds it rounded half-even); NULL when stored exactly.';
COMMENT ON COLUMN invoice_lines.money_flags IS '''rounded'' when the line''s amount is rounded to the micro-dollar (see money_raw); NULL otherwise.';
