-- A batch of listed service accounts upserted in one statement: $1 is a JSON array of TokenRecord
-- objects (src/transform/spenderRows.ts), $2 when they were listed. A listed row is inserted or
-- brought up to date with last_seen_at = $2; a row no longer listed keeps its last values.
INSERT INTO service_accounts (id, org_id, label, token_last4, is_valid, created_at, updated_at, first_seen_at, last_seen_at)
SELECT
  CAST(r.id AS UUID), CAST(r.owner_id AS UUID), r.label, r.token_last4, r.is_valid,
  CAST(r.created_at AS TIMESTAMPTZ), CAST(r.updated_at AS TIMESTAMPTZ),
  CAST($2 AS TIMESTAMPTZ), CAST($2 AS TIMESTAMPTZ)
FROM (
  SELECT unnest(json_transform_strict($1,
    '[{"id":"VARCHAR","owner_id":"VARCHAR","label":"VARCHAR","token_last4":"VARCHAR","is_valid":"BOOLEAN","created_at":"VARCHAR","updated_at":"VARCHAR"}]'
  )) AS r
)
ON CONFLICT (id) DO UPDATE SET
  org_id = excluded.org_id, label = excluded.label, token_last4 = excluded.token_last4,
  is_valid = excluded.is_valid, created_at = excluded.created_at, updated_at = excluded.updated_at,
  last_seen_at = excluded.last_seen_at;
