-- A batch of listed org members upserted in one statement: $1 is a JSON array of MemberRecord
-- objects (src/transform/spenderRows.ts), $2 when they were listed. A listed row is inserted or
-- brought up to date with last_seen_at = $2; a row no longer listed keeps its last values.
INSERT INTO org_members (id, name, email, role, created_at, updated_at, first_seen_at, last_seen_at)
SELECT
  CAST(r.id AS UUID), r.name, r.email, r.role,
  CAST(r.created_at AS TIMESTAMPTZ), CAST(r.updated_at AS TIMESTAMPTZ),
  CAST($2 AS TIMESTAMPTZ), CAST($2 AS TIMESTAMPTZ)
FROM (
  SELECT unnest(json_transform_strict($1,
    '[{"id":"VARCHAR","name":"VARCHAR","email":"VARCHAR","role":"VARCHAR","created_at":"VARCHAR","updated_at":"VARCHAR"}]'
  )) AS r
)
ON CONFLICT (id) DO UPDATE SET
  name = excluded.name, email = excluded.email, role = excluded.role,
  created_at = excluded.created_at, updated_at = excluded.updated_at, last_seen_at = excluded.last_seen_at;
