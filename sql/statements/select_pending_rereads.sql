-- Stored calls to re-read one by one: billing not landed yet (completed_at IS NULL, as in the
-- pending_billing view: price may stay null for good on a free call, completed_at is what billing
-- fills in), created before $window_start and not after $scanned_from (the first call this run's
-- scan read, NULL if none: the scan read every call after it; ties with it are re-read to be safe),
-- and not answered 404 before.
-- A call asked before and still pending is due again once it has waited 2^(asks - 1) days, at most
-- 16, after its last ask, less 12 hours so that a nightly run starting a little earlier than the
-- last one's re-reads ended still counts as a day later: most late billing lands within weeks, so
-- asking every night mostly hears "still pending". Zoo bills at month end, so a call last asked
-- before the latest month start that is a day old ($now less a day, truncated to the month) is due
-- whatever its wait.
-- Never-asked calls first, oldest first, then the due ones asked longest ago; at most $limit. Every
-- row also carries how many are due (backlog), and over every pending call before the window, due
-- or waiting: how many were created before $stale_before and the oldest created_at.
WITH pending AS (
  SELECT
    c.id,
    c.created_at,
    r.last_asked_at,
    r.last_asked_at IS NULL
      OR r.last_asked_at < date_trunc('month', $now::TIMESTAMPTZ - INTERVAL 1 DAY)
      OR $now::TIMESTAMPTZ >= r.last_asked_at
        + to_days(least(16, pow(2, r.asks - 1))::INTEGER) - INTERVAL 12 HOUR AS due,
    (count(*) FILTER (WHERE c.created_at < $stale_before::TIMESTAMPTZ) OVER ())::INTEGER AS stale,
    min(c.created_at) OVER () AS oldest_created_at
  FROM api_calls AS c
  LEFT JOIN internal.pending_rereads AS r USING (id)
  WHERE c.completed_at IS NULL
    AND c.created_at < $window_start::TIMESTAMPTZ
    AND ($scanned_from::TIMESTAMPTZ IS NULL OR c.created_at <= $scanned_from::TIMESTAMPTZ)
    AND (r.not_found IS NULL OR NOT r.not_found)
)
SELECT
  id::VARCHAR AS id,
  count(*) OVER ()::INTEGER AS backlog,
  stale,
  strftime(timezone('UTC', oldest_created_at), '%Y-%m-%dT%H:%M:%S.%fZ') AS oldest_created_at
FROM pending
WHERE due
ORDER BY last_asked_at NULLS FIRST, created_at, id
LIMIT $limit;
