-- Who spent it: each call matched to the token it was made with (api_tokens, service_accounts), and
-- the cost per token label, per org member and per service account. The match is made once per
-- user, org and token's last 4 of the calls (token_key_match).

-- The token of each user, org and token's last 4 of the calls: the tokens of the user ending with
-- those 4 characters (api_tokens), and the service accounts of the org ending with them: 'matched'
-- when exactly one does, 'ambiguous' when several do (no way to tell which), 'unmatched' when none
-- does (a token not listed, one of another member in user scope, or token_last4 NULL under
-- --token-column drop). The match depends on nothing else of a call and the calls share few keys,
-- so it is made once per key; each key carries its calls' count and cost, so that the views summing
-- them hold no row per call.
CREATE OR REPLACE VIEW token_key_match AS
WITH keys AS (
  SELECT
    user_id,
    org_id,
    token_last4,
    count(*) AS calls,
    count(price_usd) AS priced_calls,
    coalesce(sum(price_usd), 0)::DECIMAL(38, 6) AS cost_usd
  FROM api_calls
  GROUP BY user_id, org_id, token_last4
),
candidates AS (
  SELECT k.user_id, k.org_id, k.token_last4, 'api_token' AS token_kind, t.id AS token_id, t.label AS token_label
  FROM keys AS k
  JOIN api_tokens AS t ON t.user_id = k.user_id AND t.token_last4 = k.token_last4
  UNION ALL
  SELECT k.user_id, k.org_id, k.token_last4, 'service_account', s.id, s.label
  FROM keys AS k
  JOIN service_accounts AS s ON s.token_last4 = k.token_last4 AND s.org_id = k.org_id
),
per_key AS (
  SELECT
    user_id,
    org_id,
    token_last4,
    count(*) AS candidates,
    any_value(token_kind) AS token_kind,
    any_value(token_id) AS token_id,
    any_value(token_label) AS token_label
  FROM candidates
  GROUP BY user_id, org_id, token_last4
)
SELECT
  k.user_id,
  k.org_id,
  k.token_last4,
  k.calls,
  k.priced_calls,
  k.cost_usd,
  CASE
    WHEN m.candidates = 1 THEN 'matched'
    WHEN m.candidates > 1 THEN 'ambiguous'
    ELSE 'unmatched'
  END AS match_status,
  coalesce(m.candidates, 0) AS candidates,
  CASE WHEN m.candidates = 1 THEN m.token_kind END AS token_kind,
  CASE WHEN m.candidates = 1 THEN m.token_id END AS token_id,
  CASE WHEN m.candidates = 1 THEN m.token_label END AS token_label
FROM keys AS k
-- A NULL org is a key like any other (a call in user scope has none); a NULL last 4 matches nothing.
LEFT JOIN per_key AS m
  ON m.user_id IS NOT DISTINCT FROM k.user_id
    AND m.org_id IS NOT DISTINCT FROM k.org_id
    AND m.token_last4 = k.token_last4;
COMMENT ON VIEW token_key_match IS 'Each user, org and token''s last 4 characters of the calls, with their calls, cost and the token they match (as call_token_match gives each call): matched, ambiguous or unmatched. See docs/who-spent-it.md.';
COMMENT ON COLUMN token_key_match.user_id IS 'The calls'' api_calls.user_id.';
COMMENT ON COLUMN token_key_match.org_id IS 'The calls'' api_calls.org_id (NULL in user scope).';
COMMENT ON COLUMN token_key_match.token_last4 IS 'The calls'' api_calls.token_last4 (NULL under --token-column drop).';
COMMENT ON COLUMN token_key_match.calls IS 'Calls with this user, org and last 4.';
COMMENT ON COLUMN token_key_match.priced_calls IS 'Those with a price (price_usd not NULL).';
COMMENT ON COLUMN token_key_match.cost_usd IS 'The exact sum of their price_usd in USD, DECIMAL(38,6) (0 when none is priced).';
COMMENT ON COLUMN token_key_match.match_status IS 'matched: one token (of the user) or service account (of the org) ends with token_last4; ambiguous: several do; unmatched: none does (not listed, another member''s token in user scope, or token_last4 NULL).';
COMMENT ON COLUMN token_key_match.candidates IS 'How many tokens and service accounts end with token_last4 (0 when unmatched).';
COMMENT ON COLUMN token_key_match.token_kind IS 'api_token or service_account when matched; NULL otherwise.';
COMMENT ON COLUMN token_key_match.token_id IS 'api_tokens.id or service_accounts.id when matched; NULL otherwise.';
COMMENT ON COLUMN token_key_match.token_label IS 'The matched token''s label; NULL when unmatched, ambiguous or unlabelled.';

-- Each call with the token it was made with: the match of its user, org and last 4 (token_key_match).
-- Every call meets its own key, NULLs included, so the join keeps every call once.
CREATE OR REPLACE VIEW call_token_match AS
SELECT
  c.id,
  c.user_id,
  c.org_id,
  c.created_at,
  c.price_usd,
  c.token_last4,
  k.match_status,
  k.candidates,
  k.token_kind,
  k.token_id,
  k.token_label
