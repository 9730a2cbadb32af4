-- Keep the token ladder small: one rung per exact position (the newest token for it), every rung
-- from $keep_from on (where the next runs will start), and only the last rung of each UTC day
-- before that (enough to restart from an older point if --lookback grows).
DELETE FROM internal.page_ladder
WHERE rowid NOT IN (
  SELECT rowid FROM (
    SELECT
      rowid,
      last_created_at,
      row_number() OVER (PARTITION BY last_created_at ORDER BY run_id DESC) AS newest_for_position,
      row_number() OVER (
        PARTITION BY CAST(timezone('UTC', last_created_at) AS DATE) ORDER BY last_created_at DESC, run_id DESC
      ) AS rank_in_day
    FROM internal.page_ladder
  )
  WHERE newest_for_position = 1 AND (last_created_at >= $keep_from::TIMESTAMPTZ OR rank_in_day = 1)
);
