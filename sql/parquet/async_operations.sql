-- The columns of the async_operations Parquet dataset, partitioned like api_calls by the UTC month
-- (or day) of the call that started the operation. Ids as strings (see sql/parquet/api_calls.sql);
-- JSON columns as strings. The start and end placeholders (quoted literals) bound one partition.
-- No ORDER BY: sorting holds the whole partition in memory (about 1 KB a row). Rows
-- stream in the table's order, the order the export fetched them: close to ascending call_created_at.
SELECT
  id::VARCHAR AS id, call_created_at, fetch_status, operation_type, status, user_id::VARCHAR AS user_id,
  created_at, started_at, completed_at, updated_at, queue_ms, run_ms, error,
  src_format, output_format, output_unit, result_value, center_of_mass_x, center_of_mass_y, center_of_mass_z,
  material_density, material_density_unit, material_mass, material_mass_unit,
  model, model_version, kcl_version, feedback, prompt, conversation_id::VARCHAR AS conversation_id, project_name,
  output_count, output_bytes, outputs::VARCHAR AS outputs, details::VARCHAR AS details,
  raw_unknown::VARCHAR AS raw_unknown, fetched_at
FROM async_operations
WHERE call_created_at >= {{start}}::TIMESTAMPTZ AND call_created_at < {{end}}::TIMESTAMPTZ
