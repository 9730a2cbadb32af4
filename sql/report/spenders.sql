-- Who spent the report period's money: per person (api_calls.user_id, named by org_members when it
-- lists them) and per token label (call_token_match), one row per group in one result, `grouping`
-- telling which. Every call of the period is in exactly one group of each grouping, so each sums to
-- the period's total. $from / $to: UTC days, both included; NULL leaves that end open. The day is
-- api_calls_enriched.day's, computed from created_at here: no column naming the call is read, so a
-- warehouse whose view predates the current column names reports the same. It is cut as the loader
-- cuts created_day (sql/functions/utc.sql), written out because an older warehouse has no macro:
-- the time-zone calendar's cut took a third of this query.
WITH matched AS (
  SELECT m.user_id, m.price_usd, m.match_status, m.token_kind, m.token_label,
    CAST(make_timestamp(epoch_us(m.created_at)) AS DATE) AS day
  FROM call_token_match AS m
),
calls AS (
  SELECT * FROM matched
  WHERE ($from::DATE IS NULL OR day >= $from::DATE) AND ($to::DATE IS NULL OR day <= $to::DATE)
),
groups AS (
  SELECT
    'member' AS grouping,
    c.user_id::VARCHAR AS user_id,
    any_value(o.name) AS name,
    any_value(o.email) AS email,
    any_value(o.role) AS role,
    NULL::VARCHAR AS match_status,
    NULL::VARCHAR AS token_kind,
    NULL::VARCHAR AS token_label,
    count(*)::BIGINT AS calls,
    coalesce(sum(c.price_usd), 0)::DECIMAL(38, 6) AS cost
  FROM calls AS c
  LEFT JOIN org_members AS o ON o.id = c.user_id
  GROUP BY c.user_id
  UNION ALL
  SELECT
    'token_label', NULL, NULL, NULL, NULL, match_status, token_kind, token_label,
    count(*)::BIGINT,
    coalesce(sum(price_usd), 0)::DECIMAL(38, 6)
  FROM calls
  GROUP BY match_status, token_kind, token_label
)
SELECT *, cost::VARCHAR AS cost_usd
FROM groups
ORDER BY grouping, cost DESC, user_id, match_status, token_kind, token_label;
