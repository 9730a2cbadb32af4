-- Who spent it: the tokens, service accounts and org members the API lists, refreshed by each
-- export (src/load/spenderTables.ts), and views that match each call to the token it was made with.
-- A row the API no longer lists is kept: last_seen_at says when it was listed last.

CREATE TABLE IF NOT EXISTS api_tokens (
  id            UUID PRIMARY KEY,
  user_id       UUID NOT NULL,
  label         VARCHAR,
  token_last4   VARCHAR,
  is_valid      BOOLEAN NOT NULL,
  created_at    TIMESTAMPTZ NOT NULL,
  updated_at    TIMESTAMPTZ NOT NULL,
  first_seen_at TIMESTAMPTZ NOT NULL,
  last_seen_at  TIMESTAMPTZ NOT NULL
);

CREATE TABLE IF NOT EXISTS service_accounts (
  id            UUID PRIMARY KEY,
  org_id        UUID NOT NULL,
  label         VARCHAR,
  token_last4   VARCHAR,
  is_valid      BOOLEAN NOT NULL,
  created_at    TIMESTAMPTZ NOT NULL,
  updated_at    TIMESTAMPTZ NOT NULL,
  first_seen_at TIMESTAMPTZ NOT NULL,
  last_seen_at  TIMESTAMPTZ NOT NULL
);

CREATE TABLE IF NOT EXISTS org_members (
  id            UUID PRIMARY KEY,
  name          VARCHAR,
  email         VARCHAR,
  role          VARCHAR NOT NULL,
  created_at    TIMESTAMPTZ NOT NULL,
  updated_at    TIMESTAMPTZ NOT NULL,
  first_seen_at TIMESTAMPTZ NOT NULL,
  last_seen_at  TIMESTAMPTZ NOT NULL
);

-- Each call with the token it was made with. The API shows a token only as its last 4 characters,
-- so a call matches the tokens of its user ending with the call token's last 4 (api_tokens), and
-- the service accounts of its org ending with them: 'matched' when exactly one does, 'ambiguous'
-- when several do (no way to tell which), 'unmatched' when none does (a token not listed, one of
-- another member in user scope, or token_last4 NULL under --token-column drop).
CREATE OR REPLACE VIEW call_token_match AS
WITH candidates AS (
  SELECT c.id AS call_id, 'api_token' AS token_kind, t.id AS token_id, t.label AS token_label
  FROM api_calls AS c
  JOIN api_tokens AS t ON t.user_id = c.user_id AND t.token_last4 = c.token_last4
  UNION ALL
  SELECT c.id, 'service_account', s.id, s.label
  FROM api_calls AS c
  JOIN service_accounts AS s ON s.token_last4 = c.token_last4 AND s.org_id = c.org_id
),
per_call AS (
  SELECT
    call_id,
    count(*) AS candidates,
    any_value(token_kind) AS token_kind,
    any_value(token_id) AS token_id,
    any_value(token_label) AS token_label
  FROM candidates
  GROUP BY call_id
)
SELECT
  c.id AS call_id,
  c.user_id,
  c.org_id,
  c.created_at,
  c.price_usd,
  c.token_last4,
  CASE
    WHEN m.candidates = 1 THEN 'matched'
    WHEN m.candidates > 1 THEN 'ambiguous'
    ELSE 'unmatched'
  END AS match_status,
  coalesce(m.candidates, 0) AS candidates,
  CASE WHEN m.candidates = 1 THEN m.token_kind END AS token_kind,
  CASE WHEN m.candidates = 1 THEN m.token_id END AS token_id,
  CASE WHEN m.candidates = 1 THEN m.token_label END AS token_label
FROM api_calls AS c
LEFT JOIN per_call AS m ON m.call_id = c.id;

-- Spend per token label: every call in exactly one group, so the groups sum to the total. Matched
-- calls group by kind and label (a NULL label is its own group); ambiguous and unmatched calls are
-- a group each, with no kind or label.
CREATE OR REPLACE VIEW cost_per_token_label AS
SELECT
  match_status,
  token_kind,
  token_label,
  count(DISTINCT token_id) AS tokens,
  count(*) AS calls,
  count(price_usd) AS priced_calls,
  coalesce(sum(price_usd), 0)::DECIMAL(18, 6) AS cost_usd
FROM call_token_match
GROUP BY match_status, token_kind, token_label
ORDER BY cost_usd DESC, match_status, token_kind, token_label;

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
  coalesce(sum(c.price_usd), 0)::DECIMAL(18, 6) AS cost_usd
FROM api_calls AS c
LEFT JOIN org_members AS m ON m.id = c.user_id
GROUP BY c.user_id
ORDER BY cost_usd DESC, c.user_id;

-- Spend per service account: the calls matched to one (org scope).
CREATE OR REPLACE VIEW cost_per_service_account AS
SELECT
  s.id AS service_account_id,
  s.label,
  s.is_valid,
  count(m.call_id) AS calls,
  count(m.price_usd) AS priced_calls,
  coalesce(sum(m.price_usd), 0)::DECIMAL(18, 6) AS cost_usd
FROM service_accounts AS s
LEFT JOIN call_token_match AS m ON m.token_kind = 'service_account' AND m.token_id = s.id
GROUP BY s.id, s.label, s.is_valid
ORDER BY cost_usd DESC, s.id;
