-- The last completed export run: how many hours before $now it ended (to a tenth), or none.
WITH last AS (SELECT max(finished_at) AS finished_at FROM runs WHERE status = 'completed'),
age AS (
  SELECT
    finished_at,
    round((epoch_us(CAST($now AS TIMESTAMPTZ)) - epoch_us(finished_at)) / 3600000000, 1) AS hours
  FROM last
)
SELECT
  'stale' AS rule,
  coalesce(strftime(timezone('UTC', finished_at), '%Y-%m-%dT%H:%M:%SZ'), 'never') AS period,
  coalesce(CAST(hours AS VARCHAR), 'never') AS value,
  CAST($hours AS VARCHAR) AS threshold,
  coalesce('the last completed run ended ' || strftime(timezone('UTC', finished_at), '%Y-%m-%d %H:%M UTC'), 'no export run has completed') AS note
FROM age
WHERE finished_at IS NULL OR hours > CAST($hours AS DOUBLE);
