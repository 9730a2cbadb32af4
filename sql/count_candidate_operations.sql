-- How many operations candidate_operations.sql lists in all, over every chunk: the same filter
-- without the keyset, read once before the fetch so its progress can say x / N.
SELECT count(*)::BIGINT AS n
FROM operation_starting_calls({{templates}}) AS c
WHERE (NOT c.operation_stored AND c.created_at >= $window_start::TIMESTAMPTZ)
  OR (c.operation_fetch_status = 'found' AND c.operation_status NOT IN ('completed', 'failed'));
