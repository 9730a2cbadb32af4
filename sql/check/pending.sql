-- Calls still pending billing (completed_at NULL) made more than $days days before $now.
WITH old AS (
  SELECT count(*) AS calls, min(created_at) AS oldest
  FROM api_calls
  WHERE completed_at IS NULL
    AND created_at < CAST($now AS TIMESTAMPTZ)
      - to_microseconds(CAST(CAST($days AS DECIMAL(18, 6)) * 86400000000 AS BIGINT))
)
SELECT
  'pending' AS rule,
  '-' AS period,
  CAST(calls AS VARCHAR) AS value,
  '0' AS threshold,
  'the oldest made ' || strftime(timezone('UTC', oldest), '%Y-%m-%d') AS note
FROM old
WHERE calls > 0;
