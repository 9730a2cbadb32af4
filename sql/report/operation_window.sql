-- The UTC days of the first and last operation that spend by operation type covers: the view
-- cost_per_operation_type sums operations_with_cost, the operations an export fetched and found
-- (by default those of the calls created within --operations-window of each run), whatever the
-- report's period. NULLs when none is stored, or none has a created_at.
SELECT
  strftime(timezone('UTC', min(created_at)), '%Y-%m-%d') AS first_day,
  strftime(timezone('UTC', max(created_at)), '%Y-%m-%d') AS last_day
FROM operations_with_cost;
