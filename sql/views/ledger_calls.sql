-- The charge ledger's rows from the calls (see ledger.sql): where each call sits, and usage per
-- UTC day x billing account x member x token x endpoint template. Applied after spenders.sql
-- (call_token_match) and reconciliation.sql (call_billing_class).

-- Where each call sits in the ledger: the invoice its usage row belongs to (its item's counting
-- invoice, a draft holding it, the reissue of its void invoice, or the invoice due to carry it when
-- that invoice's lines are cut or do not name it), the row's state, and whether it corrects a
-- billing period already invoiced (billed late, or reissued).
CREATE OR REPLACE VIEW call_ledger_placement AS
WITH invoice AS (
  SELECT
    invoice_id,
    invoice_number,
    currency,
    usage_month,
    CASE invoice_status
      WHEN 'draft' THEN 'estimated'
      WHEN 'paid' THEN 'paid'
      WHEN 'open' THEN 'outstanding'
      WHEN 'uncollectible' THEN 'written_off'
      ELSE 'invoiced'
    END AS state
  FROM invoice_totals
  WHERE coalesce(invoice_status, '') <> 'void'
),
-- The class of a priced call as call_billing_class gives it, read off the call's own row: joined
-- to that view by id, every call would be hashed, whatever days the reader asks for.
priced AS (
  SELECT
    id,
    created_month,
    price_usd,
    stripe_invoice_item_id,
    CASE WHEN price_usd IS NOT NULL THEN billing_class END AS billing_class,
    CASE WHEN price_usd IS NOT NULL THEN billing_reason END AS billing_reason,
    CASE WHEN price_usd IS NOT NULL THEN billing_invoice_id END AS billing_invoice_id
  FROM api_calls
),
classed AS (
  SELECT
    a.id,
    a.created_month AS month,
    a.price_usd,
    nullif(a.stripe_invoice_item_id, '') AS invoice_item,
    a.billing_class,
    coalesce(a.billing_reason, 'unpriced') AS reason,
    CASE
      WHEN a.billing_class IN ('invoiced', 'unexplained') OR a.billing_reason IN ('invoice_draft', 'invoice_incomplete')
        THEN a.billing_invoice_id
    END AS candidate_invoice_id
  FROM priced AS a
)
SELECT
  c.id,
  c.month,
  c.price_usd,
  c.invoice_item,
  c.billing_class,
  c.reason,
  -- An unexplained call's price is in USD: it joins an invoice in another currency only as a
  -- difference of its own, apart.
  CASE WHEN c.billing_class = 'unexplained' AND i.currency <> 'USD' THEN NULL ELSE i.invoice_id END AS invoice_id,
  i.invoice_number,
  coalesce(i.currency, 'USD') AS currency,
  CASE
    WHEN c.reason IN ('invoice_incomplete', 'invoice_void') OR c.billing_class = 'unexplained' THEN 'awaiting'
    WHEN i.invoice_id IS NOT NULL THEN i.state
    WHEN c.billing_class = 'not_billed' THEN 'paid'
    ELSE 'estimated'
  END AS state,
  CASE
    WHEN c.reason = 'reissued' THEN 'reissued'
    WHEN i.invoice_id IS NOT NULL AND c.month < i.usage_month THEN 'billed_late'
  END AS correction,
  CASE WHEN i.invoice_id IS NOT NULL THEN i.usage_month ELSE c.month END AS billing_month
FROM classed AS c
LEFT JOIN invoice AS i ON i.invoice_id = c.candidate_invoice_id;
COMMENT ON VIEW call_ledger_placement IS 'Each call''s place in the charge ledger: the invoice its usage row belongs to, the row''s state and whether it corrects an invoiced billing period. docs/reconciliation.md.';
COMMENT ON COLUMN call_ledger_placement.id IS 'The call (api_calls.id).';
COMMENT ON COLUMN call_ledger_placement.month IS 'The call''s UTC month (its first day).';
COMMENT ON COLUMN call_ledger_placement.price_usd IS 'The call''s price, exact DECIMAL(18,6); NULL while not priced.';
COMMENT ON COLUMN call_ledger_placement.invoice_item IS 'The invoice item the call names; NULL when it names none.';
COMMENT ON COLUMN call_ledger_placement.billing_class IS 'As call_billing_class.billing_class; NULL for a call without a price yet.';
COMMENT ON COLUMN call_ledger_placement.reason IS 'As call_billing_class.reason; unpriced for a call without a price yet.';
COMMENT ON COLUMN call_ledger_placement.invoice_id IS 'The invoice the call''s usage row belongs to: its item''s counting invoice, the reissue of its void invoice, the draft holding it, or the invoice due to carry it when that one''s lines are cut short or leave it out (in USD). NULL when none does yet, or credits paid it.';
COMMENT ON COLUMN call_ledger_placement.invoice_number IS 'That invoice''s number.';
COMMENT ON COLUMN call_ledger_placement.currency IS 'The currency of the call''s usage row: the invoice''s, else USD.';
COMMENT ON COLUMN call_ledger_placement.state IS 'estimated (not invoiced yet, or on a draft), awaiting (an issued invoice should carry it but does not show it: cut lines, a void invoice not reissued, or unexplained), paid, outstanding, written_off or invoiced (final, status unknown) as its invoice; paid for a call credits paid.';
COMMENT ON COLUMN call_ledger_placement.correction IS 'reissued (billed on the reissue of a void invoice) or billed_late (on the invoice of a later month than its own): a correction of a billing period already invoiced; NULL otherwise.';
COMMENT ON COLUMN call_ledger_placement.billing_month IS 'The billing period (its first day) of the call''s usage row: its invoice''s usage month, else its own month.';

-- What an invoice bills each item, and a reissue its reissued usage (item ''), in the invoice's
-- currency: the pools of lines that the calls invoiced in another currency than USD share.
CREATE OR REPLACE VIEW ledger_line_pools AS
SELECT invoice_id, invoice_item AS item, sum(amount)::DECIMAL(38, 6) AS amount
FROM invoice_lines
WHERE invoice_item IS NOT NULL
GROUP BY invoice_id, invoice_item
UNION ALL
SELECT invoice_id, '' AS item, sum(amount)::DECIMAL(38, 6)
FROM reissued_lines
GROUP BY invoice_id;
COMMENT ON VIEW ledger_line_pools IS 'What an invoice bills each invoice item, and a reissue its reissued usage (item ''''), in the invoice''s currency: the calls invoiced in another currency than USD share these by their price.';
COMMENT ON COLUMN ledger_line_pools.invoice_id IS 'The invoice (invoices.id).';
COMMENT ON COLUMN ledger_line_pools.item IS 'The invoice item the lines bill; '''' for a reissue''s reissued usage lines.';
COMMENT ON COLUMN ledger_line_pools.amount IS 'Exact sum of those lines, DECIMAL(38,6).';

-- Usage from the calls, one row per UTC day x billing account x member x token x endpoint template,
-- split where the calls' invoice, state, class or correction differ: what they cost at their USD
-- price, in the currency they were invoiced in. A call invoiced in another currency takes its share
-- of its item's lines by its price (by count when the item's calls cost nothing), in micro units
-- with the remainder going to the largest fractions, so each item's rows add up to its lines
-- exactly. Beside usage that credits paid, a credit row takes it back (API credits are a credit,
-- never netted into usage); beside unexplained usage, an adjustment row takes it back: the invoice
-- did not bill it.
CREATE OR REPLACE VIEW usage_charges AS
-- The grains are stored (usage_grains); each one's token label is matched here, as call_token_match
-- matches a call's: the tokens of its member, or the service accounts of its org, ending with its
-- token's last 4 characters, a label only when exactly one does.
WITH token_keys AS (
  SELECT DISTINCT
    member_id,
    CASE WHEN billing_account_kind = 'org' THEN billing_account_id END AS org_id,
    token_last4
  FROM usage_grains
  WHERE token_last4 IS NOT NULL
),
token_candidates AS (
  SELECT k.member_id, k.org_id, k.token_last4, t.label
  FROM token_keys AS k
  JOIN api_tokens AS t ON t.user_id::VARCHAR = k.member_id AND t.token_last4 = k.token_last4
  UNION ALL
  SELECT k.member_id, k.org_id, k.token_last4, s.label
  FROM token_keys AS k
  JOIN service_accounts AS s ON s.org_id::VARCHAR = k.org_id AND s.token_last4 = k.token_last4
),
token_labels AS (
  SELECT member_id, org_id, token_last4, CASE WHEN count(*) = 1 THEN any_value(label) END AS token_label
  FROM token_candidates
  GROUP BY member_id, org_id, token_last4
),
grains AS (
  SELECT
    g.day,
    g.billing_account_id,
    g.billing_account_kind,
    g.member_id,
    g.token_hash,
    g.endpoint_template,
    g.invoice_id,
    g.invoice_number,
    g.currency,
    g.state,
    g.correction,
    g.billing_month,
    g.billing_class,
    g.item,
    g.member_email,
    l.token_label,
    g.calls,
    g.pending_calls,
    g.seconds,
    g.price_usd
  FROM usage_grains AS g
  LEFT JOIN token_labels AS l
    ON l.member_id = g.member_id
      AND l.org_id IS NOT DISTINCT FROM (CASE WHEN g.billing_account_kind = 'org' THEN g.billing_account_id END)
      AND l.token_last4 = g.token_last4
),
item_amounts AS (
  SELECT invoice_id, item, CAST(amount * 1000000 AS HUGEINT) AS micros FROM ledger_line_pools
),
weighted AS (
  SELECT
    g.*,
    coalesce(a.micros, 0) AS item_micros,
    CASE
      WHEN min(g.price_usd) OVER item >= 0 AND sum(g.price_usd) OVER item > 0
        THEN CAST(g.price_usd * 1000000 AS HUGEINT)
      ELSE CAST(g.calls AS HUGEINT)
    END AS weight
  FROM grains AS g
  LEFT JOIN item_amounts AS a ON a.invoice_id = g.invoice_id AND a.item = g.item
  WHERE g.item IS NOT NULL
  WINDOW item AS (PARTITION BY g.invoice_id, g.item)
),
shares AS (
  SELECT
    *,
    abs(item_micros) * weight // sum(weight) OVER item AS base,
    abs(item_micros) * weight % sum(weight) OVER item AS fraction
  FROM weighted
  WINDOW item AS (PARTITION BY invoice_id, item)
),
-- Every column is named from here on: a view's `* EXCLUDE (a, b)` is printed back from the
-- database file in no fixed order, which would make the catalog differ from open to open.
allocated AS (
  SELECT
    day, billing_account_id, billing_account_kind, member_id, token_hash, endpoint_template, invoice_id,
    invoice_number, currency, state, correction, billing_month, billing_class,
    member_email, token_label, calls, pending_calls, seconds, price_usd,
    sign(item_micros) * (base + CASE
      WHEN row_number() OVER (
        PARTITION BY invoice_id, item ORDER BY fraction DESC, day, member_id, token_hash, endpoint_template, state
      ) <= abs(item_micros) - sum(base) OVER (PARTITION BY invoice_id, item) THEN 1 ELSE 0
    END) AS billed_micros
  FROM shares
),
usage AS (
  SELECT * EXCLUDE (item), price_usd AS billed_cost
  FROM grains
  WHERE item IS NULL
  UNION ALL BY NAME
  SELECT
    day, billing_account_id, billing_account_kind, member_id, token_hash, endpoint_template, invoice_id,
    invoice_number, currency, state, correction, billing_month, billing_class,
    any_value(member_email) AS member_email,
    any_value(token_label) AS token_label,
    sum(calls) AS calls,
    sum(pending_calls) AS pending_calls,
    sum(seconds)::BIGINT AS seconds,
    sum(price_usd)::DECIMAL(38, 6) AS price_usd,
    CAST(sum(billed_micros) AS DECIMAL(38, 0)) * 0.000001 AS billed_cost
  FROM allocated
  GROUP BY ALL
),
-- Each usage row, and beside it the credit row of the usage credits paid, or the adjustment row of
-- unexplained usage.
rows AS (
  SELECT t.kind, t.reason, u.*
  FROM usage AS u
  JOIN (VALUES ('usage', 'calls'), ('credit', 'api_credits'), ('adjustment', 'unexplained_calls')) AS t(kind, reason)
    ON t.kind = 'usage'
      OR (t.kind = 'credit' AND u.billing_class = 'not_billed' AND u.billed_cost <> 0)
      OR (t.kind = 'adjustment' AND u.billing_class = 'unexplained' AND u.billed_cost <> 0)
)
SELECT
  md5(concat_ws('|', kind, day, billing_account_id, coalesce(member_id, ''), coalesce(token_hash, ''),
    coalesce(endpoint_template, ''), coalesce(invoice_id, ''), coalesce(billing_class, ''), state,
    coalesce(correction, ''))) AS charge_id,
  kind,
  reason,
  CASE WHEN kind = 'credit' THEN NULL ELSE correction END AS correction,
  currency,
  (CASE WHEN kind = 'usage' THEN billed_cost ELSE -billed_cost END)::DECIMAL(38, 6) AS billed_cost,
  price_usd::DECIMAL(38, 6) AS price_usd,
  invoice_id,
  invoice_number,
  billing_account_id,
  billing_account_kind,
  billing_month,
  timezone('UTC', CAST(day AS TIMESTAMP)) AS charge_period_start,
  timezone('UTC', CAST(day AS TIMESTAMP) + INTERVAL 1 DAY) AS charge_period_end,
  CASE WHEN kind = 'adjustment' AND invoice_id IS NULL THEN 'awaiting' ELSE state END AS state,
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
  CASE kind
    WHEN 'usage' THEN 'API calls to '
    WHEN 'credit' THEN 'API credits applied to calls to '
    ELSE 'Calls no line of their invoice bills, to '
  END || coalesce(endpoint_template, 'an endpoint not recorded') AS description
FROM rows;
COMMENT ON VIEW usage_charges IS 'The charge ledger''s rows from the calls: usage per UTC day x billing account x member x token x endpoint template (split by invoice, state, class and correction), with the credit row beside usage credits paid and the adjustment row beside unexplained usage. See charges.';
COMMENT ON COLUMN usage_charges.price_usd IS 'Usage rows: exact sum of the calls'' price_usd, DECIMAL(38,6), the USD price they were charged at (equal to billed_cost in USD); credit and adjustment rows: the same for the usage row they take back.';
COMMENT ON COLUMN usage_charges.billing_month IS 'The billing period (its first day): the month of the invoice the calls are on, else their own (charges.billing_period_start).';
COMMENT ON COLUMN usage_charges.day IS 'The UTC day of the calls.';
COMMENT ON COLUMN usage_charges.pending_calls IS 'Calls whose billing has not completed (completed_at NULL): their price may still change.';
COMMENT ON COLUMN usage_charges.billing_class IS 'The calls'' class (call_billing_class.billing_class); NULL for calls without a price yet.';

