-- Stored calls to re-read one by one: billing not landed yet (completed_at IS NULL, as in the
-- pending_billing view: price may stay null for good on a free call, completed_at is what billing
-- fills in), created before $window_start and not after $scanned_from (the first call this run's
-- scan read, NULL if none: the scan read every call after it; ties with it are re-read to be safe),
-- and not answered 404 before. Never-asked calls first, oldest first, then those asked longest
-- ago; at most $limit. Every row also carries the size of the whole backlog, how many of it were created before
-- $stale_before, and the oldest created_at.
SELECT
  c.id::VARCHAR AS id,
  count(*) OVER ()::INTEGER AS backlog,
  (count(*) FILTER (WHERE c.created_at < $stale_before::TIMESTAMPTZ) OVER ())::INTEGER AS stale,
  strftime(timezone('UTC', min(c.created_at) OVER ()), '%Y-%m-%dT%H:%M:%S.%fZ') AS oldest_created_at
FROM api_calls AS c
LEFT JOIN internal.pending_rereads AS r USING (id)
WHERE c.completed_at IS NULL
  AND c.created_at < $window_start::TIMESTAMPTZ
  AND ($scanned_from::TIMESTAMPTZ IS NULL OR c.created_at <= $scanned_from::TIMESTAMPTZ)
  AND (r.not_found IS NULL OR NOT r.not_found)
ORDER BY r.last_asked_at NULLS FIRST, c.created_at, c.id
LIMIT $limit;
