-- Apply the changed operations of a batch: the latest fetch wins. queue_ms and run_ms are derived here:
-- queued = created -> started, ran = started -> completed.
INSERT OR REPLACE INTO async_operations
SELECT
  id, call_created_at, fetch_status, operation_type, status, user_id,
  created_at, started_at, completed_at, updated_at,
  (epoch_us(started_at) - epoch_us(created_at)) / 1000.0,
  (epoch_us(completed_at) - epoch_us(started_at)) / 1000.0,
  error, src_format, output_format, output_unit, result_value,
  center_of_mass_x, center_of_mass_y, center_of_mass_z,
  material_density, material_density_unit, material_mass, material_mass_unit,
  model, model_version, kcl_version, feedback, prompt, conversation_id, project_name,
  output_count, output_bytes, outputs, details, raw_unknown, fetched_at, $run_id
FROM changed_async_operations;
