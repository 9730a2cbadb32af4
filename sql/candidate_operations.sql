-- API calls whose async operation should be fetched: calls that started one
-- (operation_starting_calls in views.sql; the endpoints that start a job are filled in as a quoted
-- list literal), whose operation is not stored yet and that were created at or after $window_start
-- (the epoch with --operations all), or whose stored operation is still queued, uploaded or in
-- progress, however old. Keyset-paged by (created_at, id) so that one run fetches each candidate
-- once even though re-fetched ones stay candidates; a run cut short leaves its fetched operations
-- stored, so the next one starts past them.
SELECT c.id::VARCHAR AS id, strftime(c.created_at, '%Y-%m-%dT%H:%M:%S.%fZ') AS created_at
FROM operation_starting_calls({{templates}}) AS c
WHERE (
    (NOT c.operation_stored AND c.created_at >= $window_start::TIMESTAMPTZ)
    OR (c.operation_fetch_status = 'found' AND c.operation_status NOT IN ('completed', 'failed'))
  )
  AND (c.created_at > $after_created::TIMESTAMPTZ OR (c.created_at = $after_created::TIMESTAMPTZ AND c.id > $after_id::UUID))
ORDER BY c.created_at, c.id
LIMIT $limit;
