-- The service accounts of the org (GET /org/service-accounts), refreshed by each export
-- (src/load/spenderTables.ts). A row the API no longer lists is kept: last_seen_at says when it
-- was listed last.
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
COMMENT ON TABLE service_accounts IS 'The org''s service accounts (GET /org/service-accounts, org scope): tokens of the org rather than of a user, refreshed each run; one no longer listed keeps its row. Never the secret.';
COMMENT ON COLUMN service_accounts.id IS 'API: id, the service account''s own id.';
COMMENT ON COLUMN service_accounts.org_id IS 'API: org_id, the org that owns the service account.';
COMMENT ON COLUMN service_accounts.label IS 'API: label (NULL when none).';
COMMENT ON COLUMN service_accounts.token_last4 IS 'The last 4 characters of API: token, all that is kept of it; matched against api_calls.token_last4.';
COMMENT ON COLUMN service_accounts.is_valid IS 'API: is_valid.';
COMMENT ON COLUMN service_accounts.created_at IS 'API: created_at (UTC).';
COMMENT ON COLUMN service_accounts.updated_at IS 'API: updated_at (UTC).';
COMMENT ON COLUMN service_accounts.first_seen_at IS 'When an export first listed the service account (UTC).';
COMMENT ON COLUMN service_accounts.last_seen_at IS 'When an export last listed the service account (UTC).';
