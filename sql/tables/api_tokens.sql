-- The API tokens of the user (GET /user/api-tokens), refreshed by each export
-- (src/load/spenderTables.ts). A row the API no longer lists is kept: last_seen_at says when it
-- was listed last.
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
COMMENT ON TABLE api_tokens IS 'The API tokens of the exporting token''s user (GET /user/api-tokens), refreshed each run; a token no longer listed keeps its row with an older last_seen_at. Never the secret: the API shows a token as its last 4 characters only.';
COMMENT ON COLUMN api_tokens.id IS 'API: id, the token''s own id (not the token).';
COMMENT ON COLUMN api_tokens.user_id IS 'API: user_id, the user who owns the token.';
COMMENT ON COLUMN api_tokens.label IS 'API: label, the name the user gave the token (NULL when none).';
COMMENT ON COLUMN api_tokens.token_last4 IS 'The last 4 characters of API: token, which the API obfuscates to them; matched against api_calls.token_last4.';
COMMENT ON COLUMN api_tokens.is_valid IS 'API: is_valid (tokens are never deleted, only marked invalid).';
COMMENT ON COLUMN api_tokens.created_at IS 'API: created_at (UTC).';
COMMENT ON COLUMN api_tokens.updated_at IS 'API: updated_at (UTC).';
COMMENT ON COLUMN api_tokens.first_seen_at IS 'When an export first listed the token (UTC).';
COMMENT ON COLUMN api_tokens.last_seen_at IS 'When an export last listed the token (UTC): older than the last run for a token the API no longer lists.';
