-- Insert new rows from the temp view new_api_calls, which the loader defines per batch: the staged
-- rows whose id is new (changed_api_calls), or, when the loader knows the whole batch is new, the
-- batch's spool files read directly (no staging table).
-- A plain INSERT: in DuckDB an INSERT ... ON CONFLICT DO UPDATE costs about twice as much per row.
-- created_day and created_month are created_at's UTC day and month (sql/tables/api_calls.sql);
-- $run_id marks who wrote them; $units_per_ms turns the raw duration into milliseconds
-- (docs/duration.md).
-- BY NAME: each value goes to the column its name says; the staged rows carry every other column
-- under its own name (test/load/apiCallShape.test.ts).
INSERT INTO api_calls BY NAME
SELECT
  *,
  duration_raw / $units_per_ms AS duration_ms,
  utc_day(created_at) AS created_day,
  utc_month(created_at) AS created_month,
  $run_id AS first_seen_run_id,
  $run_id AS last_changed_run_id
FROM new_api_calls;
