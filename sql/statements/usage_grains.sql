-- The ledger's usage grains of the calls of the days in the temp table class_days
-- (sql/tables/usage_grains.sql): each call placed in the ledger (call_ledger_placement, which reads
-- the stored billing classes) and grouped as usage_charges groups them.
SELECT
  a.created_month AS month,
  a.created_day AS day,
  coalesce(a.org_id, a.user_id)::VARCHAR AS billing_account_id,
  CASE WHEN a.org_id IS NULL THEN 'user' ELSE 'org' END AS billing_account_kind,
  a.user_id::VARCHAR AS member_id,
  a.token_hash,
  a.endpoint_template,
  p.invoice_id,
  p.invoice_number,
  p.currency,
  p.state,
  p.correction,
  p.billing_month,
  p.billing_class,
  -- In another currency, the pool of lines the calls share: their item's lines on their invoice,
  -- or for reissued calls the reissue's usage lines ('' names that pool).
  CASE WHEN p.currency <> 'USD' THEN CASE WHEN p.reason = 'reissued' THEN '' ELSE p.invoice_item END END AS item,
  max(a.token_last4) AS token_last4,
  min(a.email) AS member_email,
  count(*) AS calls,
  count(*) FILTER (WHERE a.completed_at IS NULL) AS pending_calls,
  coalesce(sum(coalesce(a.seconds::BIGINT, a.minutes::BIGINT * 60)), 0)::BIGINT AS seconds,
  coalesce(sum(p.price_usd), 0)::DECIMAL(38, 6) AS price_usd
FROM call_ledger_placement AS p
JOIN api_calls AS a ON a.id = p.id
-- The placements' months too, though the join implies them: the join by id would otherwise read
-- every stored call's placement for each batch of days, and a cold run's classification would grow
-- with the square of the history.
WHERE a.created_day IN (SELECT day FROM class_days)
  AND p.month IN (SELECT DISTINCT date_trunc('month', day)::DATE FROM class_days)
GROUP BY ALL
