-- Spend per async operation type and status (the cost_per_operation_type view, read only when it
-- exists). The view has no date, so this covers the whole history whatever the report's period.
SELECT
  v.operation_type::VARCHAR AS operation_type,
  v.status::VARCHAR AS status,
  v.operations::BIGINT AS operations,
  v.cost_usd::DECIMAL(38, 6)::VARCHAR AS cost_usd
FROM cost_per_operation_type AS v
ORDER BY v.cost_usd DESC, v.operation_type, v.status;
