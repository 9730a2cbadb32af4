-- The operations to fetch (operation_candidates in sql/views/operations.sql; the endpoints that start a job are
-- filled in as a quoted list literal), keyset-paged by (created_at, id) so that one run fetches each
-- candidate once even though re-fetched ones stay candidates; a run cut short leaves its fetched
-- operations stored, so the next one starts past them.
SELECT c.id::VARCHAR AS id, strftime(c.created_at, '%Y-%m-%dT%H:%M:%S.%fZ') AS created_at
FROM operation_candidates({{templates}}, $window_start::TIMESTAMPTZ) AS c
WHERE c.created_at > $after_created::TIMESTAMPTZ
  OR (c.created_at = $after_created::TIMESTAMPTZ AND c.id > $after_id::UUID)
ORDER BY c.created_at, c.id
LIMIT $limit;
