-- The members of the org (GET /org/members), refreshed by each export
-- (src/load/spenderTables.ts). A row the API no longer lists is kept: last_seen_at says when it
-- was listed last.
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
COMMENT ON TABLE org_members IS 'The org''s members (GET /org/members, org scope, admins only), refreshed each run; someone no longer listed keeps the row with an older last_seen_at.';
COMMENT ON COLUMN org_members.id IS 'API: id, the member''s user id (api_calls.user_id).';
COMMENT ON COLUMN org_members.name IS 'API: name, else first_name and last_name joined (NULL when the API gives none).';
COMMENT ON COLUMN org_members.email IS 'API: email, kept, hashed (HMAC-SHA256, as api_calls.email) or NULL per --email-column.';
COMMENT ON COLUMN org_members.role IS 'API: role in the org: admin, member or service_account.';
COMMENT ON COLUMN org_members.created_at IS 'API: created_at, when the user was created (UTC).';
COMMENT ON COLUMN org_members.updated_at IS 'API: updated_at (UTC).';
COMMENT ON COLUMN org_members.first_seen_at IS 'When an export first listed the member (UTC).';
COMMENT ON COLUMN org_members.last_seen_at IS 'When an export last listed the member (UTC).';
