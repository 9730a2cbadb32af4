-- Calls that started an async operation never fetched because they were created before
-- $window_start: what --operations all would fetch on top of the window. The same call filter as
-- candidate_operations.sql.
SELECT count(*)::BIGINT AS n
FROM api_calls AS c
LEFT JOIN async_operations AS o USING (id)
WHERE c.method = 'POST'
  AND list_contains({{templates}}, c.endpoint_template)
  AND (c.status_code IS NULL OR c.status_code BETWEEN 200 AND 299)
  AND c.id NOT IN (SELECT id FROM own_calls)
  AND NOT coalesce(c.user_agent LIKE 'zoo-usage/%', false)
  AND o.id IS NULL
  AND c.created_at < $window_start::TIMESTAMPTZ;
