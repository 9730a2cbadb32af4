-- Calls that started an async operation (operation_starting_calls in sql/views/operations.sql, as for
-- candidate_operations.sql) never fetched because they were created before $window_start: what
-- --operations all would fetch on top of the window.
SELECT count(*)::BIGINT AS n
FROM operation_starting_calls({{templates}}) AS c
WHERE NOT c.operation_stored
  AND c.created_at < $window_start::TIMESTAMPTZ;