FROM api_calls AS c
JOIN token_key_match AS k
  ON k.user_id IS NOT DISTINCT FROM c.user_id
    AND k.org_id IS NOT DISTINCT FROM c.org_id
    AND k.token_last4 IS NOT DISTINCT FROM c.token_last4;
COMMENT ON VIEW call_token_match IS 'Each call with the token it was made with, matched on the user and the token''s last 4 characters (all the API shows of a token): matched, ambiguous or unmatched. See docs/who-spent-it.md.';
COMMENT ON COLUMN call_token_match.id IS 'The call: api_calls.id.';
COMMENT ON COLUMN call_token_match.match_status IS 'matched: one token (of the call''s user) or service account (of its org) ends with token_last4; ambiguous: several do; unmatched: none does (not listed, another member''s token in user scope, or token_last4 NULL).';
COMMENT ON COLUMN call_token_match.candidates IS 'How many tokens and service accounts end with the call''s token_last4 (0 when unmatched).';
COMMENT ON COLUMN call_token_match.token_kind IS 'api_token or service_account when matched; NULL otherwise.';
COMMENT ON COLUMN call_token_match.token_id IS 'api_tokens.id or service_accounts.id when matched; NULL otherwise.';
COMMENT ON COLUMN call_token_match.token_label IS 'The matched token''s label; NULL when unmatched, ambiguous or unlabelled.';

-- Spend per token label: every call in exactly one group, so the groups sum to the total. Matched
-- calls group by kind and label (a NULL label is its own group); ambiguous and unmatched calls are
-- a group each, with no kind or label.
CREATE OR REPLACE VIEW cost_per_token_label AS
SELECT
  match_status,
  token_kind,
  token_label,
  count(DISTINCT token_id) AS tokens,
  sum(calls)::BIGINT AS calls,
  sum(priced_calls)::BIGINT AS priced_calls,
  sum(cost_usd)::DECIMAL(38, 6) AS cost_usd
FROM token_key_match
GROUP BY match_status, token_kind, token_label
ORDER BY cost_usd DESC, match_status, token_kind, token_label;
COMMENT ON VIEW cost_per_token_label IS 'Calls and cost per token label: matched calls by kind and label, ambiguous and unmatched calls a group each, so the groups sum exactly to the total.';
COMMENT ON COLUMN cost_per_token_label.match_status IS 'As call_token_match.match_status.';
COMMENT ON COLUMN cost_per_token_label.token_kind IS 'api_token or service_account for matched calls; NULL for ambiguous and unmatched ones.';
COMMENT ON COLUMN cost_per_token_label.token_label IS 'The label; NULL for unlabelled tokens and for ambiguous and unmatched calls.';
COMMENT ON COLUMN cost_per_token_label.tokens IS 'Distinct tokens with this label that made calls (0 for ambiguous and unmatched).';
COMMENT ON COLUMN cost_per_token_label.calls IS 'Calls in the group.';

-- Spend per person: per user_id of the calls, with the member's name, email and role when
-- org_members lists them (member_known false otherwise: user scope, or someone who left the org
-- before it was first exported). Every call is in one group, so the groups sum to the total.
CREATE OR REPLACE VIEW cost_per_member AS
SELECT
  c.user_id,
  any_value(m.name) AS name,
  any_value(m.email) AS email,
  any_value(m.role) AS role,
  bool_or(m.id IS NOT NULL) AS member_known,
  count(*) AS calls,
  count(c.price_usd) AS priced_calls,
  coalesce(sum(c.price_usd), 0)::DECIMAL(38, 6) AS cost_usd
FROM api_calls AS c
LEFT JOIN org_members AS m ON m.id = c.user_id
GROUP BY c.user_id
ORDER BY cost_usd DESC, c.user_id;
COMMENT ON VIEW cost_per_member IS 'Calls and cost per person (api_calls.user_id) with the member''s name, email and role from org_members; every call in one group, so the groups sum exactly to the total.';
COMMENT ON COLUMN cost_per_member.member_known IS 'true when org_members lists the user (org scope); false in user scope or for someone never listed.';
COMMENT ON COLUMN cost_per_member.calls IS 'Calls the user made.';

-- Spend per service account: the calls matched to one (org scope).
CREATE OR REPLACE VIEW cost_per_service_account AS
SELECT
  s.id AS service_account_id,
  s.label,
  s.is_valid,
  coalesce(sum(k.calls), 0)::BIGINT AS calls,
  coalesce(sum(k.priced_calls), 0)::BIGINT AS priced_calls,
  coalesce(sum(k.cost_usd), 0)::DECIMAL(38, 6) AS cost_usd
FROM service_accounts AS s
LEFT JOIN token_key_match AS k ON k.token_kind = 'service_account' AND k.token_id = s.id
GROUP BY s.id, s.label, s.is_valid
ORDER BY cost_usd DESC, s.id;
COMMENT ON VIEW cost_per_service_account IS 'Calls and cost per service account: the calls call_token_match matched to it (org scope).';
COMMENT ON COLUMN cost_per_service_account.service_account_id IS 'service_accounts.id.';
COMMENT ON COLUMN cost_per_service_account.calls IS 'Calls matched to the service account.';
