-- The staged ids that change the table: new ids, or a newer updated_at than the stored one
-- (the newest updated_at wins; a record read twice with the same updated_at changes nothing).
-- Keys only: the rows stay in staged_api_calls instead of being copied once more.
CREATE OR REPLACE TEMP TABLE changed_api_calls AS
SELECT s.id, s.created_at, a.id IS NULL AS is_new
FROM staged_api_calls AS s
LEFT JOIN api_calls AS a USING (id)
WHERE a.id IS NULL OR s.updated_at > a.updated_at;
