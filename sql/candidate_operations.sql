-- API calls whose async operation should be fetched: calls that started one (a 2xx POST on an
-- endpoint that starts a job, filled in as a quoted list literal), whose operation is not stored yet
-- and that were created at or after $window_start (the epoch with --operations all), or whose stored
-- operation is still queued, uploaded or in progress, however old. Keyset-paged by (created_at, id)
-- so that one run fetches each candidate once even though re-fetched ones stay candidates; a run
-- cut short leaves its fetched operations stored, so the next one starts past them. The exporter's
-- own calls (ids it received, or its User-Agent) are reads that start nothing: never asked about.
SELECT c.id::VARCHAR AS id, strftime(c.created_at, '%Y-%m-%dT%H:%M:%S.%fZ') AS created_at
FROM api_calls AS c
LEFT JOIN async_operations AS o USING (id)
WHERE c.method = 'POST'
  AND list_contains({{templates}}, c.endpoint_template)
  AND (c.status_code IS NULL OR c.status_code BETWEEN 200 AND 299)
  AND c.id NOT IN (SELECT id FROM own_calls)
  AND NOT coalesce(c.user_agent LIKE 'zoo-usage/%', false)
  AND (
    (o.id IS NULL AND c.created_at >= $window_start::TIMESTAMPTZ)
    OR (o.fetch_status = 'found' AND o.status NOT IN ('completed', 'failed'))
  )
  AND (c.created_at > $after_created::TIMESTAMPTZ OR (c.created_at = $after_created::TIMESTAMPTZ AND c.id > $after_id::UUID))
ORDER BY c.created_at, c.id
LIMIT $limit;
