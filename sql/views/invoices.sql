-- How the warehouse reads each invoice and each of its lines: what the invoice's amounts say was
-- discounted, taxed and left unlisted, which void invoice a later one reissues, and what each line
-- is (usage of stored calls, usage reissued or of rejected calls, tax, a credit, another charge).
-- Amounts are in the invoice's currency, compared as DECIMAL = DECIMAL, never through a double;
-- sums are DECIMAL(38,6). docs/reconciliation.md says which invoice shape each rule comes from.
-- Applied before reconciliation.sql (the calls' classes read these views).

-- The calls billed on each invoice item: how many and what they cost (from the calls' rollup).
CREATE OR REPLACE VIEW invoice_item_calls AS
SELECT
  invoice_item,
  sum(calls)::BIGINT AS calls,
  sum(price_usd)::DECIMAL(38, 6) AS calls_cost_usd,
  min(month) AS first_call_month,
  max(month) AS last_call_month
FROM call_grains
WHERE invoice_item IS NOT NULL
GROUP BY invoice_item;
COMMENT ON VIEW invoice_item_calls IS 'Per invoice item (api_calls.stripe_invoice_item_id, not empty): the calls billed on it and what they cost.';
COMMENT ON COLUMN invoice_item_calls.invoice_item IS 'The invoice item the calls carry in stripe_invoice_item_id.';
COMMENT ON COLUMN invoice_item_calls.calls IS 'Stored calls billed on the item.';
COMMENT ON COLUMN invoice_item_calls.calls_cost_usd IS 'Exact sum of those calls'' price_usd, DECIMAL(38,6).';
COMMENT ON COLUMN invoice_item_calls.first_call_month IS 'The UTC month (its first day) of the earliest call billed on the item.';
COMMENT ON COLUMN invoice_item_calls.last_call_month IS 'The UTC month (its first day) of the latest call billed on the item.';

-- API call records the export could not store (rejects), read back from the JSON kept with them: a
-- record with a method and a created_at is an API call (an operation has a type, an invoice
-- lines). A rejected call stored since, under the same id, is not counted. A call's created_at is
-- the same in every version of it, so its stored version is sought among the calls of the rejects'
-- UTC days (and the day either side), which the scan cuts to their row groups instead of reading
-- every stored id; a reject whose created_at does not read as a time is sought among every stored
-- call. With no rejects, neither lookup reads a call.
CREATE OR REPLACE VIEW rejected_calls AS
WITH calls AS (
  SELECT
    record_id,
    TRY_CAST(record_id AS UUID) AS call_id,
    rejected_at,
    reason,
    TRY_CAST(json_extract_string(raw_json, '$.created_at') AS TIMESTAMPTZ) AS created_at,
    nullif(json_extract_string(raw_json, '$.stripe_invoice_item_id'), '') AS invoice_item,
    TRY_CAST(json_extract_string(raw_json, '$.price') AS DECIMAL(38, 6)) AS price
  FROM rejects
  WHERE json_valid(raw_json)
    AND json_type(raw_json) = 'OBJECT'
    AND json_extract_string(raw_json, '$.method') IS NOT NULL
    AND json_extract_string(raw_json, '$.created_at') IS NOT NULL
),
reject_days AS (
  SELECT DISTINCT CAST(make_timestamp(epoch_us(c.created_at)) AS DATE) + o.days AS day
  FROM calls AS c, (VALUES (-1), (0), (1)) AS o(days)
  WHERE c.created_at IS NOT NULL
),
stored AS (
  SELECT id FROM api_calls
  WHERE id IN (SELECT call_id FROM calls WHERE created_at IS NOT NULL)
    AND created_day IN (SELECT day FROM reject_days)
  UNION ALL
  SELECT id FROM api_calls
  WHERE id IN (SELECT call_id FROM calls WHERE created_at IS NULL)
)
SELECT
  record_id,
  rejected_at,
  reason,
  created_at,
  CAST(date_trunc('month', timezone('UTC', created_at)) AS DATE) AS month,
  invoice_item,
  price AS price_usd
FROM calls
WHERE call_id IS NULL OR call_id NOT IN (SELECT id FROM stored);
COMMENT ON VIEW rejected_calls IS 'API call records in rejects (kept with the reason they could not be stored) that no stored call has replaced since: what a month''s invoice may bill that the warehouse does not hold. Read from the record''s JSON as received.';
COMMENT ON COLUMN rejected_calls.record_id IS 'The rejected call''s id as sent (rejects.record_id); NULL when it could not be read.';
COMMENT ON COLUMN rejected_calls.rejected_at IS 'When it was rejected (UTC).';
COMMENT ON COLUMN rejected_calls.reason IS 'Why it was rejected (rejects.reason).';
COMMENT ON COLUMN rejected_calls.created_at IS 'The record''s created_at as sent, when it reads as a time; NULL otherwise.';
COMMENT ON COLUMN rejected_calls.month IS 'The UTC month (its first day) of created_at; NULL without one.';
COMMENT ON COLUMN rejected_calls.invoice_item IS 'The record''s stripe_invoice_item_id as sent; NULL without one.';
COMMENT ON COLUMN rejected_calls.price_usd IS 'The record''s price as sent, when it reads as a decimal; NULL otherwise.';

-- Per invoice, in its own currency: whether it counts as invoiced, the month it bills, and what its
-- amounts say beyond its lines.
-- * Final: neither draft nor void (open, paid and uncollectible invoices have been issued).
-- * Usage month (the billing period): the latest month of the calls its lines bill (a late call of
--   the month before rides on it), else the month before it was made: Zoo invoices in arrears.
-- * Lines complete: the stored lines add up to the subtotal, or exceed it by item discounts. Stripe
--   embeds only the first lines of an invoice, so lines short of the subtotal are a cut list, not a
--   missing charge. The spec's subtotal has "item discounts already incorporated": lines written
--   gross exceed it by those discounts, whether or not the invoice lists the coupon (a cut list of
--   charges cannot exceed it).
-- * Invoice discount: subtotal + tax - total, the reduction applied to the whole invoice.
-- * A percent coupon that the totals did not take off the subtotal, beyond the coupons of an amount,
--   may have been applied to the items: with lines that add up to the subtotal, a usage line that
--   bills its calls' cost less that percent is read net of it (invoice_line_reconciliation). When
--   something was left for the coupon to take off and it did not, the lines are net (lines_net).
-- * Balance applied: total - amount_due, what the customer's balance paid (Stripe applies a credit
--   balance before charging; negative when an earlier debt was added).
CREATE OR REPLACE VIEW invoice_totals AS
WITH line_sums AS (
  SELECT
    invoice_id,
    count(*) AS lines,
    sum(amount)::DECIMAL(38, 6) AS lines_amount
  FROM invoice_lines
  GROUP BY invoice_id
),
call_months AS (
  SELECT l.invoice_id, max(c.last_call_month) AS month
  FROM invoice_lines AS l
  JOIN invoice_item_calls AS c ON c.invoice_item = l.invoice_item
  GROUP BY l.invoice_id
),
coupons AS (
  SELECT
    id AS invoice_id,
    coalesce(json_array_length(discounts), 0) AS coupons,
    coalesce(list_sum(list_transform(
      json_extract(discounts, '$[*].coupon.percent_off'), x -> TRY_CAST(x::VARCHAR AS DECIMAL(38, 6))
    )), 0)::DECIMAL(38, 6) AS percent_off,
    coalesce(list_sum(list_transform(
      json_extract(discounts, '$[*].coupon.amount_off'), x -> TRY_CAST(x::VARCHAR AS DECIMAL(38, 6))
    )), 0)::DECIMAL(38, 6) AS amount_off
  FROM invoices
),
read AS (
  SELECT
    i.*,
    coalesce(s.lines, 0) AS line_count,
    coalesce(s.lines_amount, 0)::DECIMAL(38, 6) AS lines_amount,
    k.coupons,
    k.percent_off,
    k.amount_off,
    m.month AS call_month,
    (i.subtotal + i.tax - i.total)::DECIMAL(38, 6) AS invoice_discount
  FROM invoices AS i
  LEFT JOIN line_sums AS s ON s.invoice_id = i.id
  LEFT JOIN call_months AS m ON m.invoice_id = i.id
  LEFT JOIN coupons AS k ON k.invoice_id = i.id
)
SELECT
  id AS invoice_id,
  number AS invoice_number,
  status AS invoice_status,
  created_at AS invoice_created_at,
  upper(currency) AS currency,
  coalesce(status, '') NOT IN ('draft', 'void') AS is_final,
  coalesce(call_month, CAST(date_trunc('month', timezone('UTC', created_at)) - INTERVAL 1 MONTH AS DATE))
    AS usage_month,
  line_count AS lines,
  lines_amount,
  subtotal::DECIMAL(38, 6) AS subtotal,
  tax::DECIMAL(38, 6) AS tax,
  total::DECIMAL(38, 6) AS total,
  amount_due::DECIMAL(38, 6) AS amount_due,
  lines_amount >= subtotal AS lines_complete,
  CASE WHEN lines_amount > subtotal THEN lines_amount - subtotal ELSE 0 END::DECIMAL(38, 6)
    AS item_discount,
  CASE
    WHEN percent_off > 0 AND lines_amount = subtotal AND invoice_discount <= amount_off THEN percent_off
  END::DECIMAL(38, 6) AS item_discount_percent,
  percent_off > 0 AND lines_amount = subtotal AND invoice_discount <= amount_off AND subtotal > amount_off
    AS lines_net,
  invoice_discount,
  coupons,
  (total - amount_due)::DECIMAL(38, 6) AS balance_applied
FROM read;
COMMENT ON VIEW invoice_totals IS 'Per invoice, in its currency: whether it counts as invoiced, the month it bills, whether its stored lines are complete, and what its amounts say beyond its lines: item discounts, the invoice discount, the customer balance applied. docs/reconciliation.md.';
COMMENT ON COLUMN invoice_totals.invoice_id IS 'The invoice (invoices.id).';
COMMENT ON COLUMN invoice_totals.invoice_number IS 'The invoice''s number (invoices.number).';
COMMENT ON COLUMN invoice_totals.invoice_status IS 'The invoice''s status (invoices.status): draft, open, paid, uncollectible or void.';
COMMENT ON COLUMN invoice_totals.invoice_created_at IS 'When the invoice was made (invoices.created_at, UTC).';
COMMENT ON COLUMN invoice_totals.currency IS 'The invoice''s currency, upper case (invoices.currency: Stripe sends usd): every amount of this row is in it.';
COMMENT ON COLUMN invoice_totals.is_final IS 'true unless the invoice is a draft or void: open, paid and uncollectible invoices (and those without a status) count as invoiced.';
COMMENT ON COLUMN invoice_totals.usage_month IS 'The UTC month (its first day) the invoice bills, its billing period: the latest month of the calls its lines bill, else the month before it was made (Zoo invoices usage in arrears).';
COMMENT ON COLUMN invoice_totals.lines IS 'Lines stored for the invoice.';
COMMENT ON COLUMN invoice_totals.lines_amount IS 'Exact sum of the stored lines'' amounts, DECIMAL(38,6), in currency.';
COMMENT ON COLUMN invoice_totals.subtotal IS 'The invoice''s subtotal (invoices.subtotal): its items before invoice-level discounts and tax, item discounts already taken off (spec).';
COMMENT ON COLUMN invoice_totals.tax IS 'The invoice''s tax (invoices.tax).';
COMMENT ON COLUMN invoice_totals.total IS 'The invoice''s total (invoices.total): after discounts and taxes, what it charges.';
COMMENT ON COLUMN invoice_totals.amount_due IS 'The invoice''s amount_due (invoices.amount_due): the total less what the customer''s balance paid.';
COMMENT ON COLUMN invoice_totals.lines_complete IS 'The stored lines add up to the subtotal, or exceed it by item discounts (the spec''s subtotal has them already taken off). false: the lines fall short of it, a cut list (Stripe embeds only the first lines); calls no stored line names then wait on the invoice instead of counting as unexplained.';
COMMENT ON COLUMN invoice_totals.item_discount IS 'Item discounts of lines written gross: lines_amount - subtotal when the lines exceed the subtotal; 0 otherwise.';
COMMENT ON COLUMN invoice_totals.item_discount_percent IS 'The percent of a coupon listed on the invoice that its totals did not take off the subtotal (beyond the coupons of an amount), when its lines add up to the subtotal: a usage line may be net of that percent of its calls'' cost, to the cent; NULL otherwise.';
COMMENT ON COLUMN invoice_totals.lines_net IS 'true when the usage lines are net of item_discount_percent: the coupon had something left to take off the subtotal and the totals did not take it.';
COMMENT ON COLUMN invoice_totals.invoice_discount IS 'subtotal + tax - total: the discount applied to the whole invoice (a coupon); not 0 without a coupon listed is unexplained.';
COMMENT ON COLUMN invoice_totals.coupons IS 'Discounts listed on the invoice (invoices.discounts).';
COMMENT ON COLUMN invoice_totals.balance_applied IS 'total - amount_due: what the customer''s Stripe balance paid of the invoice (negative: an earlier debt added to it).';

-- A void invoice whose lines bill stored calls that no counting invoice bills, and the invoice that
-- reissued it: the first one made after it that counts, bills the same month, and has a line that
-- no stored call carries with the description of one of the void invoice's usage lines (Stripe
-- keeps a voided invoice's items on it, so a reissue bills new items the calls do not carry).
CREATE OR REPLACE VIEW invoice_reissues AS
WITH void_usage AS (
  SELECT t.invoice_id, t.usage_month, t.invoice_created_at, list(DISTINCT l.description) AS descriptions
  FROM invoice_totals AS t
  JOIN invoice_lines AS l ON l.invoice_id = t.invoice_id
  JOIN invoice_item_calls AS c ON c.invoice_item = l.invoice_item
  WHERE t.invoice_status = 'void'
    AND l.invoice_item NOT IN (
      SELECT f.invoice_item
      FROM invoice_lines AS f
      JOIN invoice_totals AS ft ON ft.invoice_id = f.invoice_id
      WHERE ft.is_final AND f.invoice_item IS NOT NULL
    )
  GROUP BY t.invoice_id, t.usage_month, t.invoice_created_at
),
candidates AS (
  SELECT v.invoice_id AS void_invoice_id, r.invoice_id AS reissue_invoice_id, r.invoice_created_at
  FROM void_usage AS v
  JOIN invoice_totals AS r
    ON r.is_final AND r.usage_month = v.usage_month AND r.invoice_created_at > v.invoice_created_at
  WHERE EXISTS (
    SELECT 1
    FROM invoice_lines AS rl
    WHERE rl.invoice_id = r.invoice_id
      AND list_contains(v.descriptions, rl.description)
      AND coalesce(rl.invoice_item, '') NOT IN (SELECT invoice_item FROM invoice_item_calls)
  )
)
SELECT
  c.void_invoice_id,
  arg_min(c.reissue_invoice_id, c.invoice_created_at) AS reissue_invoice_id,
  any_value(v.descriptions) AS usage_descriptions
FROM candidates AS c
JOIN void_usage AS v ON v.invoice_id = c.void_invoice_id
GROUP BY c.void_invoice_id;
COMMENT ON VIEW invoice_reissues IS 'A void invoice whose lines bill stored calls no counting invoice bills, and the invoice that reissued it: the first counting one made after it for the same month, with a line no stored call carries that has the description of one of its usage lines. Its calls are settled on the reissue.';
COMMENT ON COLUMN invoice_reissues.void_invoice_id IS 'The void invoice (invoices.id).';
COMMENT ON COLUMN invoice_reissues.reissue_invoice_id IS 'The invoice that reissued it (invoices.id).';
COMMENT ON COLUMN invoice_reissues.usage_descriptions IS 'The descriptions of the void invoice''s usage lines: the reissue''s lines with one of them, that no stored call carries, bill its calls again.';

-- The lines of each reissue that stand for the calls of the void invoice it reissues: no stored call
-- carries their item, and their description is one of the void invoice's usage lines'.
CREATE OR REPLACE VIEW reissued_lines AS
SELECT l.invoice_id, min(r.void_invoice_id) AS void_invoice_id, l.line_number, any_value(l.amount) AS amount
FROM invoice_reissues AS r
JOIN invoice_lines AS l ON l.invoice_id = r.reissue_invoice_id
WHERE list_contains(r.usage_descriptions, l.description)
  AND coalesce(l.invoice_item, '') NOT IN (SELECT invoice_item FROM invoice_item_calls)
GROUP BY l.invoice_id, l.line_number;
COMMENT ON VIEW reissued_lines IS 'The lines of a reissue that bill again the calls of the void invoice it reissues (invoice_reissues): no stored call carries their item, and their description is one of the void invoice''s usage lines''.';
COMMENT ON COLUMN reissued_lines.invoice_id IS 'The reissue (invoices.id).';
COMMENT ON COLUMN reissued_lines.void_invoice_id IS 'The void invoice it reissues (the first, should one reissue several).';
COMMENT ON COLUMN reissued_lines.line_number IS 'The line''s position in the reissue (invoice_lines.line_number).';
COMMENT ON COLUMN reissued_lines.amount IS 'The line''s amount, in the reissue''s currency.';
