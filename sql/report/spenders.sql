-- Who spent the report period's money: per person (api_calls.user_id, named by org_members when it
-- lists them) and per token label, one row per group in one result, `grouping` telling which. Every
-- call of the period is in exactly one group of each grouping, so each sums to the period's total.
-- $from / $to: UTC days, both included; NULL leaves that end open.
-- The calls are matched to their token as call_token_match matches them (the tokens of the call's
-- user, and the service accounts of its org, ending with its token's last 4 characters; a label
-- only when exactly one does), but once per user, org and last 4 rather than once per call: the
-- period's calls are summed by those first, so that no step holds a row per call. The day is cut
-- as the loader cuts created_day (sql/functions/utc.sql), written out because an older warehouse,
-- which the report opens read-only, has no macro.
WITH calls AS (
  SELECT user_id, org_id, token_last4, count(*) AS calls, coalesce(sum(price_usd), 0) AS cost
  FROM api_calls
  WHERE ($from::DATE IS NULL OR CAST(make_timestamp(epoch_us(created_at)) AS DATE) >= $from::DATE)
    AND ($to::DATE IS NULL OR CAST(make_timestamp(epoch_us(created_at)) AS DATE) <= $to::DATE)
  GROUP BY user_id, org_id, token_last4
),
candidates AS (
  SELECT c.user_id, c.org_id, c.token_last4, 'api_token' AS token_kind, t.label AS token_label
  FROM calls AS c
  JOIN api_tokens AS t ON t.user_id = c.user_id AND t.token_last4 = c.token_last4
  UNION ALL
  SELECT c.user_id, c.org_id, c.token_last4, 'service_account', s.label
  FROM calls AS c
  JOIN service_accounts AS s ON s.token_last4 = c.token_last4 AND s.org_id = c.org_id
),
per_key AS (
  SELECT
    user_id,
    org_id,
    token_last4,
    count(*) AS candidates,
    any_value(token_kind) AS token_kind,
    any_value(token_label) AS token_label
  FROM candidates
  GROUP BY user_id, org_id, token_last4
),
matched AS (
  SELECT
    c.user_id,
    c.calls,
    c.cost,
    CASE WHEN k.candidates = 1 THEN 'matched' WHEN k.candidates > 1 THEN 'ambiguous' ELSE 'unmatched' END
      AS match_status,
    CASE WHEN k.candidates = 1 THEN k.token_kind END AS token_kind,
    CASE WHEN k.candidates = 1 THEN k.token_label END AS token_label
  FROM calls AS c
  LEFT JOIN per_key AS k
    ON k.user_id = c.user_id AND k.org_id IS NOT DISTINCT FROM c.org_id AND k.token_last4 = c.token_last4
),
groups AS (
  SELECT
    'member' AS grouping,
    m.user_id::VARCHAR AS user_id,
    any_value(o.name) AS name,
    any_value(o.email) AS email,
    any_value(o.role) AS role,
    NULL::VARCHAR AS match_status,
    NULL::VARCHAR AS token_kind,
    NULL::VARCHAR AS token_label,
    sum(m.calls)::BIGINT AS calls,
    coalesce(sum(m.cost), 0)::DECIMAL(38, 6) AS cost
  FROM matched AS m
  LEFT JOIN org_members AS o ON o.id = m.user_id
  GROUP BY m.user_id
  UNION ALL
  SELECT
    'token_label', NULL, NULL, NULL, NULL, match_status, token_kind, token_label,
    sum(calls)::BIGINT,
    coalesce(sum(cost), 0)::DECIMAL(38, 6)
  FROM matched
  GROUP BY match_status, token_kind, token_label
)
SELECT *, cost::VARCHAR AS cost_usd
FROM groups
ORDER BY grouping, cost DESC, user_id, match_status, token_kind, token_label;
