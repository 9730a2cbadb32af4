-- The month-to-date spend of one endpoint template, one member (email, name or user id) or one token
-- label (calls call_token_match matched to a token of that label): the days of the month of the
-- last complete day, before as_of. One row, with 0 when nothing matched, and whether it reached
-- $budget.
WITH p AS (
  SELECT
    CAST($as_of AS DATE) AS as_of,
    CAST(date_trunc('month', CAST($as_of AS DATE) - 1) AS DATE) AS month
)
SELECT
  strftime(p.month, '%Y-%m') AS period,
  CAST(coalesce(sum(c.price_usd), 0)::DECIMAL(38, 6) AS VARCHAR) AS usd,
  coalesce(sum(c.price_usd), 0) >= CAST($budget AS DECIMAL(38, 6)) AS over
FROM p
LEFT JOIN api_calls_enriched AS c
  ON c.day >= p.month AND c.day < p.as_of AND CASE $kind
    WHEN 'endpoint' THEN c.endpoint_template = $subject
    WHEN 'member' THEN coalesce(c.email = $subject, false) OR CAST(c.user_id AS VARCHAR) = $subject
      OR c.user_id IN (SELECT id FROM org_members WHERE email = $subject OR name = $subject)
    ELSE c.id IN (SELECT id FROM call_token_match WHERE match_status = 'matched' AND token_label = $subject)
  END
GROUP BY p.month;
